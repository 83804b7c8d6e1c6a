// What each API function may do, decided by its route alone (id, auth mode, `item`, `dataAccess`,
// status) and the per-route row table below. Pure, so the CDK test can compare every role and
// environment in the template with the access its route should get.
import { ENVIRONMENTS } from '../functions/contracts/schemas';
import { AI_MODEL_ENVIRONMENT } from '../functions/contracts/stages';
import { MCP_TOOLS } from '../functions/contracts/mcp-tools';
import { routeById, type Route, type RouteId } from '../functions/contracts/routes';
import { TABLE, keys } from '../functions/data/keys';

/**
 * - `none`: public routes that touch no rows (documents, the Link SDK, GraphiQL): no table access.
 * - `auth-and-meter`: key-authenticated routes that touch no rows beyond the key's own: the one
 *   conditional UpdateItem on one of the key's metering shards (`KEY#<hash>` or `KEY#<hash>#S<n>`)
 *   that authenticates, rate-limits and meters the request, or the TransactWriteItems that also
 *   borrows quota from the key row, which IAM authorises as UpdateItem on each row
 *   (functions/data/api-keys-repo.ts), and the usage.limit_approaching event such a request may
 *   fire (PutItem of the event row, UpdateItem marking it published).
 * - `partitions`: routes with `dataAccess`: the rows of ROUTE_ROWS (plus the key's and the
 *   access token's, from the route's auth and `item`), action by action.
 * - `whole-table`: a route whose ROUTE_ROWS entry says why it needs the whole table (none today):
 *   TableV2.grantReadWriteData (table and its indexes, and the table key).
 * Every table grant short of `whole-table` is limited by `dynamodb:LeadingKeys` to its partitions,
 * plus the table key's KMS actions (TABLE_KEY_ACTIONS).
 */
export type TableAccess = 'none' | 'auth-and-meter' | 'partitions' | 'whole-table';

/**
 * The actions a partition-limited grant may name. No Scan (nor any other call that names no
 * partition): a `ForAllValues` condition holds for a request without values, so a LeadingKeys limit
 * would not limit it. A route that scans needs the whole table (`wholeTable` in ROUTE_ROWS).
 */
export type PartitionAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'ConditionCheckItem';

/** Where a partition lives: the table (`pk`) or the general index (`gsi1pk`, Query only). */
type RowFamily = { index?: undefined; partitions: readonly string[] } | { index: string; partitions: readonly string[] };

/** Stands for every id in a key builder's output, so a family's pattern is the key schema's own. */
const ANY = '*';
const GSI1 = TABLE.globalIndexes[0].indexName;
const onTable = (...partitions: string[]): RowFamily => ({ partitions });
const onGsi1 = (...partitions: string[]): RowFamily => ({ index: GSI1, partitions });

/**
 * The row families routes touch, as `dynamodb:LeadingKeys` patterns built by the key builders of
 * functions/data/keys.ts (never typed by hand). A pattern names a family, not a tenant: `ITEM#*`
 * still matches every application's items; tenant isolation is the code's (checked by
 * test/security), the grant bounds which kinds of rows a function can reach at all. A family that
 * shares its partition with another (accounts and stored products live under `ITEM#`, sharded
 * counters under `KEY#`) needs no line of its own.
 */
export const ROW_FAMILIES = {
  apiKey: onTable(keys.apiKey(ANY).pk),
  event: onTable(keys.event(ANY).pk),
  application: onTable(keys.application(ANY).pk),
  linkToken: onTable(keys.linkToken(ANY).pk),
  linkCalls: onTable(...(['token', 'address'] as const).map((scope) => keys.linkCallWindow(scope, ANY, 0).pk)),
  publicToken: onTable(keys.publicToken(ANY).pk),
  accessToken: onTable(keys.accessToken(ANY).pk),
  item: onTable(keys.item(ANY).pk),
  feed: onTable(keys.feed(ANY).pk),
  storageProbe: onTable(keys.storageProbe().pk),
  /** webhooks/deliveries/list: one Query of gsi1 per application and environment. */
  deliveriesOfApplication: onGsi1(...ENVIRONMENTS.map((environment) => keys.deliveriesOfApplication(ANY, environment).gsi1pk)),
} satisfies Record<string, RowFamily>;
export type RowFamilyName = keyof typeof ROW_FAMILIES;

