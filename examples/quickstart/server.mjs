// A minimal Fincore integration: the server half. Node's standard library only (node:http,
// node:crypto, fetch), no build step, no framework. Run it with
//
//   FINCORE_BASE_URL=http://localhost:4010 FINCORE_API_KEY=fc_sk_test_... node server.mjs
//
// and open the URL it prints. What it shows, in the order a user meets it:
//   POST /api/link-token    mints a link token for the demo user (the page opens Link with it)
//   POST /api/exchange      swaps Link's public token for the item's access token, kept HERE only
//   GET  /api/transactions  runs the /v1/transactions/sync loop and answers the synced rows
//   POST /webhooks          Fincore's signed webhooks: verified on the raw body before anything else
//   GET  /api/events        the verified webhooks received, for the page's webhook panel
// Everything is kept in memory: a restart forgets the items (see README.md, "For production").
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const PUBLIC_DIR = new URL('./public/', import.meta.url);
const STATIC_FILES = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/format.js': { file: 'format.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
/** Fincore signs each delivery attempt afresh; older signatures are refused (docs/webhooks-verify.md). */
const WEBHOOK_TOLERANCE_SECONDS = 300;
const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;
/** The page shows the newest rows; the server keeps every synced row. */
const TRANSACTIONS_SHOWN = 100;
const DEMO_USER_ID = 'demo-user-1';

// ---------- webhook verification (docs/webhooks-verify.md, "The algorithm") ----------

/**
 * Checks one delivery: `FC-Signature` must hold a `v1=` HMAC-SHA256 of `<FC-Timestamp>.<raw body>`
 * under one of `secrets`, and the timestamp must be within five minutes of `nowMs`. Only then is the
 * body parsed. Returns `{ ok: true, event, signedMessageId }` or `{ ok: false, reason }`.
 * `signedMessageId` names what was signed (the timestamp and the body), whichever way the header
 * spells its signatures: the key to recognise the same signed request sent again.
 */
