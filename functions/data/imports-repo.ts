// What statement files reported beyond accounts and transactions: the holdings and investment
// transactions of an import item (functions/app/statement-import.ts). One gzipped row in the item's
// partition, replaced as a whole by each import (which merges with what it holds first).
import { DeleteCommand, GetCommand, PutCommand } from '../platform/aws/dynamodb';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Investments, SourceTransaction } from '../core/connector-port';
import type { Deps } from '../platform/runtime';
import { writeIf } from './dynamo';
import { keys } from './keys';

/** DynamoDB's item limit is 400 KB; the row keeps room for its keys. */
export const IMPORTED_INVESTMENTS_MAX_BYTES = 380_000;

export class ImportTooLargeError extends Error {
  constructor(bytes: number) {
    super(`the item's imported investments take ${bytes} bytes compressed; at most ${IMPORTED_INVESTMENTS_MAX_BYTES} fit`);
    this.name = 'ImportTooLargeError';
  }
}

const EMPTY: Investments = { holdings: [], securities: [], investment_transactions: [] };

export async function readImportedInvestments(deps: Deps, itemId: string): Promise<Investments> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.importedInvestments(itemId), ConsistentRead: true }));
  if (!res.Item) return EMPTY;
  return JSON.parse(gunzipSync(res.Item.data as Uint8Array).toString('utf8')) as Investments;
}

/** A value compressed for one row, or ImportTooLargeError: checked before anything is written. */
export function packed(value: unknown): Uint8Array {
  const data = gzipSync(JSON.stringify(value));
  if (data.length > IMPORTED_INVESTMENTS_MAX_BYTES) throw new ImportTooLargeError(data.length);
  return data;
}

export async function writeImportedInvestments(deps: Deps, itemId: string, data: Uint8Array): Promise<void> {
  await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: { ...keys.importedInvestments(itemId), data } }));
}

/** How long an import may hold its item: past this a crashed import's lock is taken over. */
export const IMPORT_LOCK_MS = 60_000;

/** Takes the item's import lock; false while another import holds it. */
export async function takeImportLock(deps: Deps, itemId: string, owner: string): Promise<boolean> {
  const now = deps.clock.now();
  return writeIf(() =>
    deps.ddb.send(
      new PutCommand({
        TableName: deps.config.tableName,
        Item: { ...keys.importLock(itemId), owner, until: now + IMPORT_LOCK_MS },
        ConditionExpression: 'attribute_not_exists(pk) OR #until < :now',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':now': now },
      }),
    ),
  );
}

export async function releaseImportLock(deps: Deps, itemId: string, owner: string): Promise<void> {
  await writeIf(() =>
    deps.ddb.send(
      new DeleteCommand({
        TableName: deps.config.tableName,
        Key: keys.importLock(itemId),
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': owner },
      }),
    ),
  );
}

/**
 * What an import item remembers across files: the corrections its files made (so a re-imported
 * older file never undoes them) and the date each account's stored balance is as of (so an older
 * statement never rolls a balance back).
 */
export interface ImportState {
  /** Transaction ids a file deleted (OFX CORRECTACTION DELETE). */
  deleted: string[];
  /** The correcting version of each transaction a file replaced (CORRECTACTION REPLACE). */
  replaced: Record<string, SourceTransaction>;
  /** Account id -> the date its stored balance is as of. */
  balancesAsOf: Record<string, string>;
  /** The day/month order the item's files are read in, once one settled it (a later file that cannot tell follows it). */
  dateOrder?: 'dmy' | 'mdy' | 'ymd';
}

export async function readImportState(deps: Deps, itemId: string): Promise<ImportState> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.importState(itemId), ConsistentRead: true }));
  if (!res.Item) return { deleted: [], replaced: {}, balancesAsOf: {} };
  return JSON.parse(gunzipSync(res.Item.data as Uint8Array).toString('utf8')) as ImportState;
}

export async function writeImportState(deps: Deps, itemId: string, data: Uint8Array): Promise<void> {
  await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: { ...keys.importState(itemId), data } }));
}