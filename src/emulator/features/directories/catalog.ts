/**
 * The emulator's directories (the description gives their shapes, not their contents): payment
 * institutions by corridor, UMA providers, VASPs. Invented sandbox entries on `.test` and
 * `.example` domains, so nothing looks like a real institution's address.
 */
export const INSTITUTIONS = [
  { bankName: 'SVC_SANDBOX_BANK_US', displayName: 'svc Sandbox Bank (US)', country: 'US', currency: 'USD' },
  { bankName: 'SVC_SANDBOX_CREDIT_UNION', displayName: 'svc Sandbox Credit Union', country: 'US', currency: 'USD' },
  { bankName: 'SVC_SANDBOX_BANK_DE', displayName: 'svc Sandbox Bank (DE)', country: 'DE', currency: 'EUR' },
  { bankName: 'SVC_SANDBOX_BANK_FR', displayName: 'svc Sandbox Bank (FR)', country: 'FR', currency: 'EUR' },
  { bankName: 'SVC_SANDBOX_BANCO_MX', displayName: 'svc Banco de Pruebas (MX)', country: 'MX', currency: 'MXN' },
] as const;

export const UMA_PROVIDERS = [
  {
    name: 'svc Sandbox UMA (US)',
    domain: 'us.uma.svc.test',
    regions: ['US'],
    currencies: ['USD'],
    lei: 'SVCSANDBOXUS000000001',
  },
  {
    name: 'svc Sandbox UMA (EU)',
    domain: 'eu.uma.svc.test',
    regions: ['DE', 'FR', 'ES'],
    currencies: ['EUR'],
    lei: 'SVCSANDBOXEU000000002',
  },
  {
    name: 'svc Sandbox UMA (MX)',
    domain: 'mx.uma.svc.test',
    regions: ['MX'],
    currencies: ['MXN', 'USD'],
    lei: 'SVCSANDBOXMX000000003',
  },
] as const;

export const VASPS = [
  { vaspName: 'svc Sandbox Exchange', url: 'https://exchange.svc.test' },
  { vaspName: 'svc Sandbox Custody', url: 'https://custody.svc.test' },
  { vaspName: 'svc Sandbox Wallet' },
] as const;
