// What an integrator writes in CommonJS TypeScript (compiled to require()): resolved through the
// exports map's "require" condition, so it checks dist/cjs's declarations.
import { Fincore, type TransactionsSyncResponse } from '@fincore/sdk';
import { verifyWebhook } from '@fincore/sdk/webhooks';

const client = new Fincore({ apiKey: 'fc_sk_test_abcdefghijklmnop', baseUrl: 'http://localhost:4010', maxRetries: 1 });

export async function run(): Promise<number> {
  const page: TransactionsSyncResponse = await client.transactions.sync({ access_token: 'fc_at_x' });
  const result = await verifyWebhook({ rawBody: new Uint8Array(), signature: 'v1=00', timestamp: '1', secrets: ['whsec_1'] });
  return page.added.length + (result.ok ? 1 : 0);
}
