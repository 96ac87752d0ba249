/**
 * The transport of a client given an undici dispatcher, or routed through a proxy from the
 * environment (EnvHttpProxyAgent, which also applies NO_PROXY). Loaded only then: a direct
 * connection, as most commands make, goes through node-transport.ts and loads no undici.
 */
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { proxySettingsFor } from './proxy.js';
import type { Answer, Exchange } from './node-transport.js';

/** A proxy-aware dispatcher for baseUrl, or undefined when no proxy applies (connect directly). */
export function proxyDispatcherFor(baseUrl: string, env: NodeJS.ProcessEnv): Dispatcher | undefined {
  const settings = proxySettingsFor(baseUrl, env);
  return settings === undefined ? undefined : new EnvHttpProxyAgent(settings);
}

/** Sends one exchange through `dispatcher`. */
export function undiciTransport(dispatcher: Dispatcher): (x: Exchange) => Promise<Answer> {
  return async (x) => {
    const res = await request(x.url, {
      method: x.method as Dispatcher.HttpMethod,
      headers: x.headers,
      body: x.body,
      signal: x.signal,
      dispatcher,
      headersTimeout: x.timeoutMs,
      bodyTimeout: x.timeoutMs,
    });
    return { statusCode: res.statusCode, headers: res.headers, body: res.body };
  };
}
