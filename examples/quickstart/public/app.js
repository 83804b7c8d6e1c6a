// The page half of the sample. It never sees an access token: it asks this app's server for a link
// token, hands Link's public token back to the server, and shows what the server synced.
import { formatAmount } from './format.js';

const connectButton = document.getElementById('connect');
const statusLine = document.getElementById('status');
const POLL_MS = 2000;
let eventsShown = -1;

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(json.message ?? json.error ?? `HTTP ${res.status}`);
  return json;
}

/** Loads the Link SDK from Fincore itself: it finds Link's address from its own src, so never bundle it. */
function loadLinkSdk(fincoreBaseUrl) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${fincoreBaseUrl}/link/sdk.js`;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${script.src}`));
    document.head.append(script);
  });
}

async function connect() {
  connectButton.disabled = true;
  try {
    // A fresh link token for every attempt: each one connects one item and lives 30 minutes.
    const { link_token } = await api('/api/link-token', {});
    window.FincoreLink.create({
      token: link_token,
      async onSuccess(publicToken, metadata) {
        const institution = metadata.institution?.name ?? 'your bank';
        statusLine.textContent = `Connected ${institution}. Loading transactions…`;
        try {
          await api('/api/exchange', { public_token: publicToken });
          await showTransactions();
          statusLine.textContent = `Connected ${institution}.`;
        } catch (error) {
          statusLine.textContent = `Could not finish connecting: ${error.message}`;
        }
        connectButton.disabled = false;
      },
      onExit(error) {
        statusLine.textContent = error ? `Link ended: ${error.message}` : 'Link closed. Connect again whenever you like.';
        connectButton.disabled = false;
      },
    }).open();
  } catch (error) {
    statusLine.textContent = `Could not open Link: ${error.message}`;
    connectButton.disabled = false;
  }
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

async function showTransactions() {
  const { items, total, transactions } = await api('/api/transactions');
  const summary = document.getElementById('transactions-summary');
  if (items.length === 0) summary.textContent = 'No bank connected yet.';
  else if (total === 0) summary.textContent = 'Fincore is loading the history; this table fills in when its webhook arrives.';
  else summary.textContent = `Showing the ${transactions.length} newest of ${total} synced transactions.`;

  const rows = transactions.map((t) => {
    const tr = document.createElement('tr');
    const amount = formatAmount(t.amount, t.iso_currency_code);
    const category = cell(t.category_label ?? 'Uncategorised');
    if (t.category_detailed_label) {
      const detail = document.createElement('span');
      detail.className = 'detail';
      detail.textContent = t.category_detailed_label;
      category.append(detail);
    }
    tr.append(cell(t.date), cell(t.pending ? `${t.name} (pending)` : t.name), cell(t.merchant_name ?? '—'), cell(amount, 'amount'), category);
    return tr;
  });
  document.getElementById('transactions').replaceChildren(...rows);
}

/** Polls the server for the verified webhooks; a new one may mean new transactions. */
async function pollWebhooks() {
  try {
    const { events } = await api('/api/events');
    if (events.length !== eventsShown) {
      eventsShown = events.length;
      document.getElementById('webhooks-empty').hidden = events.length > 0;
      document.getElementById('webhooks').replaceChildren(
        ...events.map((event) => {
          const li = document.createElement('li');
          const type = document.createElement('code');
          type.textContent = event.type;
          const details = Object.entries(event.data ?? {}).map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : value}`);
          li.append(type, ` at ${new Date(event.received_at).toLocaleTimeString()} (${details.join(', ')})`);
          return li;
        }),
      );
      await showTransactions();
    }
  } catch (error) {
    statusLine.textContent = `Could not reach this app's server: ${error.message}`;
  }
  setTimeout(pollWebhooks, POLL_MS);
}

try {
  const { fincore_base_url } = await api('/api/config');
  await loadLinkSdk(fincore_base_url);
  connectButton.addEventListener('click', connect);
  connectButton.disabled = false;
  statusLine.textContent = 'Ready.';
} catch (error) {
  statusLine.textContent = `Fincore Link is unavailable: ${error.message}`;
}
pollWebhooks();
