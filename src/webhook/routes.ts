/**
 * Routes (`TYPES=URL`, repeatable): one listener, several local apps. An event goes to the first
 * route whose types include it, else to the fallback (`forwardTo`) if given, else nowhere (it is
 * still shown). Dedupe happens once, before routing, so an event reaches one app once whatever
 * the routes. `@file` stands for the routes of a file, one `TYPES=URL` a line (blank lines and `#`
 * comments skipped), in order, where it stood: a team keeps its routing in the repository.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { parseEventTypes } from './event-types.js';
import {
  createForwarder,
  forwardTarget,
  type ForwardResult,
  type Forwarder,
  type ForwarderOptions,
} from './forward.js';

export interface Route {
  types: ReadonlySet<string>;
  forwarder: Forwarder;
}

/** The routes `values` give (files expanded), each checked before anything starts; errors name `input`. */
export async function readRoutes(
  values: readonly string[],
  input = 'route',
  forwarding: ForwarderOptions = {},
): Promise<Route[]> {
  const lines: string[] = [];
  for (const value of values) lines.push(...(value.startsWith('@') ? await routeFile(value, input) : [value]));
  return lines.map((line) => parseRoute(line, input, forwarding));
}

async function routeFile(value: string, input: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(value.slice(1), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read the routes file ${value.slice(1)} (${code})`, {
      input,
      reason: 'UNREADABLE_ROUTES',
    });
  }
  const found = text
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*/, '').trim())
    .filter((line) => line !== '');
  if (found.length === 0)
    throw new UsageError(`${value}: the file has no TYPES=URL line`, { input, reason: 'EMPTY_ROUTES_FILE' });
  return found;
}

function parseRoute(value: string, input: string, forwarding: ForwarderOptions): Route {
  const at = value.indexOf('=');
  if (at <= 0 || at === value.length - 1) {
    throw new UsageError(`must be TYPES=URL, e.g. 'CARD.*=http://localhost:3000/cards', got "${value}"`, {
      input,
      reason: 'NOT_A_ROUTE',
    });
  }
  const types = parseEventTypes(value.slice(0, at), input)!;
  const target = value.slice(at + 1).trim();
  if (!forwardTarget(target))
    throw new UsageError(`${value}: the target must be an http(s) URL`, { input, reason: 'NOT_HTTP_URL' });
  return { types, forwarder: createForwarder(target, forwarding) };
}

export function createRoutedForwarder(routes: Route[], fallback: Forwarder | undefined): Forwarder {
  const all = [...routes.map((r) => r.forwarder), ...(fallback ? [fallback] : [])];
  const pick = (type: string) => routes.find((r) => r.types.has(type))?.forwarder ?? fallback;
  return {
    url: all.map((f) => f.url).join(', '),
    pick,
    forward(body, headers): Promise<ForwardResult> {
      // Routed deliveries go through pick(); a caller without a type gets the fallback or the first route.
      return (fallback ?? all[0]!).forward(body, headers);
    },
    async probe(timeoutMs) {
      for (const f of all) {
        const why = await f.probe(timeoutMs);
        if (why) return `${f.url}: ${why}`;
      }
      return undefined;
    },
    async close() {
      await Promise.all(all.map((f) => f.close()));
    },
  };
}
