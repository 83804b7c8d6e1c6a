// Derived products (recurring, income) stored per item, beside the item row, each labelled with the
// version of the inputs it was computed from (see productVersion). A read whose version matches is
// answered from the stored rows; anything else is a miss and the caller recomputes and stores.
//
// Correctness never rests on the store: a row is used only when its version equals the reader's
// exactly, and a version names every input of the computation, so a row is either the right answer
// or ignored. The conditional write only keeps an older computation (a slow reader, an old
// deployment) from replacing a newer one, which would cost a recompute, never a wrong answer.
//
// Rows: pk ITEM#<item>, sk PRODUCT#<name>#<part:3>. The product is gzipped JSON cut into parts of
// at most PART_BYTES, so that a big item stays under DynamoDB's 400 KB per row: a 10-year consumer
// item's recurring streams are about 36 KB gzipped, one part. Part 000 (the head) carries the
// version, the number of parts and a write id that every part of the same write repeats, so parts
// of two writes are never stitched together. Rows expire (TTL) two days after they are written:
// the date is part of the version, so an older row can never match again.
//
// Beside the parts, `PRODUCT#<name>#SERVED` holds the version last served to a reader (within the
// parts' prefix, so the read that finds the parts finds it too). The refresh worker recomputes a
// product at ingestion only when the version before its commit was served (precomputeServedProducts,
// functions/app/derived-products.ts): an integrator that reads a product after each sync finds it
// ready, and an item whose products nobody reads costs no recomputation.
import { BatchWriteCommand, GetCommand, PutCommand, TransactWriteCommand, isTransactionCanceled } from '../platform/aws/dynamodb';
import { randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Deps } from '../platform/runtime';
import { queryByPrefix, writeIf, type Row } from './dynamo';
import { keys } from './keys';

/** The feed-derived products that are stored. */
export type StoredProductName = 'recurring' | 'income';

/** What a derived product is a function of. */
export interface ProductInputs {
  /** The item's committed_seq: the feed snapshot the product was computed from. */
  committedSeq: number;
  /** The date (YYYY-MM-DD) the product was computed as of. */
  today: string;
  /** The version of the derivation rules (bumped when their output changes). */
  rules: number;
}

/**
 * The version string of a product's inputs. Fixed-width fields, so that string order is the order
 * of (committed_seq, today, rules): the conditional write compares versions as strings.
 */
export function productVersion(inputs: ProductInputs): string {
  return `${String(inputs.committedSeq).padStart(12, '0')}#${inputs.today}#r${String(inputs.rules).padStart(4, '0')}`;
}

/**
 * The ordered part of a version: (committed_seq, date, rules), without the shared-account selection's
 * suffix (`#a<hash>`, which has no order). Conditions compare it to keep an older computation from
 * replacing a newer one; a different selection at the same point replaces the stored row.
 */
export function versionOrder(version: string): string {
  return version.replace(/#a[^#]*$/, '');
}

/** Largest gzipped slice one row holds: DynamoDB's limit is 400 KB per row, keys and attributes included. */
export const PART_BYTES = 350_000;
/**
 * Most parts one product is stored in: they are written in one transaction, whose items may not
 * exceed 4 MB together. A product larger than this (3.5 MB gzipped, some 200,000 transaction ids)
 * is not stored: every read computes it, as before the store existed.
 */
export const MAX_PARTS = 10;

/** Stored rows expire this long after they are written (their date can never match again after a day). */
const ROW_TTL_MS = 2 * 24 * 3600 * 1000;

const partNumber = (row: Row) => Number((row.sk as string).slice((row.sk as string).lastIndexOf('#') + 1));

/** What the stored rows of a product say for a reader at `version`. */
export interface StoredRead<T> {
  /** The product computed from exactly that version; undefined otherwise (never stored, another version, parts of different writes). */
  value: T | undefined;
  /** The version last served to a reader (markServed), or null. */
  servedVersion: string | null;
}

/** The served marker: the version last served and when (service clock, ms). */
export interface ServedMark {
  version: string;
  at: number;
}

/** One strongly consistent Query over the product's rows (usually one part, and the served marker). */
export async function readStoredProduct<T>(deps: Deps, itemId: string, product: StoredProductName, version: string): Promise<StoredRead<T>> {
  const where = keys.productParts(itemId, product);
  const rows = await queryByPrefix(deps, where.pk, where.skPrefix);
  const served = rows.find((row) => row.sk === keys.productServed(itemId, product).sk);
  const servedVersion = typeof served?.served_version === 'string' ? served.served_version : null;
  const head = rows.find((row) => partNumber(row) === 0);
  if (!head || head.version !== version) return { value: undefined, servedVersion };
  const parts: Uint8Array[] = [];
  for (let n = 0; n < (head.parts as number); n++) {
    const part = rows.find((row) => partNumber(row) === n);
    if (!part || part.write_id !== head.write_id) return { value: undefined, servedVersion };
    parts.push(part.data as Uint8Array);
  }
  return { value: JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8')) as T, servedVersion };
}

/**
 * Records that `version` of the product was served to a reader, and when: one small conditional
 * PutItem, never moving the marker back to an older version. Expires with the parts.
 */
export async function markServed(deps: Deps, itemId: string, product: StoredProductName, version: string): Promise<void> {
  const now = deps.clock.now();
  await writeIf(() =>
    deps.ddb.send(
      new PutCommand({
        TableName: deps.config.tableName,
        Item: {
          ...keys.productServed(itemId, product),
          served_version: version,
          served_order: versionOrder(version),
          served_at: now,
          expires_at: Math.floor((now + ROW_TTL_MS) / 1000),
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR attribute_not_exists(served_order) OR served_order < :order OR (served_order = :order AND served_version <> :version)',
        ExpressionAttributeValues: { ':version': version, ':order': versionOrder(version) },
      }),
    ),
  );
}

/**
 * The version of the product last served to a reader and when, or null: one GetItem of the small marker row,
 * eventually consistent (half a read unit on every refresh): the serve it records happened a refresh
 * interval ago, and a serve missed by a second's replication lag only leaves the product to its read.
 */
export async function servedMarkOf(deps: Deps, itemId: string, product: StoredProductName): Promise<ServedMark | null> {
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.productServed(itemId, product) }));
  return typeof Item?.served_version === 'string' ? { version: Item.served_version, at: typeof Item.served_at === 'number' ? Item.served_at : 0 } : null;
}

