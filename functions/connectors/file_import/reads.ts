// The statement importer's reads of a stored import item. Its data arrives with each uploaded file
// and the app layer serves an import item's accounts and holdings from what it stored at import
// (functions/app/statement-import.ts), so these answer what an import item has and cannot do,
// without the statement parsers, which only ./index.ts (connect, importStatement) runs.
import { ConnectorError } from '../../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../../core/connectors';
import type { ConnectorReads } from '../registry';

/** An import item has no source to pull from: a call that reaches the connector for one is refused. */
export const nothingToPull = (what: string) =>
  new ConnectorError('invalid_input', `An import item has no source to ${what}: upload a newer statement instead.`, { code: 'statement_import_not_supported' });

export const fileImportReads: ConnectorReads = {
  id: FILE_IMPORT_CONNECTOR_ID,
  linkMethod: 'file',

  // The app layer never asks for an import item's balances (they are the latest statement's); a call
  // that reaches here asked for a pull that an import item cannot do.
  async accounts() {
    throw nothingToPull('refresh balances from');
  },
  async identity() {
    return { owners: [] };
  },
  async liabilities() {
    return { credit: [], mortgage: [], student: [], auto: [] };
  },
  async investments() {
    throw nothingToPull('read holdings from');
  },
};
