// Small helpers: build elements (text only, never HTML from data) and call the data endpoints.

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child);
  return node;
}

/** A table with a header row. */
export function table(headings, rows) {
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headings.map((h) => el('th', { scope: 'col' }, h)),
      ),
    ),
    el('tbody', {}, rows),
  );
}

/** JSON from the dashboard's data endpoints (same origin: the cookie carries the token). */
export async function api(path, body) {
  const res = await fetch(
    `api/${path}`,
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const json = await res.json();
  if (!res.ok) throw new Error(json.message ?? `HTTP ${res.status}`);
  return json;
}

export const statusClass = (status) => (status ? `s${String(status)[0]}` : 's5');
