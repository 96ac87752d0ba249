/**
 * The http origin a local client reaches a server on, for the servers this tool runs (emulator, webhook
 * receiver). One bound to an unspecified address (0.0.0.0, ::) answers on loopback, so that is the
 * address handed out; an IPv6 address goes in brackets.
 */
export function reachableOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