/** What a route may do, family by family. */
export type RowAccess = Partial<Record<RowFamilyName, readonly PartitionAction[]>>;

/** Authenticate and meter (every `auth: 'key'` route, functions/platform/middleware.ts). */
const KEY_AUTH_ROWS: RowAccess = { apiKey: ['UpdateItem'], event: ['PutItem', 'UpdateItem'] };
/** Resolve `access_token` to its item (every `item: true` route, functions/platform/operation.ts). */
const ACCESS_TOKEN_ROWS: RowAccess = { accessToken: ['GetItem'], item: ['GetItem'] };

/** Writing a Link connection: a new item (connecting, ingested, committed or discarded) or a repaired one. */
const LINK_CONNECTION: RowAccess = {
  item: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchWriteItem'],
  feed: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'BatchWriteItem'],
  publicToken: ['PutItem'],
  event: ['PutItem', 'UpdateItem'],
};
/** The Link page's API: every call is counted per token and client address, then reads its session. */
const LINK_PAGE_CALL: RowAccess = { linkCalls: ['UpdateItem'], linkToken: ['GetItem'] };
/** Registering a webhook endpoint: its rows, the URL and count rows, and the environment's secret (all under `APP#`). */
const ENDPOINT_REGISTRATION: RowAccess = { application: ['GetItem', 'PutItem', 'UpdateItem', 'Query'] };
/**
 * An AI route's item data (functions/app/ai.ts): the current transactions from the feed's date view
 * (a Query, and a GetItem of the feed's counts when the view is empty) and the cached accounts.
 */
const AI_ITEM_DATA: RowAccess = { item: ['Query'], feed: ['GetItem', 'Query'] };
/** categorize reads only the transactions. */
const AI_ITEM_TRANSACTIONS: RowAccess = { feed: ['GetItem', 'Query'] };
/**
 * A route that asks the item's connector (functions/app/item-source.ts withConnector): a failed call
 * is recorded on the item (UpdateItem) and a lost consent moves it to login_required, dropping its
 * refresh-due row in the same transaction (DeleteItem) and recording the item.error event.
 */
const CONNECTOR_FAILURE: RowAccess = { item: ['GetItem', 'UpdateItem', 'DeleteItem'], event: ['PutItem', 'UpdateItem'] };
/** Products derived from the feed and stored in the item's partition (functions/data/products-repo.ts). */
const FEED_DERIVED_PRODUCT: RowAccess = { item: ['Query', 'GetItem', 'PutItem', 'BatchWriteItem'], feed: ['Query', 'GetItem'] };

/**
 * The rows each live route with `dataAccess` touches beyond KEY_AUTH_ROWS and ACCESS_TOKEN_ROWS
 * (which its auth mode and `item` add): one entry per such route, its RowAccess blocks merged by
 * union. Checked both ways by test/cdk/route-capabilities.test.ts against what the route's code
 * references (key builders, DynamoDB commands), and by the deploy rehearsal (test/rehearsal) against
 * every call the bundled function makes. Adding a row family to a route is one line here (a new family is one more line in
 * ROW_FAMILIES). `wholeTable` would keep grantReadWriteData for a route whose partitions are chosen
 * by data (a Scan), with the reason; no route needs it today.
 */
