// SCA and auth credentials: one row per shape rule their handlers dropped.
import { get, id, post, type Row, without } from './row.js';

const sca = (path: string) => `/sca/${path}?customerId=${id('Customer')}`;
const ip = { endUserIpAddress: '192.0.2.1' };
const confirmTrust = (verb: string): Row[] => [
  post(`/customers/external-accounts/${id('ExternalAccount')}/${verb}/confirm`, {}, 'code', 'required'),
  post(`/customers/external-accounts/${id('ExternalAccount')}/${verb}/confirm`, { code: 5 }, 'code', 'type'),
  post(
    `/customers/external-accounts/${id('ExternalAccount')}/${verb}/confirm`,
    { passkeyAssertion: {} },
    'origin',
    'required',
  ),
];
const SCA_ROWS: Row[] = [
  get('/sca/factors', 'customerId', 'required'),
  post(sca('factors'), {}, 'type', 'required'),
  post(sca('factors'), { type: 'SMS_OTP' }, 'type', 'enum'),
  post(sca('factors/confirm'), {}, 'type', 'required'),
  post(sca('factors/confirm'), { type: 'HOTP' }, 'type', 'enum'),
  post(sca('factors/confirm'), { type: 'TOTP', code: '1' }, 'secret', 'required'),
  post(sca('factors/confirm'), { type: 'TOTP', secret: 's' }, 'code', 'required'),
  post(sca('factors/confirm'), { type: 'PASSKEY', credential: {} }, 'origin', 'required'),
  post(sca('factors/confirm'), { type: 'PASSKEY', origin: 'o' }, 'credential', 'required'),
  post(sca('factors/confirm'), { type: 'PASSKEY', origin: 'o', credential: 'c' }, 'credential', 'type'),
  post(sca('login/start'), {}, 'factor', 'required'),
  post(sca('login/start'), { factor: 'EMAIL_OTP' }, 'factor', 'enum'),
  post(sca('login/complete'), { ...ip, code: '1' }, 'factor', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'EMAIL_OTP', code: '1' }, 'factor', 'enum'),
  post(sca('login/complete'), { factor: 'SMS_OTP', code: '1' }, 'endUserIpAddress', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'SMS_OTP' }, 'code', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'PASSKEY', passkeyAssertion: {} }, 'origin', 'required'),
  post(sca('login/complete'), { ...ip, factor: 'SMS_OTP', code: 5 }, 'code', 'type'),
  post(sca('record-event'), {}, 'eventType', 'required'),
  post(sca('record-event'), { eventType: 'LOGIN' }, 'eventType', 'enum'),
  post(sca('factors/reset'), {}, 'factor', 'required'),
  post(sca('factors/reset'), { factor: 'EMAIL_OTP' }, 'factor', 'enum'),
  post(sca(`factors/reset/${id('ScaReset')}/complete`), { mobile: { number: '1' } }, 'mobile.countryCode', 'required'),
  post(sca(`factors/reset/${id('ScaReset')}/complete`), { mobile: { countryCode: '+1' } }, 'mobile.number', 'required'),
  ...confirmTrust('trust'),
  ...confirmTrust('untrust'),
];
const attestation = {
  credentialId: 'c',
  clientDataJson: 'd',
  attestationObject: 'o',
};
const passkey = {
  type: 'PASSKEY',
  accountId: 'a',
  nickname: 'n',
  challenge: 'c',
  attestation,
};
const assertion = {
  credentialId: 'c',
  clientDataJson: 'd',
  authenticatorData: 'a',
  signature: 's',
};
const verify = `/auth/credentials/${id('AuthMethod')}/verify`;
const CREDENTIAL_ROWS: Row[] = [
  get('/auth/credentials', 'accountId', 'required'),
  post('/auth/credentials', { accountId: 'a' }, 'type', 'required'),
  post('/auth/credentials', { type: 'PIN', accountId: 'a' }, 'type', 'enum'),
  post('/auth/credentials', { type: 'EMAIL_OTP' }, 'accountId', 'required'),
  post('/auth/credentials', { type: 'OAUTH', accountId: 'a' }, 'oidcToken', 'required'),
  ...['nickname', 'challenge', 'attestation'].map((name) =>
    post('/auth/credentials', without(passkey, name), name, 'required'),
  ),
  post('/auth/credentials', { ...passkey, nickname: null }, 'nickname', 'type'),
  ...Object.keys(attestation).map((name) =>
    post(
      '/auth/credentials',
      { ...passkey, attestation: without(attestation, name) },
      `attestation.${name}`,
      'required',
    ),
  ),
  post(
    '/auth/credentials',
    { ...passkey, attestation: { ...attestation, transports: ['wifi'] } },
    'attestation.transports[0]',
    'enum',
  ),
  post(verify, {}, 'type', 'required'),
  post(verify, { type: 'PIN' }, 'type', 'enum'),
  post(verify, { type: 'EMAIL_OTP' }, 'encryptedOtpBundle', 'required'),
  post(verify, { type: 'SMS_OTP', encryptedOtpBundle: 5 }, 'encryptedOtpBundle', 'type'),
  post(verify, { type: 'OAUTH', clientPublicKey: `02${'a'.repeat(64)}` }, 'oidcToken', 'required'),
  post(verify, { type: 'OAUTH', oidcToken: 't' }, 'clientPublicKey', 'required'),
  post(verify, { type: 'PASSKEY' }, 'assertion', 'required'),
  ...Object.keys(assertion).map((name) =>
    post(verify, { type: 'PASSKEY', assertion: without(assertion, name) }, `assertion.${name}`, 'required'),
  ),
];

export const AUTH_ROWS: Record<string, Row[]> = {
  sca: SCA_ROWS,
  auth: CREDENTIAL_ROWS,
};
