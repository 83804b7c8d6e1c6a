// The adapters the reads of a stored item build (accounts/balance/get, the institution-reported
// products, and the GraphQL and MCP surfaces through them): every connector of this release, each
// as what ConnectorReads asks of it. The sandbox simulator's and the statement importer's reads are
// their own modules, so a read route bundles neither the sandbox refresh simulator nor a statement
// parser. test/unit/connector-readers.test.ts holds this set to ./index.ts ALL_ADAPTERS.
import { FILE_IMPORT_CONNECTOR_ID, SANDBOX_CONNECTOR_ID } from '../core/connectors';
import { fileImportReads } from './file_import/reads';
import { PROVIDER_ADAPTERS } from './provider-adapters';
import type { AdapterFactory, AdapterSet, ConnectorReads } from './registry';
import { sandboxReads } from './sandbox/reads';

export const READER_ADAPTERS: AdapterSet<ConnectorReads> = new Map<string, AdapterFactory<ConnectorReads>>([
  [SANDBOX_CONNECTOR_ID, () => sandboxReads],
  [FILE_IMPORT_CONNECTOR_ID, () => fileImportReads],
  ...PROVIDER_ADAPTERS,
]);
