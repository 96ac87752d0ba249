/**
 * `--route TYPES=URL` (repeatable): one listener, several local apps. An event goes to the first
 * route whose types include it, else to `--forward-to` if given, else nowhere (it is still shown).
 * Dedupe happens once, before routing, so an event reaches one app once whatever the routes.
 */
import type { ForwardResult, Forwarder } from './forward.js';

export interface Route {
  types: ReadonlySet<string>;
  forwarder: Forwarder;
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
