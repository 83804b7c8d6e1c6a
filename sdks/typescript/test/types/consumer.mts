// What an integrator writes (ESM). Compiled by test/packaging.test.mjs against dist/esm's declarations.
import { Fincore, FincoreError, verifyWebhook, type Transaction, type TransactionsSyncRequest, type VerifyResult } from '@fincore/sdk';
import { verifyWebhookRequest } from '@fincore/sdk/webhooks';
import { openLink, type LinkHandler } from '@fincore/sdk/link';
import { useFincoreLink } from '@fincore/sdk/react';

const client = new Fincore({ apiKey: 'fc_sk_test_abcdefghijklmnop', baseUrl: 'http://localhost:4010' });

export async function syncAll(accessToken: string): Promise<Transaction[]> {
  const added: Transaction[] = [];
  // cursor and count are optional (count has a server default): omitting them must compile.
  let request: TransactionsSyncRequest = { access_token: accessToken };
  for (;;) {
    const page = await client.transactions.sync(request);
    added.push(...page.added);
    if (!page.has_more) return added;
    request = { access_token: accessToken, cursor: page.next_cursor };
  }
}

export async function calls(): Promise<void> {
  await client.products.categoriesGet();
  await client.webhooks.endpointsList();
  await client.link.tokenCreate({ user: { client_user_id: 'u1' }, products: ['transactions'] });
  const token = await client.sandbox.publicTokenCreate({ institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
  const exchanged = await client.link.tokenExchange({ public_token: token.public_token });
  const accounts = await client.accounts.get({ access_token: exchanged.access_token }, { timeoutMs: 5000, maxRetries: 0 });
  const first: string | undefined = accounts.accounts[0]?.account_id;
  void first;
  // @ts-expect-error access_token is required
  await client.items.get({});
  // @ts-expect-error products only takes the documented values
  await client.sandbox.publicTokenCreate({ institution_id: 'x', products: ['not-a-product'] });
  try {
    await client.items.get({ access_token: 'fc_at_x' });
  } catch (error) {
    if (error instanceof FincoreError) {
      const fields: [number, string, string, string | null] = [error.status, error.type, error.code, error.requestId];
      void fields;
    }
  }
}

export async function edgeHandler(request: Request): Promise<Response> {
  const result: VerifyResult = await verifyWebhookRequest(request, { secrets: ['whsec_1'] });
  if (!result.ok) return new Response(result.reason, { status: 400 });
  const again = await verifyWebhook({ rawBody: 'x', signature: null, timestamp: undefined, secret: 'whsec_1' });
  return new Response(result.event.type + String(again.ok));
}

export async function link(): Promise<LinkHandler> {
  return openLink('http://localhost:4010', { token: 'fc_link_x', onSuccess: (publicToken, metadata) => console.log(publicToken, metadata.item_id) });
}

export function useConnect(token: string | null): () => void {
  const { open, ready } = useFincoreLink({ baseUrl: 'http://localhost:4010', token, onSuccess: () => undefined });
  return ready ? open : () => undefined;
}
