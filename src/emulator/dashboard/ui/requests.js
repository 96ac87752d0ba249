// The Requests view: every request the emulator served, newest first; one opens to its detail.
import { api, el, statusClass, table } from './dom.js';

const requests = [];
let lastSeq = 0;

export async function loadRequests() {
  const page = await api(`requests?after=${lastSeq}`);
  for (const r of page.data) addRequest(r, false);
  renderRequests();
}

/** A request from the live stream (or a page), kept once. */
export function addRequest(r, render = true) {
  if (r.seq <= lastSeq) return;
  lastSeq = r.seq;
  requests.push(r);
  if (requests.length > 500) requests.shift();
  if (render) renderRequests();
}

async function showDetail(seq) {
  const box = document.getElementById('request-detail');
  const d = await api(`requests/${seq}`);
  box.replaceChildren(
    el('h3', {}, `${d.method} ${d.path} → ${d.status}`),
    el('p', {}, `${d.time} · ${d.durationMs} ms · ${d.credential}${d.requestId ? ` · Request-Id ${d.requestId}` : ''}`),
    el('h4', {}, 'Request headers'),
    el(
      'pre',
      {},
      Object.entries(d.requestHeaders)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    ),
    el('h4', {}, 'Request body'),
    el('pre', {}, d.requestBody ?? '(none)'),
    el('h4', {}, 'Response body'),
    el('pre', {}, d.responseBody ?? '(none)'),
  );
}

function row(r, grouped) {
  return el(
    'tr',
    { class: grouped ? 'group' : undefined },
    el(
      'td',
      {},
      el(
        'button',
        { type: 'button', 'aria-label': `Show ${r.method} ${r.path} (${r.status})`, onclick: () => showDetail(r.seq) },
        r.method,
      ),
    ),
    el('td', {}, el('code', {}, r.path)),
    el('td', { class: statusClass(r.status) }, String(r.status)),
    el('td', { class: 'num' }, `${r.durationMs} ms`),
    el('td', {}, r.credential),
    el('td', {}, r.requestId ? el('code', {}, r.requestId) : ''),
    el('td', { class: 'num' }, r.time.slice(11, 23)),
  );
}

function renderRequests() {
  // Newest first; the steps of one signed flow (one Request-Id) stay together under the newest.
  const shown = [];
  const placed = new Set();
  for (const r of [...requests].reverse()) {
    if (placed.has(r.seq)) continue;
    const steps = r.requestId ? requests.filter((x) => x.requestId === r.requestId).reverse() : [r];
    for (const s of steps) {
      placed.add(s.seq);
      shown.push(row(s, steps.length > 1));
    }
  }
  document
    .getElementById('request-list')
    .replaceChildren(
      shown.length
        ? table(['Method', 'Path', 'Status', 'Duration', 'Credential', 'Request-Id', 'Time'], shown)
        : el('p', {}, 'No requests yet.'),
    );
}
