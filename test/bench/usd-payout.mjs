// The accounts of a USD payout bench: the platform's USD internal account, funded far beyond any
// run, and an external USD account to pay. `call(method, path, body)` answers { status, body }.
import { prove } from './proof.mjs';

export async function usdPayoutAccounts(call) {
  const source = (await call('GET', '/platform/internal-accounts?currency=USD')).body.data[0].id;
  await call('POST', `/sandbox/internal-accounts/${source}/fund`, { amount: 100_000_000_000 });
  const payee = await call('POST', '/customers/external-accounts', {
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '123456789',
      routingNumber: '021000021',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Payee' },
    },
  });
  prove(payee.status === 201, `external account: ${payee.status} ${JSON.stringify(payee.body)}`);
  return { source, destination: payee.body.id };
}
