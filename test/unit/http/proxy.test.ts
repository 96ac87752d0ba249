import { describe, expect, it } from 'vitest';
import { EnvHttpProxyAgent } from 'undici';
import { isLoopbackHost } from '../../../src/http/proxy.js';
import { proxyDispatcherFor } from '../../../src/http/undici-transport.js';

describe('proxyDispatcherFor', () => {
  it('keeps the default dispatcher when no proxy variable is set', () => {
    expect(proxyDispatcherFor('https://api.example.com/2025-10-13', {})).toBeUndefined();
    expect(
      proxyDispatcherFor('https://api.example.com/2025-10-13', { NO_PROXY: 'x', HTTPS_PROXY: ' ' }),
    ).toBeUndefined();
  });

  it('builds an EnvHttpProxyAgent from either spelling of the variables', async () => {
    for (const env of [{ HTTPS_PROXY: 'http://127.0.0.1:9' }, { http_proxy: 'http://127.0.0.1:9' }]) {
      const d = proxyDispatcherFor('https://api.example.com/2025-10-13', env);
      expect(d).toBeInstanceOf(EnvHttpProxyAgent);
      await d?.close();
    }
  });

  it('never proxies loopback base URLs', () => {
    const env = { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' };
    for (const url of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010', 'http://127.1.2.3']) {
      expect(proxyDispatcherFor(url, env)).toBeUndefined();
    }
  });
});

describe('isLoopbackHost', () => {
  it('recognises loopback names and addresses only', () => {
    expect(['localhost', 'api.localhost', '127.0.0.1', '[::1]', '::1'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'example.com', '127.example.com', '[::2]'].some(isLoopbackHost)).toBe(false);
  });
});
