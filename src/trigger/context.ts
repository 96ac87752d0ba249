/**
 * What a recipe works with: the API client, whether to follow delayed outcomes, how to wait between
 * polls (tests advance the emulator's clock instead of sleeping), where progress goes, and the ids
 * of what it made. Only the service's answers become `observed`.
 */
import type { ApiClient } from '../http/types.js';
import { ApiError } from '../errors.js';
import type { TriggerInputs } from './inputs.js';

export interface TriggerContext {
  client: ApiClient;
  /** Follow delayed outcomes (30 s, 6 min, returned payments) to their end. */
  wait: boolean;
  /** Waits between polls, `ms` on the service's clock; the command sleeps, a test moves the emulator clock. */
  sleep(ms: number): Promise<void>;
  /** The service's time (service-clock.ts): delays are measured on it, so a time-scaled emulator is not waited for in real time. */
  now(): Promise<number>;
  /** Said after the expected wait of a delayed outcome (how to make it shorter), when there is something to say. */
  waitNote?: string;
  progress(text: string): void;
  signal?: AbortSignal;
  /** Ids of the resources made or reused, by role (customerId, cardId, quoteId, …). */
  resources: Record<string, string>;
  /** The roles of `resources` that were the caller's own (a given customer or account), not made by the run. */
  reused: string[];
  /** The resources given to reuse and the values given to set, already checked (inputs.ts). */
  inputs: TriggerInputs;
}

export type Body = Record<string, unknown>;

/** The description of what a scenario creates that takes one (quotes): where it came from, in the service's records. */
export const CREATED_BY = 'sandbox trigger scenario';

function asObject(body: unknown, method: string, path: string, status: number): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError({
      status,
      code: 'INVALID_RESPONSE',
      message: `${method} ${path} did not answer a JSON object`,
      method,
      path,
    });
  }
  return body as Body;
}

export async function call(
  ctx: TriggerContext,
  method: string,
  path: string,
  body?: object | string,
  headers?: Record<string, string>,
): Promise<Body> {
  const res = await ctx.client.request({ method, path, body, headers, signal: ctx.signal });
  return asObject(res.body, method, path.split('?')[0]!, res.status);
}

/** A string field of an answer; an INVALID_RESPONSE ApiError naming it when absent. */
export function field(body: Body, name: string, where: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') {
    throw new ApiError({ status: 200, code: 'INVALID_RESPONSE', message: `${where} answered without "${name}"` });
  }
  return value;
}

/** The answer's fields that are set, of those named: what `observed` carries. */
export function pick(body: Body, names: readonly string[]): Body {
  return Object.fromEntries(names.filter((n) => body[n] !== undefined && body[n] !== null).map((n) => [n, body[n]]));
}

/**
 * Re-reads until `done` (told how long it has waited) or until `budgetMs` of waiting has passed,
 * polling every `everyMs`, all on the service's clock; returns the last answer either way (the
 * report shows where it stopped).
 */
export async function poll(
  ctx: TriggerContext,
  read: () => Promise<Body>,
  done: (b: Body, waitedMs: number) => boolean,
  budgetMs: number,
  everyMs = 1000,
): Promise<Body> {
  const start = await ctx.now();
  let body = await read();
  for (let waited = 0; !done(body, waited) && waited < budgetMs; ) {
    await ctx.sleep(everyMs);
    waited = (await ctx.now()) - start;
    body = await read();
  }
  return body;
}
