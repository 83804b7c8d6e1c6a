// A fresh table in the run's DynamoDB Local, with deps whose clock the test controls.
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../functions/platform/local/dynamodb-local';
import { createItem, type NewItem } from '../../functions/data/items-repo';
import { createDeps, type Deps } from '../../functions/platform/runtime';

export interface ManualClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): ManualClock {
  let t = start;
  return { now: () => t, set: (ms) => (t = ms), advance: (ms) => (t += ms) };
}

export async function embeddedDeps(clock: ManualClock = manualClock()): Promise<Deps & { clock: ManualClock }> {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest, from a layer with DynamoDB Local (handlers, e2e, browser; see jest.config.js)');
  const tableName = `h_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  return createDeps({ tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint }, clock) as Deps & { clock: ManualClock };
}

/** A healthy sandbox item with the transactions product, written straight to the table. */
export async function createTestItem(deps: Deps, itemId: string, overrides: Partial<NewItem> = {}) {
  return createItem(deps, {
    itemId,
    applicationId: 'app_test',
    environment: 'test',
    institutionId: 'ins_sandbox_first_bank',
    institutionName: 'Sandbox First Bank',
    connector: 'sandbox',
    consentedProducts: ['transactions'],
    connectionLogin: 'user_good',
    clientUserId: 'test-user',
    webhook: null,
    ...overrides,
  });
}
