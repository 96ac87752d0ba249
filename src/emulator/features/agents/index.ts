/**
 * Agents and their bearer scheme: `Authorization: Bearer <accessToken>` is accepted on every
 * endpoint and makes the caller the agent, bound to its customer (kernel/agent-scope.ts hides the
 * rest of the platform from it).
 */
import { basicRefused, type Authenticator } from '../../kernel/auth.js';
import type { Feature } from '../../kernel/feature.js';
import { agents, byTokenHash, deviceCodes, hashToken } from './agents.js';
import { agentActions, myActionRoutes } from './actions.js';
import { approvalRoutes } from './approvals.js';
import { manageRoutes } from './manage.js';
import { agentGateRoutes, agentMeRoutes } from './me-routes.js';
import { agentRoutes } from './routes.js';

const DAY_MS = 24 * 3600 * 1000;

const bearer: Authenticator = (token, emu) => {
  const hash = hashToken(token);
  const agent = token ? emu.table(agents).first(byTokenHash, hash) : undefined;
  if (!agent) throw basicRefused('Unknown agent access token: redeem a device code for one');
  return { kind: 'agent', agentId: agent.id, customerId: agent.customerId };
};

export const agentsFeature: Feature = {
  name: 'agents',
  // Fixed paths (`/agents/approvals`, `/agents/me/…`) before `/agents/:agentId`; the gates put an
  // agent's Bearer calls of the money areas' own paths under its policy too.
  routes: [...approvalRoutes, ...agentMeRoutes, ...myActionRoutes, ...agentRoutes, ...manageRoutes, ...agentGateRoutes],
  tables: [agents, deviceCodes, agentActions],
  authSchemes: { bearer },
  sweep(emu, now) {
    emu.table(deviceCodes).deleteWhere((d) => !d.redeemed && d.expiresAtMs < now - DAY_MS);
  },
};
