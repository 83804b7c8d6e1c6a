// The product and balance reads build connectors from READER_ADAPTERS (functions/connectors/readers.ts):
// it must cover every adapter of this release, and serve exactly what the whole connectors serve.
import { ALL_ADAPTERS } from '../../functions/connectors';
import { fileImportConnector } from '../../functions/connectors/file_import';
import { READER_ADAPTERS } from '../../functions/connectors/readers';
import { buildAdapter, type ConnectorReads } from '../../functions/connectors/registry';
import { sandboxConnector } from '../../functions/connectors/sandbox';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { findInstitution } from '../../functions/core/institutions';

const READ_METHODS = ['accounts', 'identity', 'liabilities', 'investments', 'disconnect'] as const satisfies readonly (keyof ConnectorReads)[];
/** The adapters whose reads are a module of their own, apart from the rest of the connector. */
const OWN_READ_MODULES = [
  ['sandbox', sandboxConnector],
  ['file_import', fileImportConnector],
] as const;

describe('READER_ADAPTERS', () => {
  it('has an entry for every adapter of this release', () => {
    expect([...READER_ADAPTERS.keys()].sort()).toEqual([...ALL_ADAPTERS.keys()].sort());
  });

  it('builds every other connector with its own factory', () => {
    const own = new Set<string>(OWN_READ_MODULES.map(([id]) => id));
    for (const id of [...ALL_ADAPTERS.keys()].filter((k) => !own.has(k))) expect([id, READER_ADAPTERS.get(id)]).toEqual([id, ALL_ADAPTERS.get(id)]);
  });

  it.each(OWN_READ_MODULES)('%s: the reads are the whole connector\'s own methods', (id, whole) => {
    const reads = buildAdapter(READER_ADAPTERS, id, {})!;
    expect({ id: reads.id, linkMethod: reads.linkMethod }).toEqual({ id: whole.id, linkMethod: whole.linkMethod });
    for (const method of READ_METHODS) expect([method, reads[method]]).toEqual([method, whole[method]]);
  });

  it('serves the sandbox data the whole connector serves', async () => {
    const connection = { institutionId: findInstitution('ins_sandbox_first_bank')!.institution_id, login: 'user_good' };
    const today = '2024-03-15';
    const reads = buildAdapter(READER_ADAPTERS, 'sandbox', {})!;
    const accounts = generateSandboxItem({ institutionId: connection.institutionId, username: connection.login }, today).accounts;
    const context = { today, accounts };
    expect(await reads.accounts(connection, today)).toEqual(await sandboxConnector.accounts(connection, today));
    expect(await reads.identity(connection, context)).toEqual(await sandboxConnector.identity(connection, context));
    expect(await reads.liabilities(connection, context)).toEqual(await sandboxConnector.liabilities(connection, context));
    expect(await reads.investments(connection, context)).toEqual(await sandboxConnector.investments(connection, context));
  });
});
