// One DynamoDB Local (in memory) for the projects that need a database (jest.config.js); every test
// file creates its own table in it.
import './test-env';
import { startDynamoDbLocal } from '../../functions/platform/local/dynamodb-local';

export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  process.env.FC_TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
  (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
}
