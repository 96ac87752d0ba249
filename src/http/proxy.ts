/**
 * Proxy support from HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case). Only when one of the proxy
 * variables is set does a client route through undici's EnvHttpProxyAgent (undici-transport.ts);
 * otherwise it connects directly (node-transport.ts). Loopback targets (the emulator, test
 * servers) never go through a proxy. No HTTP library here: every client reads this.
 */

const LOOPBACK_NO_PROXY = ['localhost', '127.0.0.1', '::1', '[::1]'];

function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** localhost, *.localhost, 127.0.0.0/8 or ::1: traffic that must never go through a proxy. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** What an EnvHttpProxyAgent needs, every value explicit. */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** The proxy variables that apply to baseUrl, or undefined when none is set or the host is loopback (connect directly). */
export function proxySettingsFor(baseUrl: string, env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const httpProxy = envValue(env, 'http_proxy');
  const httpsProxy = envValue(env, 'https_proxy');
  if (!httpProxy && !httpsProxy) return undefined;
  if (isLoopbackHost(new URL(baseUrl).hostname)) return undefined;
  const noProxy = [envValue(env, 'no_proxy'), ...LOOPBACK_NO_PROXY].filter(Boolean).join(',');
  // Every value explicit ('' = none): otherwise undici falls back to process.env, which is not the
  // environment this client was given.
  return { httpProxy: httpProxy ?? '', httpsProxy: httpsProxy ?? '', noProxy };
}

/**
 * The proxy a request to baseUrl goes through, for messages: its origin only (never user:password),
 * and the variable it came from; undefined when none applies (NO_PROXY is left to undici).
 */
export function proxyFor(baseUrl: string, env: NodeJS.ProcessEnv): { origin: string; variable: string } | undefined {
  const target = new URL(baseUrl);
  if (isLoopbackHost(target.hostname)) return undefined;
  const https = target.protocol === 'https:';
  const value = https ? (envValue(env, 'https_proxy') ?? envValue(env, 'http_proxy')) : envValue(env, 'http_proxy');
  if (!value) return undefined;
  const variable = https && envValue(env, 'https_proxy') ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const origin = URL.canParse(value) ? new URL(value).origin : '(unparsable URL)';
  return { origin, variable };
}
