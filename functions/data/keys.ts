// Single-table key schema. CDK (lib/data-construct.ts) and the local engine (create-table) both
// build the table from TABLE below; every key string is built by a function in this file.
//
// | entity        | pk                  | sk       | gsi1pk              | gsi1sk            | access pattern                              |
// |---------------|---------------------|----------|---------------------|-------------------|---------------------------------------------|
// | Application   | APP#<app_id>        | APP      |                     |                   | application by id (name, plan)              |
// | ApiKey        | KEY#<sha256(key)>   | KEY      | APPKEYS#<app_id>    | <env>#<key_id>    | authenticate + meter a request in one write; |
// |               |                     |          |                     |                   | list an application's keys per environment  |
// | LinkToken     | LINK#<sha256(tok)>  | LINK     |                     |                   | open a Link session; its state (TTL 30 min) |
// | PublicToken   | PUB#<sha256(tok)>   | PUB      |                     |                   | spend once at exchange (TTL 30 min)         |
// | AccessToken   | TOKEN#<sha256(tok)> | TOKEN    |                     |                   | access_token -> item (hash only)            |
// | Item          | ITEM#<item_id>      | ITEM     | APPITEMS#<app>#<env>| <created>#<item>  | item by id; items of an application         |
// |  (connecting) |                     |          | CONNECTING          | <deadline>#<item> | Link connections not yet committed (reaper) |
// | Account       | ITEM#<item_id>      | ACCT#<account_id>   |          |                   | accounts of an item (one Query)             |
// | LinkCalls     | LINKCALLS#<scope>#<sha256> | W#<window start> |   |                   | fixed-window counter of Link page API calls |
// |               |                     |          |                     |                   | per link token or client address (TTL)      |
// | FeedEntry     | FEED#<item_id>      | <seq:12>#<txn_id>   |          |                   | transactions change feed: versions in       |
// |               |                     |          |                     |                   | sequence order (sync = one Query from pos)  |
//
// | WebhookEndpoint | APP#<app_id>      | WH#<env>#<endpoint_id> |         |                   | endpoints of an application and environment |
// | WebhookUrl    | APP#<app_id>        | WHURL#<env>#<sha256(url)> |      |                   | one endpoint per normalized URL (conditional |
// |               |                     |          |                     |                   | put, in the endpoint's transaction)         |
// | WebhookCount  | APP#<app_id>        | WHCOUNT#<env> |                |                   | endpoints of the environment; the cap is a  |
// |               |                     |          |                     |                   | condition on it, in the endpoint's transaction |
// | WebhookSecret | APP#<app_id>        | WHSECRET#<env> |                 |                   | the environment's signing secrets (sealed)  |
// | Event         | EVT#<event_id>      | EVT      | OUTBOX (unpublished)| <created>#<event> | event by id; the outbox sweep               |
// | Delivery      | EVT#<event_id>      | DLV#<endpoint_id>#<n> | DLVS#<app>#<env> | <created>#<id> | deliveries of an event; of an app and env   |
//
// Local runtime only (functions/platform/local/durable-store.ts): what SQS and Step Functions keep
// durable on AWS, so that background work survives a restart of the local server.
// | LocalExecution | LOCALEXEC#<delivery_id> | LOCALEXEC | LOCALEXECS      | <delivery_id>     | a WebhookDelivery execution in flight:      |
// |               |                     |          |                     |                   | input, next attempt and when; resumed on start |
// | LocalRefreshJob | LOCALREFRESH#<item_id> | <queued:15>#<job_id> | LOCALREFRESHES | <item_id>#<sk> | an accepted refresh not yet done; resumed |
// |               |                     |          |                     |                   | on start, in order per item                 |
//
// Every row that belongs to an application carries application_id and environment.
// The ApiKey row also carries the key's token bucket (GCRA `tat`/`gate`) and its monthly usage
// counters (`used_api_YYYYMM`, `used_ai_YYYYMM`), so auth, rate limit and metering are one
// conditional UpdateItem (see functions/data/api-keys-repo.ts).
//
// A new entity adds its row to the table above and its key builders to `keys` below, never elsewhere.

import type { Environment } from '../contracts/schemas';

