/**
 * Agents (the description's §10): an agent acts for one customer under a policy. The platform
 * creates it (with a first device code); the agent redeems the code once for an access token, which
 * it then sends as `Authorization: Bearer`. Only the token's SHA-256 is kept: it is shown once.
 */
import { createHash, randomInt } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound, unauthorized } from '../../kernel/errors.js';
import type { Req } from '../../kernel/router.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';
import type { AgentRec } from './agent-record.js';
import { usage } from './enforce.js';

export type { AgentRec } from './agent-record.js';

export interface DeviceCodeRec {
  code: string;
  agentId: string;
  expiresAtMs: number;
  redeemed: boolean;
  /** A newer code for the same agent replaced it before it was redeemed. */
  superseded?: boolean;
}

export const agents = durableTable<AgentRec>('agents', {
  id: 'string',
  name: 'string',
  customerId: 'string',
  isPaused: 'boolean',
  isConnected: 'boolean',
  policy: 'object',
  createdAt: 'string',
  updatedAt: 'string',
  tokenHash: 'string?',
});
export const deviceCodes = durableTable<DeviceCodeRec>('agentDeviceCodes', {
  code: 'string',
  agentId: 'string',
  expiresAtMs: 'number',
  redeemed: 'boolean',
  superseded: 'boolean?',
});
/** The agent an access token belongs to (by its hash: the token itself is never kept). */
export const byTokenHash = tableIndex<AgentRec>((a) => a.tokenHash);
const codesByAgent = tableIndex<DeviceCodeRec>((d) => d.agentId);

/** How long a device code may wait to be redeemed (the description gives expiresAt, not its length). */
const DEVICE_CODE_TTL_MS = 10 * 60 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export function getAgent(emu: EmulatorContext, id: string): AgentRec {
  const agent = emu.table(agents).get(id);
  if (!agent) throw notFound('Agent', id);
  return agent;
}

/** The calling agent of an `/agents/me*` request (401 with Basic: there is no agent to be). */
export function me(req: Req, emu: EmulatorContext): AgentRec {
  if (req.principal.kind !== 'agent')
    throw unauthorized(
      `${req.path} is for agents: send Authorization: Bearer <accessToken from POST /agents/device-codes/{code}/redeem>`,
    );
  return getAgent(emu, req.principal.agentId);
}

export function renderAgent(emu: EmulatorContext, a: AgentRec): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    customerId: a.customerId,
    isPaused: a.isPaused,
    isConnected: a.isConnected,
    policy: a.policy,
    usage: usage(emu, a),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function renderDeviceCode(emu: EmulatorContext, d: DeviceCodeRec): Record<string, unknown> {
  return { code: d.code, agentId: d.agentId, expiresAt: emu.iso(d.expiresAtMs), redeemed: d.redeemed };
}

/** Letters a person reads off one screen and types on another: no 0/O, 1/I. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh code `XXXX-XXXX`; earlier unredeemed codes of the agent stop working. */
export function issueDeviceCode(emu: EmulatorContext, agentId: string): DeviceCodeRec {
  for (const old of emu
    .table(deviceCodes)
    .where(codesByAgent, agentId)
    .filter((d) => !d.redeemed))
    old.superseded = true;
  let code: string;
  do {
    const chars = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]);
    code = `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
  } while (emu.table(deviceCodes).has(code));
  return emu
    .table(deviceCodes)
    .set(code, { code, agentId, expiresAtMs: emu.now() + DEVICE_CODE_TTL_MS, redeemed: false });
}
