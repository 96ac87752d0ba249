/**
 * The platform's changes to an agent (Basic only): `PATCH /agents/{id}` (`name`, `isPaused`: a
 * paused agent's operations are 403), `PATCH /agents/{id}/policy` (a partial AgentPolicy: omitted
 * fields keep their values; checked as at creation, applied to the next operation) and `DELETE /agents/{id}` (its token stops working,
 * its pending actions are rejected).
 */
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { agentActions } from './actions.js';
import { agents, deviceCodes, getAgent, renderAgent } from './agents.js';
import { updatePolicy } from './policy.js';

export const manageRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/agents/:agentId',
    permission: 'MANAGE',
    basicOnly: true,
    handler(req, emu) {
      const f = new Fields(req.json());
      const name = f.string('name', { minLength: 1, maxLength: 200 });
      const isPaused = f.boolean('isPaused');
      f.done();
      const agent = getAgent(emu, req.params.agentId!);
      if (name !== undefined) agent.name = name;
      if (isPaused !== undefined) agent.isPaused = isPaused;
      agent.updatedAt = emu.iso();
      emu.changed();
      return { status: 200, body: renderAgent(emu, agent) };
    },
  },
  {
    method: 'PATCH',
    path: '/agents/:agentId/policy',
    permission: 'MANAGE',
    basicOnly: true,
    handler(req, emu) {
      const agent = getAgent(emu, req.params.agentId!);
      const f = new Fields(req.json());
      const policy = updatePolicy(f, agent.policy);
      f.done();
      agent.policy = policy;
      agent.updatedAt = emu.iso();
      emu.changed();
      return { status: 200, body: renderAgent(emu, agent) };
    },
  },
  {
    method: 'DELETE',
    path: '/agents/:agentId',
    permission: 'MANAGE',
    basicOnly: true,
    handler(req, emu) {
      const agent = getAgent(emu, req.params.agentId!);
      const now = emu.iso();
      for (const action of emu
        .table(agentActions)
        .filter((a) => a.agentId === agent.id && a.status === 'PENDING_APPROVAL')) {
        action.status = 'REJECTED';
        action.rejectionReason = 'The agent was deleted';
        action.updatedAt = now;
      }
      emu.table(deviceCodes).deleteWhere((d) => d.agentId === agent.id);
      emu.table(agents).delete(agent.id);
      return { status: 204 };
    },
  },
];