export const TABLE = {
  /** Logical name; the deployed name comes from CDK, the local name from config. */
  logicalName: 'fincore',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  globalIndexes: [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;


export const keys = {
  application: (applicationId: string) => ({ pk: `APP#${applicationId}`, sk: 'APP' }),
  apiKey: (keyHash: string) => ({ pk: `KEY#${keyHash}`, sk: 'KEY' }),
  apiKeyByApplication: (applicationId: string, environment: Environment, keyId: string) => ({
    gsi1pk: `APPKEYS#${applicationId}`,
    gsi1sk: `${environment}#${keyId}`,
  }),
  apiKeysOfApplicationPrefix: (applicationId: string, environment?: Environment) => ({
    gsi1pk: `APPKEYS#${applicationId}`,
    gsi1skPrefix: environment ? `${environment}#` : '',
  }),
  linkToken: (tokenHash: string) => ({ pk: `LINK#${tokenHash}`, sk: 'LINK' }),
  publicToken: (tokenHash: string) => ({ pk: `PUB#${tokenHash}`, sk: 'PUB' }),
  accessToken: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  item: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'ITEM' }),
  itemByApplication: (applicationId: string, environment: Environment, createdAt: string, itemId: string) => ({
    gsi1pk: `APPITEMS#${applicationId}#${environment}`,
    gsi1sk: `${createdAt}#${itemId}`,
  }),
  /** GSI entry of an item whose Link connection is not committed yet; the reaper finds expired ones. */
  connectingItem: (deadline: number, itemId: string) => ({ gsi1pk: 'CONNECTING', gsi1sk: `${String(deadline).padStart(15, '0')}#${itemId}` }),
  connectingBefore: (deadline: number) => ({ gsi1pk: 'CONNECTING', gsi1skBefore: String(deadline).padStart(15, '0') }),
  linkCallWindow: (scope: 'token' | 'address', idHash: string, windowStart: number) => ({ pk: `LINKCALLS#${scope}#${idHash}`, sk: `W#${windowStart}` }),
  account: (itemId: string, accountId: string) => ({ pk: `ITEM#${itemId}`, sk: `ACCT#${accountId}` }),
  accountsOfItem: (itemId: string) => ({ pk: `ITEM#${itemId}`, skPrefix: 'ACCT#' }),
  /** Item-owned partitions deleted with the item. */
  itemPartitions: (itemId: string) => [`ITEM#${itemId}`, `FEED#${itemId}`],
  feedEntry: (itemId: string, sk: string) => ({ pk: `FEED#${itemId}`, sk }),
  feed: (itemId: string) => ({ pk: `FEED#${itemId}` }),
  webhookEndpoint: (applicationId: string, environment: Environment, endpointId: string) => ({
    pk: `APP#${applicationId}`,
    sk: `WH#${environment}#${endpointId}`,
  }),
  webhookEndpointsOf: (applicationId: string, environment: Environment) => ({ pk: `APP#${applicationId}`, skPrefix: `WH#${environment}#` }),
  /** `urlHash`: SHA-256 of the endpoint's normalized URL. */
  webhookUrl: (applicationId: string, environment: Environment, urlHash: string) => ({ pk: `APP#${applicationId}`, sk: `WHURL#${environment}#${urlHash}` }),
  webhookEndpointCount: (applicationId: string, environment: Environment) => ({ pk: `APP#${applicationId}`, sk: `WHCOUNT#${environment}` }),
  webhookSecret: (applicationId: string, environment: Environment) => ({ pk: `APP#${applicationId}`, sk: `WHSECRET#${environment}` }),
  event: (eventId: string) => ({ pk: `EVT#${eventId}`, sk: 'EVT' }),
  /** GSI entry an event carries until it is published (removed on publish). */
  outbox: (createdAt: string, eventId: string) => ({ gsi1pk: 'OUTBOX', gsi1sk: `${createdAt}#${eventId}` }),
  delivery: (eventId: string, endpointId: string, replay: number) => ({ pk: `EVT#${eventId}`, sk: `DLV#${endpointId}#${replay}` }),
  deliveriesOfEvent: (eventId: string) => ({ pk: `EVT#${eventId}`, skPrefix: 'DLV#' }),
  deliveryByApplication: (applicationId: string, environment: Environment, createdAt: string, deliveryId: string) => ({
    gsi1pk: `DLVS#${applicationId}#${environment}`,
    gsi1sk: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfApplication: (applicationId: string, environment: Environment) => ({ gsi1pk: `DLVS#${applicationId}#${environment}` }),
  localExecution: (deliveryId: string) => ({ pk: `LOCALEXEC#${deliveryId}`, sk: 'LOCALEXEC', gsi1pk: 'LOCALEXECS', gsi1sk: deliveryId }),
  localExecutions: () => ({ gsi1pk: 'LOCALEXECS' }),
  /** `queuedAt` (ms) orders an item's jobs; zero-padded so that string order is time order. */
  localRefreshJob: (itemId: string, queuedAt: number, jobId: string) => {
    const sk = `${String(queuedAt).padStart(15, '0')}#${jobId}`;
    return { pk: `LOCALREFRESH#${itemId}`, sk, gsi1pk: 'LOCALREFRESHES', gsi1sk: `${itemId}#${sk}` };
  },
  localRefreshJobs: () => ({ gsi1pk: 'LOCALREFRESHES' }),
  /** A row that never exists: the health check reads it, one cheap GetItem proving storage answers. */
  storageProbe: () => ({ pk: 'HEALTH', sk: 'PROBE' }),
};

/** Monthly usage attribute on the ApiKey row, e.g. used_api_202611. UTC month. */
export function usageAttribute(kind: 'api' | 'ai', at: Date): string {
  const month = `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return `used_${kind}_${month}`;
}
