// Link's statement upload (link.upload): the file importer turns the file into the new item's
// accounts, transactions and holdings, written (enriched, by ./statement-import) before the
// connection commits. The one Link step that ingests: no other adapter is built here.
import { FILE_ADAPTERS } from '../connectors/by-method/file';
import { chooseConnector } from '../connectors/choice';
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import type { Deps } from '../platform/runtime';
import { connectorEnvFor } from './item-connector';
import { buildSessionConnector, connectorCall, consentCallOf, consentContext, finishConsent, selectionWanted, type LinkStep } from './link-connection';
import type { LinkCaller } from './link-session';
import { ingestStatementBatch } from './statement-import';

/** What the upload brings to a connection: the file importer, and the file's data written with the new item. */
const UPLOAD_STEP: LinkStep = { adapters: FILE_ADAPTERS, ingest: ingestStatementBatch };

/**
 * POST /link/api/upload: a statement file. The file importer parses it into the item's accounts,
 * transactions and holdings, written with the new item before it commits; a refused file leaves
 * nothing behind and its error names the problem (and the line).
 */
export async function uploadStatement(deps: Deps, body: RequestOf<'link.upload'>, caller: LinkCaller) {
  const { session, institution } = await consentContext(deps, body.link_token, body.institution_id, caller);
  // A statement creates an item with its data; there is no login of an existing item to repair with one.
  if (session.updateItemId) fail('invalid_field', 'This link reconnects an existing account; a statement file cannot repair it.');
  if (session.environment === 'live' && !institution.connectors.includes(FILE_IMPORT_CONNECTOR_ID)) {
    fail('invalid_field', `${institution.name} does not accept statement files.`);
  }
  const env = await connectorEnvFor(deps, session.environment);
  const { connector, connect } = consentCallOf(buildSessionConnector(FILE_ADAPTERS, { choice: chooseConnector(session.environment, institution, env, 'file'), env }));
  const bytes = Buffer.from(body.file_base64, 'base64');
  if (bytes.length > LIMITS.statementMaxBytes) fail('statement_too_large');
  // A refused file is not a guessed login: it counts no attempt.
  const result = await connectorCall(() => connect(institution.institution_id, { method: 'file', bytes, fileName: body.file_name }));
  return finishConsent(deps, session, institution, UPLOAD_STEP, connector, result, selectionWanted(session, body));
}
