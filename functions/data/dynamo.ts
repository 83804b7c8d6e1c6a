// Patterns every repository uses, written once.
import { QueryCommand, type QueryCommandOutput, isConditionalCheckFailed } from '../platform/aws/dynamodb';
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
