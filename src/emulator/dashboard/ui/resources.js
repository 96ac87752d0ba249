// The Resources view: what the emulator holds, as the API renders it; searchable.
import { api, el } from './dom.js';

const LABELS = {
  customers: 'platformCustomerId',
  'internal accounts': 'balance',
  'external accounts': 'currency',
  quotes: 'status',
  transactions: 'status',
  cards: 'state',
  sessions: 'type',
};

function summaryOf(kind, r) {
  const extra = LABELS[kind];
  const value = r[extra];
  const shown =
    value && typeof value === 'object' ? `${value.amount} ${value.currency?.code ?? value.currency ?? ''}` : value;
  return `${r.id}${shown !== undefined ? ` · ${extra} ${shown}` : ''}`;
}

export async function loadResources() {
  const q = document.getElementById('resource-query').value;
  const { data } = await api(`resources?q=${encodeURIComponent(q)}`);
  document
    .getElementById('resource-list')
    .replaceChildren(
      ...data.map((k) =>
        el(
          'section',
          { 'aria-label': k.name },
          el('h3', {}, `${k.name} (${q ? `${k.matched} of ${k.total}` : k.total})`),
          k.records.length
            ? k.records.map((r) =>
                el('details', {}, el('summary', {}, summaryOf(k.name, r)), el('pre', {}, JSON.stringify(r, null, 2))),
              )
            : el('p', { class: 'hint' }, 'none'),
        ),
      ),
    );
}
