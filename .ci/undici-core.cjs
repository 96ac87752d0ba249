// What the bundled CLI takes from undici, required from undici's own files rather than from its
// index.js. The index also loads undici's fetch, cookies and WebSocket modules, which read
// globalThis.Headers and so make Node compile its own built-in copy of undici beside this one. .ci/build.mjs points `undici` here; tests and the library keep the
// package's index. `request` is the index's makeDispatcher(api.request), trimmed to how src/ calls
// it: request(url, { method, headers, body, dispatcher, signal, … }).
'use strict';
const Agent = require('undici/lib/dispatcher/agent.js');
const errors = require('undici/lib/core/errors.js');
const util = require('undici/lib/core/util.js');
const apiRequest = require('undici/lib/api/api-request.js');
const { getGlobalDispatcher, setGlobalDispatcher } = require('undici/lib/global.js');

function request(url, opts, handler) {
  if (typeof opts === 'function') {
    handler = opts;
    opts = null;
  }
  if (!url || (typeof url !== 'string' && typeof url !== 'object')) {
    throw new errors.InvalidArgumentError('invalid url');
  }
  if (opts != null && typeof opts !== 'object') throw new errors.InvalidArgumentError('invalid opts');
  if (opts && opts.path != null) {
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  const { agent, dispatcher = getGlobalDispatcher() } = opts;
  if (agent) throw new errors.InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  return apiRequest.call(
    dispatcher,
    {
      ...opts,
      origin: url.origin,
      path: url.search ? `${url.pathname}${url.search}` : url.pathname,
      method: opts.method || (opts.body ? 'PUT' : 'GET'),
    },
    handler,
  );
}

module.exports = {
  Agent,
  errors,
  request,
  getGlobalDispatcher,
  setGlobalDispatcher,
  // Loaded on first use, when a proxy variable is set (src/http/proxy.ts), with ProxyAgent and the
  // SOCKS agent: a direct connection, most runs, loads neither.
  get EnvHttpProxyAgent() {
    // The index gives every dispatcher its API methods (Object.assign(Dispatcher.prototype, api));
    // of those, undici itself calls only connect(): ProxyAgent opens its tunnel with
    // client.connect(). Without it every request through HTTP(S)_PROXY failed with "request
    // failed" in the bundled CLI.
    require('undici/lib/dispatcher/dispatcher.js').prototype.connect = require('undici/lib/api/api-connect.js');
    return require('undici/lib/dispatcher/env-http-proxy-agent.js');
  },
};
