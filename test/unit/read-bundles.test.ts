// The routes that read an item's products or balances from its connector (the REST product routes,
// accounts/balance/get, and GraphQL and MCP through them) bundle the connectors' reads
// (functions/connectors/readers.ts) and nothing they can never run: no sandbox refresh simulator
// (nor the descriptor rules it names transactions with), no statement parser, and no pulling or
// ingesting (app/item-source). Built as the stack builds them (bench/cold-start.ts BUNDLE_OPTIONS).
import { routeBundle } from '../support/route-bundle';

const inputsOf = async (routeId: string): Promise<string[]> => (await routeBundle(routeId)).inputs;

function profileOf(inputs: string[]) {
  return {
    readsThroughReaders: inputs.includes('functions/connectors/readers.ts'),
    servesSandboxProducts: inputs.includes('functions/core/sandbox/products/identity.ts') && inputs.includes('functions/core/sandbox/generator.ts'),
    simulatesSandboxRefresh: inputs.includes('functions/core/sandbox/refresh-sim.ts'),
    parsesStatements: inputs.some((i) => i.startsWith('functions/core/statements/')),
    bundlesWholeSandboxOrImporter: inputs.includes('functions/connectors/sandbox/index.ts') || inputs.includes('functions/connectors/file_import/index.ts'),
    pullsOrIngests: inputs.includes('functions/app/item-source.ts') || inputs.includes('functions/app/enriched-batch.ts'),
  };
}

const READER = {
  readsThroughReaders: true,
  servesSandboxProducts: true,
  simulatesSandboxRefresh: false,
  parsesStatements: false,
  bundlesWholeSandboxOrImporter: false,
  pullsOrIngests: false,
};

// (Not mcp.call: its tools run in their own routes' functions, test/unit/surface-bundles.test.ts.)
const READ_ROUTES = ['graphql.query', 'identity.get', 'liabilities.get', 'investments.holdings.get', 'investments.transactions.get', 'assets.get', 'accounts.balance.get'];

describe('product and balance read bundles', () => {
  it.each(READ_ROUTES)('%s reads through the connectors\' reads: no refresh simulator, statement parser or ingestion', async (routeId) => {
    expect(profileOf(await inputsOf(routeId))).toEqual(READER);
  }, 120_000);

  it('leaves out of the product routes the descriptor rules only the refresh simulator and ingestion use', async () => {
    // The AI routes use them; the REST product routes never do.
    for (const routeId of ['identity.get', 'liabilities.get', 'investments.holdings.get', 'assets.get', 'accounts.balance.get']) {
      expect([routeId, (await inputsOf(routeId)).filter((i) => i.startsWith('functions/core/enrichment/'))]).toEqual([routeId, []]);
    }
  }, 240_000);
});
