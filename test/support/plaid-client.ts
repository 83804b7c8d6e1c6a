// Plaid's own client (the `plaid` npm package) as the Plaid-compatible API's suites drive it: the
// client pointed at a base path, the error body of a rejected call, and a transactionsSync loop that
// keeps a replica the way Plaid's guide recommends.
import { Configuration, PlaidApi, type Transaction, type TransactionsSyncResponse } from 'plaid';

/** Plaid's client with credentials in the PLAID-CLIENT-ID / PLAID-SECRET headers. */
export function plaidClient(basePath: string, clientId: string, secret: string): PlaidApi {
  return new PlaidApi(new Configuration({ basePath, baseOptions: { headers: { 'PLAID-CLIENT-ID': clientId, 'PLAID-SECRET': secret } } }));
}

/** The status and Plaid error body of a call the client rejected (axios puts the response on the error). */
export async function plaidErrorOf(call: Promise<unknown>): Promise<{ status: number; data: Record<string, unknown> }> {
  try {
    await call;
  } catch (err) {
    const response = (err as { response?: { status: number; data: Record<string, unknown> } }).response;
    if (response) return { status: response.status, data: response.data };
    throw err;
  }
  throw new Error('the call succeeded');
}

/** Applies a sync page the way Plaid recommends: upsert added and modified, delete removed. */
function apply(replica: Map<string, Transaction>, page: TransactionsSyncResponse): void {
  for (const t of [...page.added, ...page.modified]) replica.set(t.transaction_id, t);
  for (const r of page.removed) replica.delete(r.transaction_id);
}

/** transactionsSync from `cursor` until has_more is false, applying each page to `replica`. */
export async function syncToEnd(client: PlaidApi, accessToken: string, cursor: string, replica: Map<string, Transaction>, count = 100) {
  const pages: TransactionsSyncResponse[] = [];
  let next = cursor;
  for (;;) {
    const { data } = await client.transactionsSync({ access_token: accessToken, cursor: next, count });
    pages.push(data);
    apply(replica, data);
    next = data.next_cursor;
    if (!data.has_more) return { cursor: next, pages };
  }
}