export type StoreOutcome =
  /** The product is stored under its version. */
  | 'stored'
  /** A computation of the same or a newer version is already stored: nothing was written. */
  | 'superseded'
  /** Larger than MAX_PARTS parts: not stored. */
  | 'too_large'
  /** The item was removed while the product was computed: what was written is deleted again. */
  | 'item_gone';

/**
 * Stores `value` as the product computed from `version`, unless the same or a newer version is
 * already stored. `partBytes` is for tests (the split into parts); callers leave it.
 */
export async function storeProduct(
  deps: Deps,
  itemId: string,
  product: StoredProductName,
  version: string,
  value: unknown,
  partBytes = PART_BYTES,
): Promise<StoreOutcome> {
  const zipped = gzipSync(JSON.stringify(value));
  const count = Math.max(1, Math.ceil(zipped.length / partBytes));
  if (count > MAX_PARTS) return 'too_large';
  const table = deps.config.tableName;
  const writeId = randomUUID();
  const expiresAt = Math.floor((deps.clock.now() + ROW_TTL_MS) / 1000);
  const rows = Array.from({ length: count }, (_, n) => ({
    ...keys.productPart(itemId, product, n),
    write_id: writeId,
    data: zipped.subarray(n * partBytes, (n + 1) * partBytes),
    expires_at: expiresAt,
    ...(n === 0 ? { version, version_order: versionOrder(version), parts: count } : {}),
  }));
  const onlyIfNewer = {
    ConditionExpression: 'attribute_not_exists(pk) OR attribute_not_exists(version_order) OR version_order < :order OR (version_order = :order AND version <> :version)',
    ExpressionAttributeValues: { ':version': version, ':order': versionOrder(version) },
  };
  let written: boolean;
  if (count === 1) {
    written = await writeIf(() => deps.ddb.send(new PutCommand({ TableName: table, Item: rows[0], ...onlyIfNewer })));
  } else {
    // All parts or none: a reader never finds a head whose parts are missing because of this write.
    try {
      await deps.ddb.send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName: table, Item: rows[0], ...onlyIfNewer } }, ...rows.slice(1).map((Item) => ({ Put: { TableName: table, Item } }))],
        }),
      );
      written = true;
    } catch (err) {
      // The head's condition failed, or a concurrent writer of the same product held the rows:
      // either way another computation is being or has been stored.
      if (!isTransactionCanceled(err)) throw err;
      written = false;
    }
  }
  if (!written) return 'superseded';
  // Removing an item deletes its partition; a product computed by a read that was in flight then
  // would otherwise outlive the item (until its TTL). The item row goes first on removal, so a
  // write that lands after the partition was emptied sees the item gone here.
  const item = await deps.ddb.send(new GetCommand({ TableName: table, Key: keys.item(itemId), ConsistentRead: true, ProjectionExpression: 'pk' }));
  if (item.Item) return 'stored';
  await deps.ddb.send(
    new BatchWriteCommand({ RequestItems: { [table]: rows.map((row) => ({ DeleteRequest: { Key: { pk: row.pk, sk: row.sk } } })) } }),
  );
  return 'item_gone';
}