export const ROUTE_ROWS: Partial<Record<RouteId, readonly RowAccess[] | { wholeTable: string }>> = {
  'health.get': [{ storageProbe: ['GetItem'] }],
  'link.token.create': [ENDPOINT_REGISTRATION, { item: ['GetItem'], linkToken: ['PutItem'] }],
  'link.token.exchange': [{ publicToken: ['GetItem', 'UpdateItem'], item: ['GetItem', 'UpdateItem'], accessToken: ['PutItem', 'DeleteItem'] }],
  'items.get': [],
  /** An upload: the item's accounts, its imported holdings row, its feed commit (with the lease on the item row) and the event. */
  'items.statements.upload': [{ item: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem'], feed: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'BatchWriteItem'], event: ['PutItem', 'UpdateItem'] }, CONNECTOR_FAILURE],
  'items.remove': [{ accessToken: ['DeleteItem'], item: ['DeleteItem', 'Query', 'BatchWriteItem'], feed: ['Query', 'BatchWriteItem'] }],
  'items.refresh': [],
  'accounts.get': [{ item: ['Query'] }],
  'accounts.balance.get': [{ item: ['Query', 'BatchWriteItem'] }, CONNECTOR_FAILURE],
  'transactions.sync': [{ feed: ['Query'] }],
  'transactions.get': [{ item: ['Query'], feed: ['GetItem', 'BatchGetItem', 'Query'] }],
  'identity.get': [{ item: ['Query'] }, CONNECTOR_FAILURE],
  'income.get': [FEED_DERIVED_PRODUCT],
  'liabilities.get': [{ item: ['Query'] }, CONNECTOR_FAILURE],
  'recurring.get': [FEED_DERIVED_PRODUCT],
  'assets.get': [{ item: ['Query'] }, CONNECTOR_FAILURE],
  'investments.holdings.get': [{ item: ['Query'] }, CONNECTOR_FAILURE],
  'investments.transactions.get': [{ item: ['Query'] }, CONNECTOR_FAILURE],
  'link.page': [{ linkToken: ['GetItem'], application: ['GetItem'] }],
  'link.session': [LINK_PAGE_CALL],
  'link.institutions': [LINK_PAGE_CALL],
  'link.connect': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.mfa': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  // Link's consent methods beyond credentials (functions/app/link.ts).
  // Update mode reads the item whose consent it repairs (its connector).
  'link.method': [LINK_PAGE_CALL, { item: ['GetItem'] }],
  'link.oauth.start': [LINK_PAGE_CALL, { linkToken: ['UpdateItem'], item: ['GetItem'] }],
  'link.oauth.complete': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.consent': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.upload': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  // A new item only: its history loads in the refresh worker, so the feed is only ever deleted here
  // (a connection that fails to commit is discarded with its partitions).
  'sandbox.public_token.create': [LINK_CONNECTION, { feed: ['Query', 'BatchWriteItem'] }],
  'sandbox.fire_webhook': [],
  // The item row, and its refresh-due row (deleted while the item needs its user) in one transaction.
  'sandbox.item.reset_login': [{ item: ['UpdateItem', 'DeleteItem'] }],
  'webhooks.endpoints.list': [{ application: ['Query'] }],
  'webhooks.endpoints.create': [ENDPOINT_REGISTRATION],
  'webhooks.endpoints.delete': [{ application: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'] }],
  'webhooks.secret.rotate': [{ application: ['GetItem', 'PutItem', 'UpdateItem'] }],
  'webhooks.deliveries.list': [{ deliveriesOfApplication: ['Query'] }],
  'webhooks.events.replay': [{ event: ['Query', 'PutItem'], application: ['Query'] }],
  // The AI routes that take an item or a raw payload resolve the access token themselves (they are
  // not `item: true`, since the token is optional), hence ACCESS_TOKEN_ROWS here.
  'ai.categorize': [ACCESS_TOKEN_ROWS, AI_ITEM_TRANSACTIONS],
  'ai.subscriptions': [ACCESS_TOKEN_ROWS, AI_ITEM_DATA],
  'ai.cashflow': [ACCESS_TOKEN_ROWS, AI_ITEM_DATA],
  'ai.fraud-risk': [ACCESS_TOKEN_ROWS, AI_ITEM_DATA],
  'ai.health-score': [AI_ITEM_DATA],
  'ai.financial-summary': [AI_ITEM_DATA],
  'ai.purchase-analysis': [AI_ITEM_DATA],
  'ai.weekly-report': [AI_ITEM_DATA],
  // The GraphQL gateway reads what the REST read routes read, for the items its access tokens name
  // (it resolves them itself: the route takes no single access_token): accounts, the transactions
  // feed (pages, sync, an item's range for its accounts) and the products, derived ones stored.
  'graphql.query': [ACCESS_TOKEN_ROWS, { item: ['Query'], feed: ['GetItem', 'BatchGetItem', 'Query'] }, FEED_DERIVED_PRODUCT, CONNECTOR_FAILURE],
};

/**
 * The MCP server (`mcp.call`, functions/surfaces/mcp) runs its tools' REST handlers in its own
 * function (invokeRoute), so it touches exactly the rows of those routes: the union of their entries,
 * plus ACCESS_TOKEN_ROWS when a tool's route takes an item (invokeRoute resolves the access token as
 * the item routes' middleware does). Computed from the entries above, never listed by hand.
 */
ROUTE_ROWS['mcp.call'] = MCP_TOOLS.flatMap((tool): readonly RowAccess[] => {
  const route = routeById(tool.route);
  // A route without dataAccess touches only the key's rows (authenticate), which mcp.call has anyway.
  if (!route.dataAccess) return [];
  const rows = ROUTE_ROWS[tool.route];
  if (!rows || 'wholeTable' in rows) throw new Error(`MCP tool ${tool.name}: its route ${tool.route} needs its rows in ROUTE_ROWS, by partition`);
  return route.item ? [ACCESS_TOKEN_ROWS, ...rows] : rows;
});

/** One table statement: actions on the table (or one of its indexes), limited to these partitions. */
export interface LeadingKeyGrant {
  actions: readonly string[];
  partitions: readonly string[];
  /** The index the statement is on (`<table ARN>/index/<name>`); absent: the table itself. */
  index?: string;
}

const ACTION_ORDER: readonly PartitionAction[] = ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem', 'PutItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'];
const FAMILY_ORDER = Object.keys(ROW_FAMILIES) as RowFamilyName[];

/**
 * The statements that allow exactly `rows` (several RowAccess are merged by union). One statement
 * per action and resource carries every partition that action may touch, so a BatchWriteItem or
 * transaction spanning two granted families is allowed (`ForAllValues` needs every key to match
 * within one statement); actions with the same partitions share a statement.
 */
export function leadingKeyGrants(...rows: RowAccess[]): LeadingKeyGrant[] {
  const byAction = new Map<string, { action: PartitionAction; index?: string; partitions: string[] }>();
  for (const action of ACTION_ORDER) {
    for (const name of FAMILY_ORDER) {
      if (!rows.some((r) => r[name]?.includes(action))) continue;
      const family: RowFamily = ROW_FAMILIES[name];
      const slot = `${family.index ?? ''}|${action}`;
      const entry = byAction.get(slot) ?? { action, index: family.index, partitions: [] };
      entry.partitions.push(...family.partitions.filter((p) => !entry.partitions.includes(p)));
      byAction.set(slot, entry);
    }
  }
  const grants: LeadingKeyGrant[] = [];
  for (const { action, index, partitions } of byAction.values()) {
    const same = grants.find((g) => g.index === index && g.partitions.join('\n') === partitions.join('\n'));
    if (same) (same.actions as string[]).push(`dynamodb:${action}`);
    else grants.push({ actions: [`dynamodb:${action}`], partitions, ...(index ? { index } : {}) });
  }
  return grants;
}

/** Partition-key patterns (`dynamodb:LeadingKeys`) of the ApiKey and event rows. */
export const API_KEY_PARTITIONS: readonly string[] = ROW_FAMILIES.apiKey.partitions;
export const EVENT_PARTITIONS: readonly string[] = ROW_FAMILIES.event.partitions;

/** The table statements of an `auth-and-meter` route. */
export const AUTH_AND_METER_GRANTS: readonly LeadingKeyGrant[] = leadingKeyGrants(KEY_AUTH_ROWS);

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
  /** Set on the AI routes of a stage with a model (StageConfig.ai.model). */
  bedrockModelId: AI_MODEL_ENVIRONMENT.bedrockModelId,
  /** The stage's connector credentials secret (functions/platform/aws-ports.ts createSecretsManagerConnectorConfig). */
  connectorSecretArn: 'FC_CONNECTOR_SECRET_ARN',
} as const;

/** Read the stage's connector credentials secret. */
export const CONNECTOR_SECRET_ACTIONS: readonly string[] = ['secretsmanager:GetSecretValue'];

/** What the Converse API needs on the model: IAM authorises Converse as bedrock:InvokeModel. */
export const MODEL_ACTIONS: readonly string[] = ['bedrock:InvokeModel'];

/**
 * The ARN the AI functions may invoke: the stage's foundation model in the stack's region (AWS
 * writes foundation-model ARNs without an account).
 */
export function foundationModelArn(partition: string, region: string, modelId: string): string {
  return `arn:${partition}:bedrock:${region}::foundation-model/${modelId}`;
}

/**
 * A capability's routes, plus the MCP server (`mcp.call`) when one of them is an MCP tool's route:
 * the server runs its tools' handler code, so it reaches what they reach.
 */
function withMcpServer(routes: readonly RouteId[]): readonly RouteId[] {
  return MCP_TOOLS.some((tool) => routes.includes(tool.route)) ? [...routes, 'mcp.call'] : routes;
}

/**
 * The routes whose code reaches an item's connector or creates an item through one: Link's consent
 * steps, the sandbox's item creation, the item routes that ask the institution, the statement upload,
 * removal (which revokes the consent) and GraphQL (whose resolvers run those item routes' code).
 */
const CONNECTOR_ROUTES: readonly RouteId[] = [
  'link.connect',
  'link.mfa',
  'link.consent',
  'link.oauth.complete',
  'link.upload',
  'sandbox.public_token.create',
  'accounts.balance.get',
  'identity.get',
  'liabilities.get',
  'investments.holdings.get',
  'investments.transactions.get',
  'assets.get',
  'items.statements.upload',
  'items.remove',
  'graphql.query',
];

/**
 * Background capabilities a route's code may use, each listing exactly the routes whose code reaches
 * it. test/cdk/route-capabilities.test.ts scans every handler's code (test/cdk/capability-scan.ts:
 * the port and key-provider calls reachable from the handler) and fails when a route that reaches a
 * capability is missing here, or a route listed here never reaches it. The environment variable and
 * the IAM grant of a capability both come from this one table (routeAccessFor), so they cannot drift.
 */
export const ROUTE_CAPABILITIES = {
  /**
   * `RefreshQueue.enqueue`: functions/app/lifecycle.ts requestRefresh, and Link (functions/app/link.ts),
   * which queues a new item's history load, and in update mode leaves the sync to the refresh worker
   * while a refresh holds the item.
   */
  refreshQueue: withMcpServer(['items.refresh', 'link.connect', 'link.mfa', 'link.consent', 'link.oauth.complete', 'link.upload', 'sandbox.public_token.create']),
  /** `DeliveryStarter.start`: replayEvent starts a WebhookDelivery execution per new delivery. */
  deliveryWorkflow: withMcpServer(['webhooks.events.replay']),
  /**
   * `KeyProvider.generateDataKey` and `decryptDataKey`: the routes that create, rotate or show the
   * webhook signing secret (ensureSecret, rotateSecret), including link.token.create with a webhook.
   */
  /**
   * `KeyProvider.generateDataKey` and `decryptDataKey`, purpose `provider_secrets`: every route that
   * reaches an item's connector opens the item's provider secrets (functions/app/item-source.ts
   * withConnector), and Link seals new ones.
   */
  secretsKey: withMcpServer(['link.token.create', 'webhooks.endpoints.create', 'webhooks.secret.rotate', ...CONNECTOR_ROUTES, 'link.oauth.start']),
  /**
   * `ConnectorConfigSource.load`: the routes that reach a live connector (Link, and the item routes
   * that ask the item's connector: balances, identity, liabilities, holdings, assets, uploads, removal).
   */
  connectorConfig: withMcpServer([...CONNECTOR_ROUTES, 'link.method', 'link.oauth.start']),
  /**
   * `ModelPort.refine`: the AI routes (functions/app/ai.ts). On a stage with a model
   * (StageConfig.ai.model) they get its id and `bedrock:InvokeModel` on it, and carry the Bedrock SDK.
   */
  model: withMcpServer([
    'ai.categorize',
    'ai.subscriptions',
    'ai.cashflow',
    'ai.merchant',
    'ai.health-score',
    'ai.financial-summary',
    'ai.fraud-risk',
    'ai.purchase-analysis',
    'ai.weekly-report',
  ]),
} as const satisfies Record<string, readonly string[]>;
export type RouteCapability = keyof typeof ROUTE_CAPABILITIES;

/**
 * The KMS encryption context the code sends with every webhook-secret data key
 * (functions/app/webhooks.ts secretContext): grants on the secrets key require exactly these keys and
 * this purpose, so a role that may open webhook secrets cannot unwrap anything else sealed under the
 * same key.
 */
export const WEBHOOK_SECRET_CONTEXT_KEYS: readonly string[] = ['application_id', 'environment', 'purpose'];
export const WEBHOOK_SECRET_PURPOSE = 'webhook_secret';
/**
 * Provider tokens sealed per item (functions/app/provider-secrets.ts): the context adds `item_id`
 * (a Link session's pending OAuth values use the session id there).
 */
export const PROVIDER_SECRET_CONTEXT_KEYS: readonly string[] = ['application_id', 'environment', 'item_id', 'purpose'];
export const PROVIDER_SECRET_PURPOSE = 'provider_secrets';
/** Every key either context may carry: a grant's context keys must all be among them. */
export const SECRETS_CONTEXT_KEYS: readonly string[] = [...new Set([...WEBHOOK_SECRET_CONTEXT_KEYS, ...PROVIDER_SECRET_CONTEXT_KEYS])];
export const SECRETS_KEY_CONDITIONS = {
  StringEquals: { 'kms:EncryptionContext:purpose': [WEBHOOK_SECRET_PURPOSE, PROVIDER_SECRET_PURPOSE] },
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
  /** `FC_CONNECTOR_SECRET_ARN` + CONNECTOR_SECRET_ACTIONS on the stage's connector credentials secret. */
  connectorConfig: boolean;
  /**
   * Calls the AI model: on a stage with one, `FC_AI_BEDROCK_MODEL_ID` + MODEL_ACTIONS on that model's
   * ARN, and the Bedrock SDK in the bundle (lib/api-route-stack.ts decides with the stage's config).
   */
  model: boolean;
}

type RouteFacts = Pick<Route, 'id' | 'auth' | 'dataAccess'> & Partial<Pick<Route, 'item'>>;

export function tableAccessFor(route: RouteFacts): TableAccess {
  const declared = ROUTE_ROWS[route.id as RouteId];
  if (route.dataAccess) {
    if (!declared) throw new Error(`${route.id}: a route with dataAccess needs its rows in ROUTE_ROWS (lib/api-grants.ts)`);
    return 'wholeTable' in declared ? 'whole-table' : 'partitions';
  }
  if (declared) throw new Error(`${route.id}: only routes with dataAccess have rows in ROUTE_ROWS (lib/api-grants.ts)`);
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
 * The table statements of a route with `auth-and-meter` or `partitions` access: its own rows
 * (ROUTE_ROWS), the key's rows when it authenticates a key, the access token's and item's when it
 * names an item. Empty for the other kinds of access.
 */
export function tableGrantsFor(route: RouteFacts): LeadingKeyGrant[] {
  const access = tableAccessFor(route);
  if (access === 'none' || access === 'whole-table') return [];
  const own = access === 'partitions' ? (ROUTE_ROWS[route.id as RouteId] as readonly RowAccess[]) : [];
  return leadingKeyGrants(route.auth === 'key' ? KEY_AUTH_ROWS : {}, route.item ? ACCESS_TOKEN_ROWS : {}, ...own);
}

/** Why a route has the whole table, or undefined. */
export function wholeTableReason(routeId: string): string | undefined {
  const declared = ROUTE_ROWS[routeId as RouteId];
  return declared && 'wholeTable' in declared ? declared.wholeTable : undefined;
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
  if ((refreshQueue || deliveryWorkflow || secretsKey) && (table === 'none' || table === 'auth-and-meter')) {
    throw new Error(`${route.id}: enqueues refreshes, starts deliveries or opens webhook secrets, so it needs dataAccess: true`);
  }
  return { table, eventsQueue: table !== 'none', refreshQueue, secretsKey, deliveryWorkflow, model: uses('model'), connectorConfig: uses('connectorConfig') };
}
