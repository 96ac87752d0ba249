// The dashboard page: four views behind buttons, kept live by the emulator's event stream.
import { loadClock, wireClock } from './clock.js';
import { addRequest, loadRequests } from './requests.js';
import { loadResources } from './resources.js';
import { loadWebhooks } from './webhooks.js';

const loaders = { requests: loadRequests, webhooks: loadWebhooks, resources: loadResources, clock: loadClock };
let current = 'requests';

function show(view) {
  current = view;
  for (const button of document.querySelectorAll('nav button'))
    button.setAttribute('aria-pressed', String(button.dataset.view === view));
  for (const name of Object.keys(loaders)) document.getElementById(name).hidden = name !== view;
  return refresh();
}

/** Reloads the view shown (coalesced: one load at a time, one more queued). */
let loading;
let again = false;
function refresh() {
  if (loading) {
    again = true;
    return loading;
  }
  loading = loaders[current]()
    .catch((error) => {
      document.getElementById('live').textContent = `error: ${error.message}`;
    })
    .finally(() => {
      loading = undefined;
      if (again) {
        again = false;
        refresh();
      }
    });
  return loading;
}

function connect() {
  const live = document.getElementById('live');
  const events = new EventSource('events');
  events.onopen = () => {
    live.textContent = 'live';
  };
  events.onerror = () => {
    live.textContent = 'reconnecting…';
  };
  events.addEventListener('request', (e) => {
    addRequest(JSON.parse(e.data));
    if (current === 'clock') refresh();
  });
  events.addEventListener('delivery', () => current === 'webhooks' && refresh());
  events.addEventListener('changed', () => current !== 'requests' && refresh());
}

for (const button of document.querySelectorAll('nav button'))
  button.addEventListener('click', () => show(button.dataset.view));
document.getElementById('resource-search').addEventListener('submit', (e) => e.preventDefault());
document.getElementById('resource-query').addEventListener('input', () => refresh());
wireClock();
connect();
show('requests');
