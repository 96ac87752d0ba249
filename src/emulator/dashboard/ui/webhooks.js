// The Webhooks view: every delivery, with a Resend button that delivers its event again, signed.
import { api, el, statusClass, table } from './dom.js';

export async function loadWebhooks() {
  const { data, endpoint } = await api('webhooks');
  document.getElementById('webhook-endpoint').textContent = endpoint
    ? `Endpoint: ${endpoint}`
    : 'No webhook endpoint is configured (PATCH /config {"webhookEndpoint": …}).';
  const rows = data.map((d) =>
    el(
      'tr',
      {},
      el('td', {}, el('code', {}, d.type)),
      el('td', {}, el('code', {}, d.eventId)),
      el('td', {}, d.target),
      el('td', { class: statusClass(d.responseStatus) }, d.responseStatus ? String(d.responseStatus) : d.error),
      el('td', { class: 'num' }, String(d.attempts)),
      el('td', {}, d.state),
      el('td', { class: 'sig' }, el('code', {}, d.signature)),
      el(
        'td',
        {},
        el(
          'button',
          { type: 'button', 'aria-describedby': `ev-${d.key}`, onclick: (e) => resend(e.currentTarget, d.eventId) },
          'Resend',
        ),
        el('span', { id: `ev-${d.key}`, hidden: true }, `${d.type} ${d.eventId}`),
      ),
    ),
  );
  document
    .getElementById('webhook-list')
    .replaceChildren(
      rows.length
        ? table(['Event type', 'Event', 'Target', 'Response', 'Attempts', 'State', 'X-Service-Signature', ''], rows)
        : el('p', {}, 'No deliveries yet.'),
    );
}

async function resend(button, eventId) {
  button.disabled = true;
  try {
    await api(`webhooks/${encodeURIComponent(eventId)}/resend`, {});
  } catch (error) {
    button.after(el('span', { role: 'alert' }, ` ${error.message}`));
  } finally {
    button.disabled = false;
  }
  await loadWebhooks();
}
