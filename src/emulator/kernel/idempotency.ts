/**
 * Idempotency-Key answers, a facility of the kernel: the first successful answer under a key is kept
 * a day and is the answer to every repeat. A key belongs to what it was first used for (`target`:
 * `METHOD path` unless the route names it, e.g. a quote id); using it for something else is 400.
 *
 * A route opts in with `idempotent` (router.ts): the kernel answers a repeat before the handler runs
 * and keeps the handler's success (answerOnce). A flow that decides mid-way what to keep (a signed
 * retry keeps its settled answer, not its 202 challenge; an agent's operation held for approval keeps
 * its refusal) calls idempotencyKey, recall and remember itself.
 */
import type { EmulatorContext } from './context.js';
import { badRequest } from './errors.js';
import type { Reply, Req, Route } from './router.js';
import { durableTable } from './tables.js';

interface IdempotentAnswer {
  key: string;
  target: string;
  reply: Reply;
  atMs: number;
}

// Stryker disable next-line StringLiteral: any name unique among the tables keeps the same answers (it keys the --state file).
export const idempotentAnswers = durableTable<IdempotentAnswer>('idempotencyKeys', {
  key: 'string',
  target: 'string',
  reply: 'object',
  atMs: 'number',
});
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The request's Idempotency-Key (400 when empty or longer than 255). */
export function idempotencyKey(req: Req): string | undefined {
  const key = req.header('idempotency-key');
  if (key !== undefined && (key.length === 0 || key.length > 255)) {
    throw badRequest('INVALID_INPUT', 'Idempotency-Key must be 1 to 255 characters', {
      errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }],
    });
  }
  return key;
}

/** The answer kept for key, if any; 400 when the key was used for another target. */
export function recall(emu: EmulatorContext, key: string | undefined, target: string): Reply | undefined {
  // Stryker disable next-line ConditionalExpression: looking up no key finds nothing either; this only skips the lookup.
  if (key === undefined) return undefined;
  const seen = emu.table(idempotentAnswers).get(key);
  if (!seen) return undefined;
  if (seen.target !== target) {
    throw badRequest('INVALID_INPUT', `Idempotency-Key ${key} was used for ${seen.target}; use a new key`, {
      errors: [{ field: 'Idempotency-Key', message: `already used for ${seen.target}` }],
    });
  }
  return seen.reply;
}

/**
 * Keeps a successful answer under key; returns it. A refusal is not kept: the corrected request may
 * use the same key. Every answer below 300 is a success (no handler answers 1xx). `keep` overrides
 * that for a refusal that did something (an agent's operation held for approval: its 403 names the
 * pending action a repeat must not make again).
 */
export function remember(
  emu: EmulatorContext,
  key: string | undefined,
  target: string,
  reply: Reply,
  keep = reply.status < 300,
): Reply {
  // Stryker disable next-line ConditionalExpression: a keyless request is never recalled, so keeping its answer changes nothing.
  if (key === undefined) return reply;
  if (keep) emu.table(idempotentAnswers).set(key, { key, target, reply, atMs: emu.now() });
  return reply;
}

/** The answer of a route that opted in (`Route.idempotent`): a repeat's kept answer, else the handler's, kept when a success. */
export async function answerOnce(route: Route, req: Req, emu: EmulatorContext): Promise<Reply> {
  const key = idempotencyKey(req);
  const target = route.idempotent?.target?.(req) ?? `${req.method} ${req.path}`;
  return recall(emu, key, target) ?? remember(emu, key, target, await route.handler(req, emu));
}

/** Forgets the answers older than IDEMPOTENCY_TTL_MS (the kernel's sweep). */
export function forgetExpiredAnswers(emu: EmulatorContext, nowMs: number): void {
  emu.table(idempotentAnswers).deleteWhere((a) => a.atMs + IDEMPOTENCY_TTL_MS <= nowMs);
}
