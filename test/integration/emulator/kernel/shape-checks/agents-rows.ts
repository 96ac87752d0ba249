// Agents, delegated keys, invitations, directories, verifications and tokens.
import { get, id, patch, post, type Row, without } from './row.js';

const policy = {
  permissions: ['VIEW_TRANSACTIONS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 100 },
};
const agent = { name: 'A', customerId: 'c', policy };
const policyWith = (changes: object) => ({
  ...agent,
  policy: { ...policy, ...changes },
});
const agentPolicy = `/agents/${id('Agent')}/policy`;
const delegated = { cardId: 'c', internalAccountId: 'a', nickname: 'n' };

export const AGENT_ROWS: Record<string, Row[]> = {
  agents: [
    post('/agents', without(agent, 'name'), 'name', 'required'),
    post('/agents', without(agent, 'customerId'), 'customerId', 'required'),
    post('/agents', without(agent, 'policy'), 'policy', 'required'),
    ...['permissions', 'defaultExecutionMode', 'spendingLimits'].map((name) =>
      post('/agents', { ...agent, policy: without(policy, name) }, `policy.${name}`, 'required'),
    ),
    post('/agents', policyWith({ permissions: ['FLY'] }), 'policy.permissions[0]', 'enum'),
    post('/agents', policyWith({ defaultExecutionMode: 'SOMETIMES' }), 'policy.defaultExecutionMode', 'enum'),
    post(
      '/agents',
      policyWith({ spendingLimits: { currency: 'USD' } }),
      'policy.spendingLimits.perTransactionLimit',
      'required',
    ),
    post(
      '/agents',
      policyWith({ spendingLimits: { perTransactionLimit: 1 } }),
      'policy.spendingLimits.currency',
      'required',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: {} } }),
      'policy.accountRestrictions.accountRules',
      'type',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: [5] } }),
      'policy.accountRestrictions.accountRules[0]',
      'type',
    ),
    post(
      '/agents',
      policyWith({ accountRestrictions: { accountRules: [{}] } }),
      'policy.accountRestrictions.accountRules[0].accountId',
      'required',
    ),
    post(
      '/agents',
      policyWith({
        accountRestrictions: {
          accountRules: [{ accountId: 'a', executionMode: 'NEVER' }],
        },
      }),
      'policy.accountRestrictions.accountRules[0].executionMode',
      'enum',
    ),
    patch(agentPolicy, { permissions: ['FLY'] }, 'permissions[0]', 'enum'),
    patch(agentPolicy, { defaultExecutionMode: 'SOMETIMES' }, 'defaultExecutionMode', 'enum'),
    patch(
      agentPolicy,
      { accountRestrictions: { accountRules: [{}] } },
      'accountRestrictions.accountRules[0].accountId',
      'required',
    ),
  ],
  'delegated-keys': [
    ...Object.keys(delegated).map((name) => post('/auth/delegated-keys', without(delegated, name), name, 'required')),
    post('/auth/delegated-keys', { ...delegated, nickname: '' }, 'nickname', 'minLength'),
    post('/auth/delegated-keys', { ...delegated, nickname: 'n'.repeat(257) }, 'nickname', 'maxLength'),
  ],
  invitations: [
    post('/invitations', {}, 'inviterUma', 'required'),
    post('/invitations', { inviterUma: '$a@b.test', expiresAt: 'March 7, 2099 10:00' }, 'expiresAt', 'format'),
    post('/invitations/NOSUCHCODE/claim', {}, 'inviteeUma', 'required'),
  ],
  directories: [
    get('/discoveries?country=XX', 'country', 'format'),
    get('/uma-providers?countryCode=EU', 'countryCode', 'format'),
    get('/uma-providers?hasBlockedProviders=maybe', 'hasBlockedProviders', 'type'),
    get('/uma-providers?sortOrder=up', 'sortOrder', 'enum'),
  ],
  verifications: [
    post('/verifications', {}, 'customerId', 'required'),
    get('/verifications?verificationStatus=DONE', 'verificationStatus', 'enum'),
  ],
  tokens: [
    post('/tokens', { permissions: ['VIEW'] }, 'name', 'required'),
    post('/tokens', { name: 'n' }, 'permissions', 'required'),
    post('/tokens', { name: 'n', permissions: ['ALL'] }, 'permissions[0]', 'enum'),
  ],
};
