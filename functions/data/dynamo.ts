// Patterns every repository uses, written once.
import { BatchWriteCommand, QueryCommand, type QueryCommandOutput, isConditionalCheckFailed } from '../platform/aws/dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import type { Deps } from '../platform/runtime';
import { TABLE } from './keys';

/** A table row as the document client returns it: attribute values are whatever was stored. */
export type Row = Record<string, NativeAttributeValue>;

/** Runs a conditional write; false when its condition did not hold (nothing was written). */
export async function writeIf(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return false;
    throw err;
  }
}

/** Every row of one partition whose sort key starts with `skPrefix` (strongly consistent, all pages). */
export async function queryByPrefix(deps: Deps, pk: string, skPrefix: string): Promise<Row[]> {
  const rows: Row[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    rows.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return rows;
}

/** Every row of one partition of the general index `gsi1` (all pages; oldest sort key first unless `newestFirst`). */
export async function queryIndexPartition(deps: Deps, gsi1pk: string, options: { newestFirst?: boolean } = {}): Promise<Row[]> {
  const rows: Row[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        IndexName: TABLE.globalIndexes[0].indexName,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ScanIndexForward: !options.newestFirst,
        ExclusiveStartKey: start,
      }),
    );
    rows.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return rows;
}

/** One request of a BatchWriteItem. */
export type WriteRequest = { PutRequest: { Item: Row } } | { DeleteRequest: { Key: Row } };

/** BatchWriteItem in chunks of 25, a few in flight, retrying what DynamoDB leaves unprocessed. */
export async function writeRows(deps: Deps, requests: readonly WriteRequest[]): Promise<void> {
  const table = deps.config.tableName;
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
  const writeChunk = async (chunk: WriteRequest[]) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed items');
      const res = await deps.ddb.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (res.UnprocessedItems?.[table] ?? []) as WriteRequest[];
      if (pending.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  };
  // A few chunks in flight. When one fails, the others finish what they started before the error
  // surfaces: the next writer's undo must not race writes still landing.
  let next = 0;
  let failure: { error: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(4, chunks.length) }, async () => {
      while (next < chunks.length && !failure) {
        try {
          await writeChunk(chunks[next++]);
        } catch (error) {
          failure ??= { error };
        }
      }
    }),
  );
  if (failure) throw failure.error;
}

