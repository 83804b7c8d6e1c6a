// What each API function may do, decided by its route alone (id, tag, auth mode and `dataAccess`).
// Pure, so the CDK test can compare every role and environment in the template with the access its
// route should get.
import type { Route } from '../functions/contracts/routes';
import { keys } from '../functions/data/keys';

/**
 * - `none`: public routes that touch no rows (documents, the Link SDK, GraphiQL): no table access.
 * - `auth-and-meter`: key-authenticated routes that touch no rows beyond the key's own: the one
 *   conditional UpdateItem on the ApiKey row that authenticates, rate-limits and meters the request
 *   (functions/data/api-keys-repo.ts), and the usage.limit_approaching event such a request may
 *   fire (PutItem of the event row, UpdateItem marking it published); each restricted by
 *   `dynamodb:LeadingKeys` to those rows' partitions, plus the table key's KMS actions that needs.
 * - `read-write`: routes with `dataAccess` (items, tokens, link sessions, webhooks, ...):
 *   TableV2.grantReadWriteData (table and its indexes, and the table key).
 */
export type TableAccess = 'none' | 'auth-and-meter' | 'read-write';

/** Partition-key patterns (`dynamodb:LeadingKeys`) of the rows a metering-only route writes. */
export const API_KEY_PARTITIONS: readonly string[] = [keys.apiKey('*').pk];
export const EVENT_PARTITIONS: readonly string[] = [keys.event('*').pk];

/** One table statement of an `auth-and-meter` route: actions on the table ARN, limited to these partitions. */
export interface LeadingKeyGrant {
  actions: readonly string[];
  partitions: readonly string[];
}

export const AUTH_AND_METER_GRANTS: readonly LeadingKeyGrant[] = [
  // The ApiKey row (authenticate + meter) and the event row (marked published after SendMessage).
  { actions: ['dynamodb:UpdateItem'], partitions: [...API_KEY_PARTITIONS, ...EVENT_PARTITIONS] },
  // A new event row (usage.limit_approaching), never any other row.
  { actions: ['dynamodb:PutItem'], partitions: EVENT_PARTITIONS },
];
export const AUTH_AND_METER_ACTIONS: readonly string[] = AUTH_AND_METER_GRANTS.flatMap((g) => g.actions);

/** KMS actions a principal needs for DynamoDB to use the table's customer-managed key on its behalf. */
export const TABLE_KEY_ACTIONS: readonly string[] = ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'];

/** Seal (new data key) and open (unwrap) webhook secrets: functions/platform/crypto/kms-key-provider.ts. */
export const SECRETS_KEY_ACTIONS: readonly string[] = ['kms:Decrypt', 'kms:GenerateDataKey'];

/** Environment variables the stack sets and functions/platform reads (runtime.ts, aws-ports.ts). */
export const ENV_VARS = {
  tableName: 'FC_TABLE_NAME',
  stage: 'FC_STAGE',
  secretsKeyId: 'FC_SECRETS_KMS_KEY_ID',
  eventsQueueUrl: 'FC_WEBHOOK_EVENTS_QUEUE_URL',
  refreshQueueUrl: 'FC_ITEM_REFRESH_QUEUE_URL',
  deliveryStateMachineArn: 'FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN',
  /** Set only with a custom domain (StageConfig.customDomain). */
  baseUrl: 'FC_BASE_URL',
} as const;

/**
 * Background capabilities a route's code may use, each listing exactly the routes whose code reaches
 * it. test/cdk/route-capabilities.test.ts scans every handler's code (test/cdk/capability-scan.ts:
 * the port and key-provider calls reachable from the handler) and fails when a route that reaches a
 * capability is missing here, or a route listed here never reaches it. The environment variable and
 * the IAM grant of a capability both come from this one table (routeAccessFor), so they cannot drift.
 */
