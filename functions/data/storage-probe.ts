// The health check's one storage call: a consistent-enough GetItem of a row that never exists, which
// costs half a read unit and proves the table answers (connection, credentials, the engine itself).
import { GetCommand } from '../platform/aws/dynamodb';
import type { Deps } from '../platform/runtime';
import { keys } from './keys';

export async function probeStorage(deps: Deps): Promise<void> {
  await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.storageProbe(), ProjectionExpression: 'pk' }));
}