export function verifyWebhook({ rawBody, signatureHeader, timestampHeader, secrets, nowMs = Date.now() }) {
  if (typeof signatureHeader !== 'string' || signatureHeader === '') return { ok: false, reason: 'missing_signature' };
  if (typeof timestampHeader !== 'string' || !/^\d{1,15}$/.test(timestampHeader)) return { ok: false, reason: 'malformed_timestamp' };
  const signatures = signatureHeader
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('v1='))
    .map((entry) => entry.slice(3));
  // Compare bytes in constant time: an ordinary string compare leaks how many leading characters
  // of a forged signature were right.
  const authentic = secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${timestampHeader}.`).update(rawBody).digest();
    return signatures.some((value) => /^[0-9a-f]{64}$/i.test(value) && timingSafeEqual(Buffer.from(value, 'hex'), expected));
  });
  if (!authentic) return { ok: false, reason: 'signature_mismatch' };
  // After the signature, so that the answer to a forgery says nothing about our clock.
  if (Math.abs(nowMs / 1000 - Number(timestampHeader)) > WEBHOOK_TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp_outside_window' };
  let event;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid_body' };
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string') return { ok: false, reason: 'invalid_body' };
  const signedMessageId = `${timestampHeader}.${createHash('sha256').update(rawBody).digest('hex')}`;
  return { ok: true, event, signedMessageId };
}

// ---------- cross-site requests ----------

/**
 * Whether a request to one of the page's state-changing routes comes from the page itself. A form
 * or script on another site can make the browser POST here (a `text/plain` POST needs no CORS
 * preflight), so such routes require a JSON body, which another origin cannot send without a
 * preflight this app never answers, and the browser's own word that the request is same-origin:
 * `Sec-Fetch-Site` where the browser sends it (every current browser), else an `Origin` among
 * `appOrigins`, the origins the page is served from (the listening address and PUBLIC_URL).
 */
export function isSameOriginJsonRequest(headers, appOrigins) {
  const contentType = String(headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') return false;
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  const origin = headers.origin;
  return typeof origin === 'string' && appOrigins.includes(origin);
}

// ---------- the app ----------

/**
 * Starts the sample app. `fincoreBaseUrl` and `apiKey` say which Fincore to use; `publicUrl` is
 * where Fincore can reach this app (its webhook URL is `${publicUrl}/webhooks`), by default the
 * address it listens on. `webhookSecrets` are the environment's signing secrets if you have them;
 * otherwise the app asks Fincore at start (see README.md, "The webhook secret").
 */
export async function startSampleApp({ fincoreBaseUrl, apiKey, port = 3000, host = '127.0.0.1', publicUrl, webhookSecrets = [], log = console.log }) {
  const baseUrl = fincoreBaseUrl.replace(/\/+$/, '');
  const fincoreOrigin = new URL(baseUrl).origin;
  // The page runs only its own files and Fincore's Link SDK, and frames only Fincore's Link.
  const pageSecurityHeaders = {
    'Content-Security-Policy': `default-src 'self'; script-src 'self' ${fincoreOrigin}; frame-src ${fincoreOrigin}; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  };

  /** One Fincore API call; a failure throws with the error envelope's code and message. */
  async function fincore(path, body) {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => null);
    if (!res.ok) {
      const error = json?.error ?? {};
      throw Object.assign(new Error(`${path}: ${res.status} ${error.code ?? ''} ${error.message ?? ''}`.trim()), { status: res.status, code: error.code });
    }
    return json;
  }

  // Server-side state. Access tokens live here and nowhere else: never in a response, a log or the page.
  /** item_id -> { accessToken, cursor, transactions: Map<transaction_id, Transaction>, updateStatus } */
  const items = new Map();
  /** The verified webhooks, newest last, as the page shows them. */
  const events = [];
  /** Event ids already handled: Fincore may deliver an event more than once (a retry, a replay). */
  const seenEventIds = new Set();
  /**
   * Signed messages (timestamp and body) already accepted, until they leave the time window: the same
   * signed request twice is a replay, however its FC-Signature header is spelled (upper-case hex,
   * entries added or reordered), so the key is what was signed, not the header's text.
   */
  const seenSignedMessages = new Map();
  const secrets = [...webhookSecrets];

  // One sync at a time: a webhook and the page may both ask for one, and two loops from the same
  // cursor would both apply the same pages.
  let syncQueue = Promise.resolve();
  const syncAll = () => (syncQueue = syncQueue.then(syncEveryItem, syncEveryItem));

  /** Syncs each item in turn; one item failing (its login broke, it was removed) leaves the others syncing. */
  async function syncEveryItem() {
    for (const [itemId, item] of items) {
      try {
        await syncItem(item);
      } catch (error) {
        log(`sync of ${itemId} failed: ${error.message}`);
      }
    }
  }

  /** The /v1/transactions/sync loop: apply every page, keep next_cursor, stop when has_more is false. */
  async function syncItem(item) {
    let hasMore = true;
    while (hasMore) {
      const page = await fincore('/v1/transactions/sync', { access_token: item.accessToken, ...(item.cursor ? { cursor: item.cursor } : {}) });
      for (const row of [...page.added, ...page.modified]) item.transactions.set(row.transaction_id, row);
      for (const row of page.removed) item.transactions.delete(row.transaction_id);
      item.cursor = page.next_cursor;
      item.updateStatus = page.transactions_update_status;
      hasMore = page.has_more;
    }
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error) => {
      log(`${req.method} ${req.url}: ${error.message}`);
      // A 4xx from Fincore or from us is the request's fault; anything else is an upstream failure.
      if (!res.headersSent) sendJson(res, error.status >= 400 && error.status < 500 ? 400 : 502, { error: error.code ?? 'fincore_error', message: error.message });
    });
  });

  async function route(req, res) {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const key = `${req.method} ${path}`;
    if (key === 'POST /webhooks') return receiveWebhook(req, res);
    // Every state-changing /api route is for this app's own page only (see isSameOriginJsonRequest).
    if (req.method !== 'GET' && req.method !== 'HEAD' && path.startsWith('/api/') && !isSameOriginJsonRequest(req.headers, appOrigins)) {
      return sendJson(res, 403, { error: 'cross_site_request', message: 'this route accepts only JSON requests from this app\'s own page' });
    }
    if (key === 'POST /api/link-token') return sendJson(res, 200, await createLinkToken());
    if (key === 'POST /api/exchange') return sendJson(res, 200, await exchange(await readJson(req)));
    if (key === 'GET /api/transactions') return sendJson(res, 200, await transactions());
    if (key === 'GET /api/events') return sendJson(res, 200, { events });
    if (key === 'GET /api/config') return sendJson(res, 200, { fincore_base_url: baseUrl });
    if (req.method === 'GET' && STATIC_FILES[path]) return sendStatic(res, STATIC_FILES[path], pageSecurityHeaders);
    sendJson(res, 404, { error: 'not_found' });
  }

  async function createLinkToken() {
    const { link_token } = await fincore('/v1/link/token/create', {
      client_name: 'Quickstart Budget',
      user: { client_user_id: DEMO_USER_ID },
      products: ['transactions'],
      // The item's webhook: Fincore posts its events (history loaded, login broken...) here.
      webhook: webhookUrl,
    });
    return { link_token };
  }

  async function exchange(body) {
    if (typeof body?.public_token !== 'string') throw Object.assign(new Error('public_token is required'), { status: 400, code: 'invalid_request' });
    const { access_token, item_id } = await fincore('/v1/link/token/exchange', { public_token: body.public_token });
    const existing = items.get(item_id);
    // Update mode rotates the access token of an item we already have: keep its cursor and rows.
    if (existing) existing.accessToken = access_token;
    else items.set(item_id, { accessToken: access_token, cursor: null, transactions: new Map(), updateStatus: 'not_ready' });
    // Only the item id goes back to the browser.
    return { item_id };
  }

  /** Category id -> label, from the taxonomy Fincore serves (static: fetched once). */
  let categoryLabels;
  async function labelsOfCategories() {
    if (!categoryLabels) {
      const { categories } = await fincore('/v1/categories/get', {});
      categoryLabels = new Map(categories.flatMap((c) => [[c.category, c.label], ...c.detailed.map((d) => [d.category_detailed, d.label])]));
    }
    return categoryLabels;
  }

  async function transactions() {
    await syncAll();
    const labels = await labelsOfCategories();
    const rows = [...items.values()].flatMap((item) => [...item.transactions.values()]);
    rows.sort((a, b) => (a.date === b.date ? a.transaction_id.localeCompare(b.transaction_id) : a.date < b.date ? 1 : -1));
    return {
      items: [...items.entries()].map(([item_id, item]) => ({ item_id, transactions_update_status: item.updateStatus })),
      total: rows.length,
      transactions: rows.slice(0, TRANSACTIONS_SHOWN).map((t) => ({
        transaction_id: t.transaction_id,
        date: t.date,
        name: t.name,
        merchant_name: t.merchant_name,
        amount: t.amount,
        iso_currency_code: t.iso_currency_code,
        pending: t.pending,
        // Null when the enrichment found no category (docs/enrichment.md): show it as uncategorised.
        category: t.category,
        category_label: labels.get(t.category) ?? t.category,
        category_detailed: t.category_detailed,
        category_detailed_label: labels.get(t.category_detailed) ?? t.category_detailed,
      })),
    };
  }

  async function receiveWebhook(req, res) {
    // The raw bytes: the signature covers the body exactly as sent, so it is never parsed first.
    const rawBody = await readBody(req, MAX_WEBHOOK_BODY_BYTES);
    const signatureHeader = req.headers['fc-signature'];
    const nowMs = Date.now();
    const result =
      secrets.length === 0
        ? { ok: false, reason: 'no_webhook_secret' }
        : verifyWebhook({ rawBody, signatureHeader, timestampHeader: req.headers['fc-timestamp'], secrets, nowMs });
    if (!result.ok) return sendJson(res, 400, { error: result.reason });
    // A valid signature seen before is someone replaying a captured request: Fincore signs every
    // attempt afresh. Signatures are remembered only as long as the time window would accept them.
    for (const [message, expiresAt] of seenSignedMessages) if (expiresAt < nowMs) seenSignedMessages.delete(message);
    if (seenSignedMessages.has(result.signedMessageId)) return sendJson(res, 400, { error: 'replayed' });
    seenSignedMessages.set(result.signedMessageId, nowMs + 2 * WEBHOOK_TOLERANCE_SECONDS * 1000);

    const { event } = result;
    // A retry of an event we already handled: acknowledge it so Fincore stops, do nothing twice.
    if (seenEventIds.has(event.id)) return sendJson(res, 200, { received: true, duplicate: true });
    seenEventIds.add(event.id);
    events.push({ id: event.id, type: event.type, created: event.created, data: event.data, received_at: new Date(nowMs).toISOString() });
    // Answer 2xx at once and do the work afterwards: a slow answer counts as a failed attempt.
    sendJson(res, 200, { received: true });
    if (event.type === 'transactions.sync_updates_available') {
      syncAll().catch((error) => log(`sync after ${event.id} failed: ${error.message}`));
    }
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${server.address().port}`;
  const webhookUrl = `${(publicUrl ?? url).replace(/\/+$/, '')}/webhooks`;
  const appOrigins = [...new Set([new URL(url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])])];

  // The environment's signing secret. Registering our webhook URL as an endpoint is idempotent, and
  // the answer carries the secret only when this call created it (the environment's first endpoint).
  let webhookStatus = 'webhooks on';
  try {
    const { secret } = await fincore('/v1/webhooks/endpoints/create', { url: webhookUrl });
    if (secret) secrets.push(secret);
    if (secrets.length === 0) {
      webhookStatus = 'webhooks refused until you set FINCORE_WEBHOOK_SECRET: this environment already had a signing secret';
    }
  } catch (error) {
    webhookStatus = `webhooks off: could not register ${webhookUrl} (${error.message}); set PUBLIC_URL to an address Fincore can reach`;
  }

  return {
    url,
    webhookUrl,
    webhookStatus,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------- small HTTP helpers ----------

function sendJson(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function sendStatic(res, { file, type }, extraHeaders) {
  const body = await readFile(new URL(file, PUBLIC_DIR));
  res.writeHead(200, {
    ...extraHeaders,
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(body);
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        reject(Object.assign(new Error('body too large'), { status: 413, code: 'body_too_large' }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function readJson(req) {
  try {
    return JSON.parse((await readBody(req, 64 * 1024)).toString('utf8'));
  } catch {
    return null;
  }
}

// ---------- run from the command line ----------

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { FINCORE_BASE_URL, FINCORE_API_KEY, FINCORE_WEBHOOK_SECRET, PORT, HOST, PUBLIC_URL } = process.env;
  if (!FINCORE_BASE_URL || !FINCORE_API_KEY) {
    console.error('Set FINCORE_BASE_URL (e.g. http://localhost:4010) and FINCORE_API_KEY (fc_sk_test_...).');
    process.exit(1);
  }
  const app = await startSampleApp({
    fincoreBaseUrl: FINCORE_BASE_URL,
    apiKey: FINCORE_API_KEY,
    port: PORT === undefined ? 3000 : Number(PORT),
    host: HOST ?? '127.0.0.1',
    publicUrl: PUBLIC_URL,
    // Comma-separated: during a secret rotation, accept the old and the new secret.
    webhookSecrets: (FINCORE_WEBHOOK_SECRET ?? '').split(',').filter(Boolean),
  });
  console.log(`Sample app listening on ${app.url} (${app.webhookStatus})`);
  const stop = () => app.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