export const ROUTE_CAPABILITIES = {
  /**
   * `RefreshQueue.enqueue`: functions/app/lifecycle.ts requestRefresh, and update-mode Link
   * (functions/app/link.ts), which leaves the sync to the refresh worker while a refresh holds the item.
   */
  refreshQueue: ['items.refresh', 'link.connect', 'link.mfa'],
  /** `DeliveryStarter.start`: replayEvent starts a WebhookDelivery execution per new delivery. */
  deliveryWorkflow: ['webhooks.events.replay'],
  /**
   * `KeyProvider.generateDataKey` and `decryptDataKey`: the routes that create, rotate or show the
   * webhook signing secret (ensureSecret, rotateSecret), including link.token.create with a webhook.
   */
  secretsKey: ['link.token.create', 'webhooks.endpoints.create', 'webhooks.secret.rotate'],
} as const satisfies Record<string, readonly string[]>;
export type RouteCapability = keyof typeof ROUTE_CAPABILITIES;

/**
 * The KMS encryption context the code sends with every webhook-secret data key
 * (functions/app/webhooks.ts secretContext): grants on the secrets key require exactly these keys and
 * this purpose, so a role that may open webhook secrets cannot unwrap anything else sealed under the
 * same key.
 */
export const SECRETS_CONTEXT_KEYS: readonly string[] = ['application_id', 'environment', 'purpose'];
export const WEBHOOK_SECRET_PURPOSE = 'webhook_secret';
export const SECRETS_KEY_CONDITIONS = {
  StringEquals: { 'kms:EncryptionContext:purpose': WEBHOOK_SECRET_PURPOSE },
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...SECRETS_CONTEXT_KEYS] },
};

export interface RouteAccess {
  table: TableAccess;
  /** `FC_WEBHOOK_EVENTS_QUEUE_URL` + `sqs:SendMessage` on the webhook-events queue. */
  eventsQueue: boolean;
  /** `FC_ITEM_REFRESH_QUEUE_URL` + `sqs:SendMessage` on the item-refresh queue. */
  refreshQueue: boolean;
  /** `FC_SECRETS_KMS_KEY_ID` + SECRETS_KEY_ACTIONS on the secrets key, under SECRETS_KEY_CONDITIONS. */
  secretsKey: boolean;
  /** `FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN` + `states:StartExecution` on the WebhookDelivery machine. */
  deliveryWorkflow: boolean;
}

type RouteFacts = Pick<Route, 'id' | 'auth' | 'dataAccess'>;

export function tableAccessFor(route: Pick<Route, 'id' | 'auth' | 'dataAccess'>): TableAccess {
  if (route.dataAccess) return 'read-write';
  switch (route.auth) {
    case 'none':
      return 'none';
    case 'key':
      return 'auth-and-meter';
    case 'link':
      // A link route authenticates by looking its link token up in the table; without data access
      // it could not answer at all, so the route table is wrong rather than the grant.
      throw new Error(`${route.id}: auth 'link' routes read the link session, so they need dataAccess: true`);
  }
}

/**
 * Everything a route's function may reach:
 * - the events queue: every route that touches the table. Any key route may cross a quota threshold
 *   (usage.limit_approaching, functions/platform/middleware.ts); data routes emit item and link
 *   events (sandbox.item.reset_login, sandbox.fire_webhook, link.connect, link.mfa, ingestion).
 *   Public routes without data access never emit.
 * - the refresh queue, the delivery workflow and the secrets key: the routes ROUTE_CAPABILITIES lists.
 * Each of those comes with rows to read (the item, the event and its deliveries, the secret record),
 * so a route listed there without `dataAccess` is a route-table error and fails synth.
 */
export function routeAccessFor(route: RouteFacts): RouteAccess {
  const table = tableAccessFor(route);
  const uses = (capability: RouteCapability) => (ROUTE_CAPABILITIES[capability] as readonly string[]).includes(route.id);
  const [refreshQueue, deliveryWorkflow, secretsKey] = [uses('refreshQueue'), uses('deliveryWorkflow'), uses('secretsKey')];
  if ((refreshQueue || deliveryWorkflow || secretsKey) && table !== 'read-write') {
    throw new Error(`${route.id}: enqueues refreshes, starts deliveries or opens webhook secrets, so it needs dataAccess: true`);
  }
  return { table, eventsQueue: table !== 'none', refreshQueue, secretsKey, deliveryWorkflow };
}
