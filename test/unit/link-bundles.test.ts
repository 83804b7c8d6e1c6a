// The Link, statement and sandbox routes bundle what their step can run and nothing else: each Link
// step builds connectors from the adapters of its own method (functions/connectors/by-method), only
// the statement routes ingest (enrichment and the statement parsers), and a new or repaired item's
// data is pulled by the refresh worker, never by Link. Bundles built as the stack builds them.
import { routeBundle } from '../support/route-bundle';

const inputsOf = async (routeId: string): Promise<string[]> => (await routeBundle(routeId)).inputs;

/** What a bundle holds: its connector adapters (by directory), and whether it ingests, parses statements, or simulates the sandbox. */
function profileOf(inputs: string[]) {
  const adapters = [...new Set(inputs.map((i) => /^functions\/connectors\/([a-z_]+)\/index\.ts$/.exec(i)?.[1]).filter((d): d is string => d !== undefined))].sort();
  return {
    adapters,
    ingests: inputs.includes('functions/core/enrichment/enrich.ts'),
    parsesStatements: inputs.some((i) => i.startsWith('functions/core/statements/')),
    simulatesSandbox: inputs.includes('functions/core/sandbox/generator.ts'),
  };
}

const OAUTH = ['aggregator_a', 'aggregator_b', 'aggregator_c', 'aggregator_d', 'aggregator_e', 'aggregator_f', 'aggregator_g', 'aggregator_h', 'aggregator_i', 'crypto_exchange_a', 'open_banking_eu', 'payment_app_a', 'processor_link', 'sandbox'].sort();
const NOTHING = { adapters: [], ingests: false, parsesStatements: false, simulatesSandbox: false };
const EXPECTED: Record<string, ReturnType<typeof profileOf>> = {
  'link.connect': { ...NOTHING, adapters: ['sandbox'], simulatesSandbox: true },
  'link.mfa': { ...NOTHING, adapters: ['sandbox'], simulatesSandbox: true },
  'sandbox.public_token.create': { ...NOTHING, adapters: ['sandbox'], simulatesSandbox: true },
  'link.oauth.start': { ...NOTHING, adapters: OAUTH, simulatesSandbox: true },
  'link.oauth.complete': { ...NOTHING, adapters: OAUTH, simulatesSandbox: true },
  'link.oauth.resume': { ...NOTHING, adapters: OAUTH, simulatesSandbox: true },
  'link.consent': { ...NOTHING, adapters: ['crypto_exchange_b', 'crypto_wallet_public'] },
  'link.upload': { adapters: ['file_import'], ingests: true, parsesStatements: true, simulatesSandbox: false },
  'items.statements.upload': { adapters: ['file_import'], ingests: true, parsesStatements: true, simulatesSandbox: false },
  'link.method': NOTHING,
  'link.accounts.select': NOTHING,
  'link.sandbox.oauth.authorize': NOTHING,
  'link.sandbox.oauth.decide': NOTHING,
};

describe('Link and statement route bundles', () => {
  it.each(Object.keys(EXPECTED))('%s holds the adapters of its step, and ingests only where data comes with the consent', async (routeId) => {
    expect(profileOf(await inputsOf(routeId))).toEqual(EXPECTED[routeId]);
  }, 60_000);
});
