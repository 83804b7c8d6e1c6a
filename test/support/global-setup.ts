// One DynamoDB Local (in memory) for the whole run; every test file creates its own table in it.
import { startDynamoDbLocal } from '../../functions/platform/local/dynamodb-local';

export default async function globalSetup(): Promise<void> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal();
  process.env.FC_TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
