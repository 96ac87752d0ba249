/**
 * Agents and their bearer scheme: `Authorization: Bearer <accessToken>` is accepted on every
 * endpoint and makes the caller the agent, bound to its customer (kernel/agent-scope.ts hides the
 * rest of the platform from it).
 */
import { basicRefused, type Authenticator } from '../../kernel/auth.js';
import type { Feature } from '../../kernel/feature.js';
import { agents, deviceCodes, hashToken } from './agents.js';
import { agentRoutes } from './routes.js';

const DAY_MS = 24 * 3600 * 1000;

const bearer: Authenticator = (token, emu) => {
  const hash = hashToken(token);
  const agent = token ? emu.table(agents).find((a) => a.tokenHash === hash) : undefined;
  if (!agent) throw basicRefused('Unknown agent access token: redeem a device code for one');
  return { kind: 'agent', agentId: agent.id, customerId: agent.customerId };
};

export const agentsFeature: Feature = {
  name: 'agents',
  routes: agentRoutes,
  tables: [agents, deviceCodes],
  authSchemes: { bearer },
  sweep(emu, now) {
    emu.table(deviceCodes).deleteWhere((d) => !d.redeemed && d.expiresAtMs < now - DAY_MS);
  },
};
