// The smoke journey against a running service (bin/sdks/language.ts SmokeSummary), through the
// built ESM package. Prints one line: SMOKE {json}.
import { readFileSync } from 'node:fs';
import { Fincore, FincoreError, verifyWebhook } from '@fincore/sdk';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const client = new Fincore({ apiKey: env('FC_API_KEY'), baseUrl: env('FC_BASE_URL') });

const { public_token } = await client.sandbox.publicTokenCreate({ institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
const { access_token } = await client.link.tokenExchange({ public_token });

const deadline = Date.now() + 60_000;
for (;;) {
  const { item } = await client.items.get({ access_token });
  if (item.transactions_update_status === 'historical_update_complete') break;
  if (Date.now() > deadline) throw new Error(`history still ${item.transactions_update_status} after 60 s`);
  await sleep(200);
}

const { accounts } = await client.accounts.get({ access_token });

let cursor;
let added = 0;
let pages = 0;
for (;;) {
  const page = await client.transactions.sync({ access_token, count: 500, ...(cursor === undefined ? {} : { cursor }) });
  pages += 1;
  added += page.added.length;
  cursor = page.next_cursor;
  if (!page.has_more) break;
}

let error;
try {
  await client.items.get({ access_token: 'access-sandbox-00000000-0000-0000-0000-000000000000' });
  throw new Error('items.get with an unknown access token succeeded');
} catch (caught) {
  if (!(caught instanceof FincoreError)) throw caught;
  error = {
    status: caught.status,
    type: caught.type,
    code: caught.code,
    request_id_present: typeof caught.requestId === 'string' && caught.requestId !== '',
    documentation_url: caught.documentationUrl,
    display_message: caught.displayMessage,
  };
}

const verified = await verifyWebhook({
  rawBody: readFileSync(env('FC_WEBHOOK_BODY_FILE')),
  signature: env('FC_WEBHOOK_SIGNATURE'),
  timestamp: env('FC_WEBHOOK_TIMESTAMP'),
  secrets: [env('FC_WEBHOOK_SECRET')],
});
if (!verified.ok) throw new Error(`the captured delivery did not verify: ${verified.reason}`);

console.log(`SMOKE ${JSON.stringify({ language: 'typescript', accounts: accounts.length, added, pages, error, webhook_type: verified.event.type })}`);
