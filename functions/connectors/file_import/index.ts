// The statement importer behind the connector port: the user uploads a CSV, OFX, QFX or QBO export
// in Link (or the integrator uploads one through the API for an import item), and its accounts,
// transactions and holdings become the item's data. Nothing is pulled afterwards: the data arrives
// with each file, so the pull methods answer what an import item cannot do (docs/connectors.md).
// Its reads (./reads.ts) need no parser: the read routes bundle them alone.
import { randomBytes } from 'node:crypto';
import { ConnectorError, type ConnectorFactory, type ConnectorPort, type Connection, type SourceBatch, type StatementFile } from '../../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../../core/connectors';
import { parseStatement } from '../../core/statements';
import { StatementError } from '../../core/statements/types';
import { statementBatch } from './mapping';
import { credentialsRefused } from '../payload';
import { fileImportReads, nothingToPull } from './reads';

/** The reference of a new import item: random, so two users' imports of the same file never share ids. */
const newImportLogin = () => `imp_${randomBytes(12).toString('hex')}`;

/** The parser's refusal as the port reports it: the API error code and the message naming the problem and line. */
function parse(bytes: Uint8Array, fileName: string | null, dateOrder?: StatementFile['dateOrder']) {
  try {
    return parseStatement(bytes, fileName ?? undefined, dateOrder ? { dateOrder } : {});
  } catch (err) {
    if (err instanceof StatementError) throw new ConnectorError('invalid_input', err.message, { code: err.code });
    throw err;
  }
}

function importBatch(login: string, file: StatementFile): SourceBatch {
  const statement = parse(file.bytes, file.fileName, file.dateOrder);
  const batch = statementBatch(login, statement);
  return {
    ...batch,
    ...(statement.dateOrder && statement.dateOrderSource ? { dateOrder: { order: statement.dateOrder, source: statement.dateOrderSource } } : {}),
    ...(statement.skipped.length > 0 ? { notices: statement.skipped } : {}),
  };
}

export const fileImportConnector: ConnectorPort = {
  ...fileImportReads,
  id: FILE_IMPORT_CONNECTOR_ID,
  linkMethod: 'file',

  ...credentialsRefused('This institution is connected by uploading a statement file.'),

  async connect(institutionId, input) {
    if (input.method !== 'file') return { status: 'invalid_credentials', message: 'Upload a statement file to connect.' };
    const login = newImportLogin();
    const batch = importBatch(login, { bytes: input.bytes, fileName: input.fileName });
    return { status: 'connected', connection: { institutionId, login }, batch };
  },

  async importStatement(connection: Connection, file) {
    return importBatch(connection.login, file);
  },

  // The app layer never schedules pulls for an import item; a call that reaches here asked for a
  // pull that an import item cannot do.
  async initialHistory() {
    throw nothingToPull('load history from');
  },
  async refresh() {
    throw nothingToPull('refresh');
  },
};

export const createFileImportConnector: ConnectorFactory = () => fileImportConnector;
