/**
 * Agent routes: the platform's (create, list, get, new device code, code status), the public
 * redeem, and the agent's own `/agents/me*` (Bearer only: with Basic there is no agent to be).
 */
import { randomBytes } from 'node:crypto';
import { idPattern } from '../../../service/identifiers.js';
import { badRequest, conflict, invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { accounts, renderAccount } from '../accounts/accounts.js';
import { customers } from '../customers/customers.js';
import {
  agents,
  deviceCodes,
  getAgent,
  hashToken,
  issueDeviceCode,
  me,
  renderAgent,
  renderDeviceCode,
} from './agents.js';
import { readPolicy } from './policy.js';
import { newId } from '../../kernel/ids.js';

export const agentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/agents',
    permission: 'MANAGE',
    handler(req, emu) {
      const f = new Fields(req.json());
      // Required fields are the description's, checked before this runs.
      const name = f.string('name', { minLength: 1, maxLength: 200 });
      const customerId = f.string('customerId', { pattern: idPattern('Customer') });
      const policy = readPolicy(f);
      f.done();
      // POST /agents declares no 404: an unknown customer is a bad field.
      if (!emu.table(customers).has(customerId!))
        throw invalidInput([{ field: 'customerId', message: `Customer ${customerId} not found` }]);
      const now = emu.iso();
      const id = newId('Agent');
      const agent = emu.table(agents).set(id, {
        id,
        name: name!,
        customerId: customerId!,
        isPaused: false,
        isConnected: false,
        policy: policy!,
        createdAt: now,
        updatedAt: now,
      });
      return {
        status: 201,
        body: { agent: renderAgent(emu, agent), deviceCode: renderDeviceCode(emu, issueDeviceCode(emu, agent.id)) },
      };
    },
  },
  {
    method: 'GET',
    path: '/agents',
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const customerId = f.string('customerId', { pattern: idPattern('Customer') });
      const flag = (name: string) => f.string(name, { enum: ['true', 'false'] });
      const isPaused = flag('isPaused');
      const isConnected = flag('isConnected');
      const page = readPage(f);
      f.done();
      const rows = emu
        .table(agents)
        .filter(
          (a) =>
            (!customerId || a.customerId === customerId) &&
            (!isPaused || String(a.isPaused) === isPaused) &&
            (!isConnected || String(a.isConnected) === isConnected),
        );
      return {
        status: 200,
        body: pageOf(
          rows.map((a) => renderAgent(emu, a)),
          page,
        ),
      };
    },
  },
  {
    method: 'GET',
    path: '/agents/me',
    permission: 'VIEW',
    handler: (req, emu) => ({ status: 200, body: renderAgent(emu, me(req, emu)) }),
  },
  {
    method: 'GET',
    path: '/agents/me/internal-accounts',
    permission: 'VIEW',
    handler(req, emu) {
      const agent = me(req, emu);
      const data = emu
        .table(accounts)
        .filter((a) => a.customerId === agent.customerId)
        .map(renderAccount);
      return { status: 200, body: { data, hasMore: false, totalCount: data.length } };
    },
  },
  {
    method: 'GET',
    path: '/agents/:agentId',
    permission: 'VIEW',
    handler: (req, emu) => ({ status: 200, body: renderAgent(emu, getAgent(emu, req.params.agentId!)) }),
  },
  {
    method: 'POST',
    path: '/agents/:agentId/device-codes',
    permission: 'MANAGE',
    handler(req, emu) {
      const agent = getAgent(emu, req.params.agentId!);
      if (agent.isConnected) throw conflict('CONFLICT', `${agent.id} is already connected: its access token is in use`);
      return { status: 201, body: renderDeviceCode(emu, issueDeviceCode(emu, agent.id)) };
    },
  },
  {
    method: 'GET',
    path: '/agents/device-codes/:code/status',
    permission: 'VIEW',
    logPath: '/agents/device-codes/{code}/status',
    handler(req, emu) {
      const code = emu.table(deviceCodes).get(req.params.code!);
      if (!code) throw notFound('Device code', req.params.code!);
      return { status: 200, body: { code: code.code, redeemed: code.redeemed } };
    },
  },
  {
    method: 'POST',
    path: '/agents/device-codes/:code/redeem',
    permission: 'MANAGE',
    public: true,
    // The code is a secret until redeemed: the log shows the route, not the code.
    logPath: '/agents/device-codes/{code}/redeem',
    handler(req, emu) {
      const code = emu.table(deviceCodes).get(req.params.code!);
      if (!code) throw notFound('Device code', '(given)');
      if (code.redeemed)
        throw badRequest('INVALID_INPUT', 'This device code was already redeemed; ask the platform for a new one');
      if (code.superseded)
        throw badRequest('INVALID_INPUT', 'This device code was replaced by a newer one; redeem that one');
      if (code.expiresAtMs <= emu.now())
        throw badRequest('INVALID_INPUT', 'This device code has expired; ask the platform for a new one');
      const agent = getAgent(emu, code.agentId);
      const accessToken = `agt_${randomBytes(32).toString('base64url')}`;
      code.redeemed = true;
      agent.tokenHash = hashToken(accessToken);
      agent.isConnected = true;
      agent.updatedAt = emu.iso();
      // set, not changed(): the bearer check finds the agent by this hash (byTokenHash).
      emu.table(agents).set(agent.id, agent);
      return { status: 200, body: { agentId: agent.id, agentName: agent.name, accessToken, policy: agent.policy } };
    },
  },
];
