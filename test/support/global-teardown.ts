import type { DynamoDbLocal } from '../../functions/platform/local/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamo?: DynamoDbLocal }).__dynamo?.stop();
}
