// Single-table key schema. CDK (lib/data-construct.ts) and the local engine (create-table) both
// build the table from TABLE below; every key string is built by a function in this file.
//
// | entity        | pk                  | sk       | gsi1pk              | gsi1sk            | access pattern                              |
// |---------------|---------------------|----------|---------------------|-------------------|---------------------------------------------|
// | Application   | APP#<app_id>        | APP      |                     |                   | application by id (name, plan)              |
// | ApiKey        | KEY#<sha256(key)>   | KEY      | APPKEYS#<app_id>    | <env>#<key_id>    | authenticate + meter a request in one write; |
// |               |                     |          |                     |                   | list an application's keys per environment  |
// | MeteringShard | KEY#<sha256(key)>#S<n> | SHARD |                     |                   | shard n (1..N-1) of a key's token bucket and |
// |               |                     |          |                     |                   | quota allotments (shard 0 is the ApiKey row) |
// | ActiveKey     | KEY#ACTIVE#<app>#<env> | ACTIVE |                     |                   | the environment's one active key and its    |
// |               |                     |          |                     |                   | activation count (racing creates chain)     |
// | LinkToken     | LINK#<sha256(tok)>  | LINK     |                     |                   | open a Link session; its state (TTL 30 min) |
// | PublicToken   | PUB#<sha256(tok)>   | PUB      |                     |                   | spend once at exchange (TTL 30 min)         |
// | AccessToken   | TOKEN#<sha256(tok)> | TOKEN    |                     |                   | access_token -> item (hash only)            |
// | Item          | ITEM#<item_id>      | ITEM     |                     |                   | item by id (not indexed once committed: its |
// |               |                     |          |                     |                   | frequent updates then cost no index write)  |
// |  (connecting) |                     |          | CONNECTING          | <deadline>#<item> | Link connections not yet committed (reaper) |
// | ItemListing   | ITEM#<item_id>      | LISTED   | APPITEMS#<app>#<env>| <created>#<item>  | items of an application (written once)      |
// | Account       | ITEM#<item_id>      | ACCT#<account_id>   |          |                   | accounts of an item (one Query)             |
// | Product       | ITEM#<item_id>      | PRODUCT#<name>#<part:3> |      |                   | a derived product (recurring, income) and   |
// |               |                     |          |                     |                   | the inputs' version it was computed from (TTL) |
// | ProductServed | ITEM#<item_id>      | PRODUCT#<name>#SERVED |        |                   | the version last served to a reader, and    |
// |               |                     |          |                     |                   | when (TTL)                                  |
// | RefreshDue    | ITEM#<item_id>      | REFRESHDUE | DUE#<shard 0-15>  | <due ms:15>#<item> | one per healthy item: the scheduled refresh |
// |               |                     |          |                     |                   | sweep Queries each shard for due entries    |
// | LinkCalls     | LINKCALLS#<scope>#<sha256> | W#<window start> |   |                   | fixed-window counter of Link page API calls |
// |               |                     |          |                     |                   | per link token or client address (TTL)      |
// | FeedEntry     | FEED#<item_id>      | <seq:12>#<txn_id>   |          |                   | transactions change feed: versions in       |
// |               |                     |          |                     |                   | sequence order (sync = one Query from pos)  |
// | FeedByDate    | FEED#<item_id>      | D#<99999999-yyyymmdd>#<txn_id>#<seq:12> |  |         | the current transactions, newest date first |
// |               |                     |          |                     |                   | then transaction_id (transactions/get = one |
// |               |                     |          |                     |                   | Query); versioned by seq, readers filter    |
// | FeedMonth     | FEED#<item_id>      | M#<yyyy-mm> |                  |                   | per day: rows per account and a digest      |
// | FeedStats     | FEED#<item_id>      | STATS    |                     |                   | per month: first/last day, rows per account |
// | FeedDigests   | FEED#<item_id>      | DIGEST   |                     |                   | per month digests; dead date rows to delete |
// | FeedDirectory | FEED#<item_id>      | X#<sha256(txn_id):2 hex> |     |                   | txn_id -> current date and seq (256 buckets) |
//
// | WebhookEndpoint | APP#<app_id>      | WH#<env>#<endpoint_id> |         |                   | endpoints of an application and environment |
// | WebhookUrl    | APP#<app_id>        | WHURL#<env>#<sha256(url)> |      |                   | one endpoint per normalized URL (conditional |
// |               |                     |          |                     |                   | put, in the endpoint's transaction)         |
// | WebhookCount  | APP#<app_id>        | WHCOUNT#<env> |                |                   | endpoints of the environment; the cap is a  |
// |               |                     |          |                     |                   | condition on it, in the endpoint's transaction |
// | WebhookSecret | APP#<app_id>        | WHSECRET#<env> |                 |                   | the environment's signing secrets (sealed)  |
// | Event         | EVT#<event_id>      | EVT      | OUTBOX#<shard 0-15> | <created>#<event> | event by id; the outbox sweep (gsi1 entry   |
// |               |                     |          |  (unpublished)      |                   | only while unpublished)                     |
// | Delivery      | EVT#<event_id>      | DLV#<endpoint_id>#<n> | DLVS#<app>#<env> | <created>#<id> | deliveries of an event; of an app and env   |
//
// Local runtime only (functions/platform/local/durable-store.ts): what SQS and Step Functions keep
// durable on AWS, so that background work survives a restart of the local server.
// | LocalExecution | LOCALEXEC#<delivery_id> | LOCALEXEC | LOCALEXECS      | <delivery_id>     | a WebhookDelivery execution in flight:      |
// |               |                     |          |                     |                   | input, next attempt and when; resumed on start |
// | LocalRefreshJob | LOCALREFRESH#<item_id> | <queued:15>#<job_id> | LOCALREFRESHES | <item_id>#<sk> | an accepted refresh not yet done; resumed |
// |               |                     |          |                     |                   | on start, in order per item                 |
//
// Console (see docs/console.md): User USER#<user_id>/USER; UserEmail USEREMAIL#<sha256(email)>/USEREMAIL;
// UserIdentity USERID#<provider>#<sub>/USERID; Session SESSION#<sha256(token)>/SESSION (TTL), with its
// call counter SESSION#<sha256(token)>/W#<start> (TTL) and denial markers SESSION#<sha256(token)>/DENIED#<start>#<org>#<action> (TTL);
// SignInWindow SIGNIN#<scope>#<sha256>/W#<start> (TTL); SignInState SIGNIN#state#<sha256(state)>/STATE
// (TTL); Organization ORG#<org>/ORG; Membership ORG#<org>/MEMBER#<user> (gsi1 USERORGS#<user>/<org>); OwnerCount ORG#<org>/OWNERS; Invitation
// INVITE#<sha256(token)>/INVITE (gsi1 ORGINVITES#<org>/<created>#<id>, TTL); Application rows gain
// gsi1 ORGAPPS#<org>/<created>#<app>; AuditEntry AUDIT#<org>/<at>#<request_id> (TTL); RequestLog
// REQLOG#<app>#<env>#<day>#<shard 0-3>/<at>#<request_id> (TTL) with REQID#<request_id>/REQID (TTL);
// UsageDay USAGEDAY#<app>#<env>/<day>; UsageNotice USAGENOTICE#<app>#<env>/<yyyy-mm>#<quota>#<percent> (TTL).
//
// Plaid webhook keys (functions/data/plaid-keys-repo.ts): PlaidWebhookKey APP#<app>/PLAIDKEY#<env>#<kid>
// (one ES256 key: public JWK, sealed private key, when it was created and retired);
// PlaidWebhookKeyCurrent APP#<app>/PLAIDKEYCURRENT#<env> (a copy of the key that signs now).
//
// Every row that belongs to an application carries application_id and environment.
// The ApiKey row also carries the key's token bucket (GCRA `tat`/`gate`) and its monthly usage
// counters (`used_api_YYYYMM`, `used_ai_YYYYMM`), so auth, rate limit and metering are one
// conditional UpdateItem (see functions/data/api-keys-repo.ts). A key whose plan bursts past one
// partition's share has more metering shards: MeteringShard rows, each in its own partition, with
// a copy of the key's status and plan and a slice of its bucket; on those, the ApiKey row's counter
// is the month's committed count and each shard's `allot_<kind>_YYYYMM` what it was lent of it.
//
// A new entity adds its row to the table above and its key builders to `keys` below, never elsewhere.

import type { Environment } from '../contracts/schemas';
import { refreshDueShard, refreshDueSortKey, refreshDueUpperBound } from '../core/refresh-schedule';
import { shardOf } from '../core/shards';

/**
 * Partitions of the outbox's index entries. Every event is written to the index and removed when
 * published (two index writes); one enterprise key may emit 1,000 events a second (3,000 in a burst)
 * through sandbox/fire_webhook alone, beyond one partition's 1,000 write units a second.
 */
export const OUTBOX_SHARDS = 16;

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
  /**
   * Which key of an application environment is the active one, and the activation count that made it
   * so (functions/data/api-keys-repo.ts issueKey). In the keys' own family (`KEY#`, never a hex hash).
   */
  activeKeyOf: (applicationId: string, environment: Environment) => ({ pk: `KEY#ACTIVE#${applicationId}#${environment}`, sk: 'ACTIVE' }),
  apiKeyByApplication: (applicationId: string, environment: Environment, keyId: string) => ({
    gsi1pk: `APPKEYS#${applicationId}`,
    gsi1sk: `${environment}#${keyId}`,
  }),
  apiKeysOfApplicationPrefix: (applicationId: string, environment?: Environment) => ({
    gsi1pk: `APPKEYS#${applicationId}`,
    gsi1skPrefix: environment ? `${environment}#` : '',
  }),
  // Metering shards (functions/data/api-keys-repo.ts): shard 0 is the ApiKey row itself; the others
  // are in partitions of their own under the `KEY#` prefix (so `KEY#*` grants cover them), and carry
  // no gsi1 attributes (the key listing shows key rows only).
  meteringShard: (keyHash: string, shard: number): { pk: string; sk: string } =>
    shard === 0 ? keys.apiKey(keyHash) : { pk: `KEY#${keyHash}#S${shard}`, sk: 'SHARD' },
  linkToken: (tokenHash: string) => ({ pk: `LINK#${tokenHash}`, sk: 'LINK' }),
  publicToken: (tokenHash: string) => ({ pk: `PUB#${tokenHash}`, sk: 'PUB' }),
  accessToken: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  item: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'ITEM' }),
  itemByApplication: (applicationId: string, environment: Environment, createdAt: string, itemId: string) => ({
    gsi1pk: `APPITEMS#${applicationId}#${environment}`,
    gsi1sk: `${createdAt}#${itemId}`,
  }),
  /**
   * The small row listing a committed item under its application environment (keys.itemsOfApplication):
   * the index entry lives here, not on the item row, so that the item's updates (a refresh's lease,
   * counters, sync times) are not each an index write too. Items committed before it carry the same
   * gsi1 keys on their item row; both count.
   */
  itemListing: (applicationId: string, environment: Environment, createdAt: string, itemId: string) => ({
    pk: `ITEM#${itemId}`,
    sk: 'LISTED',
    ...keys.itemByApplication(applicationId, environment, createdAt, itemId),
  }),
  /** GSI entry of an item whose Link connection is not committed yet; the reaper finds expired ones. */
  connectingItem: (deadline: number, itemId: string) => ({ gsi1pk: 'CONNECTING', gsi1sk: `${String(deadline).padStart(15, '0')}#${itemId}` }),
  connectingBefore: (deadline: number) => ({ gsi1pk: 'CONNECTING', gsi1skBefore: String(deadline).padStart(15, '0') }),
  /**
   * A removed item whose rows are still to delete (functions/data/items-repo.ts removeItem): the row
   * in its partition, listed by the deadline past which the scheduled reaper deletes them, should
   * the queued purge not have.
   */
  itemPurge: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'PURGE' }),
  purgingItem: (deadline: number, itemId: string) => ({ gsi1pk: 'PURGING', gsi1sk: `${String(deadline).padStart(15, '0')}#${itemId}` }),
  purgingBefore: (deadline: number) => ({ gsi1pk: 'PURGING', gsi1skBefore: String(deadline).padStart(15, '0') }),
  linkCallWindow: (scope: 'token' | 'address', idHash: string, windowStart: number) => ({ pk: `LINKCALLS#${scope}#${idHash}`, sk: `W#${windowStart}` }),
  account: (itemId: string, accountId: string) => ({ pk: `ITEM#${itemId}`, sk: `ACCT#${accountId}` }),
  accountsOfItem: (itemId: string) => ({ pk: `ITEM#${itemId}`, skPrefix: 'ACCT#' }),
  // Derived products stored per item (functions/data/products-repo.ts): in the item's partition, so
  // removing the item removes them.
  productPart: (itemId: string, product: string, part: number) => ({ pk: `ITEM#${itemId}`, sk: `PRODUCT#${product}#${String(part).padStart(3, '0')}` }),
  productParts: (itemId: string, product: string) => ({ pk: `ITEM#${itemId}`, skPrefix: `PRODUCT#${product}#` }),
  /** The version of a product last served to a reader (functions/data/products-repo.ts): within the parts' prefix, read with them. */
  productServed: (itemId: string, product: string) => ({ pk: `ITEM#${itemId}`, sk: `PRODUCT#${product}#SERVED` }),
  // Statement import (functions/data/imports-repo.ts): the holdings and investment transactions the
  // item's statement files reported, in the item's partition so removing the item removes them.
  importedInvestments: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'IMPORT#INVESTMENTS' }),
  /** What the item's imports must remember: corrections, and the date of each account's balance. */
  importState: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'IMPORT#STATE' }),
  /** Held while one file is imported into the item, so two files never interleave. */
  importLock: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'IMPORT#LOCK' }),
  // Refresh-due index (scheduled refresh; functions/core/refresh-schedule.ts, functions/data/items-repo.ts):
  // the row lives in the item's partition, so every write to it is in a partition the item's writers
  // already touch and removing the item removes it; its gsi1 entry lists it under its shard by due time.
  refreshDue: (itemId: string) => ({ pk: `ITEM#${itemId}`, sk: 'REFRESHDUE' }),
  refreshDueEntry: (itemId: string, dueAt: number) => ({ gsi1pk: `DUE#${refreshDueShard(itemId)}`, gsi1sk: refreshDueSortKey(dueAt, itemId) }),
  /** Entries of one shard due at or before `now`: `gsi1sk < gsi1skBefore`. */
  refreshDueBefore: (shard: number, now: number) => ({ gsi1pk: `DUE#${shard}`, gsi1skBefore: refreshDueUpperBound(now) }),
  /**
   * Every partition of the outbox's gsi1 entries (keys.outbox spreads events over OUTBOX_SHARDS), and
   * the unsharded `OUTBOX` that events written before the sharding may still sit in: the sweep reads all.
   */
  outboxPartitions: () => [...Array.from({ length: OUTBOX_SHARDS }, (_, shard) => `OUTBOX#${shard}`), 'OUTBOX'],
  /** Item-owned partitions deleted with the item. */
  itemPartitions: (itemId: string) => [`ITEM#${itemId}`, `FEED#${itemId}`],
  feedEntry: (itemId: string, sk: string) => ({ pk: `FEED#${itemId}`, sk }),
  feed: (itemId: string) => ({ pk: `FEED#${itemId}` }),
  // Transactions feed: the date-ordered view, its counts and digests, and the id directory
  // (functions/data/feed-repo.ts). All in the feed's partition, so removing the item removes them.
  /** One version of a current transaction in the date-ordered view: ascending keys run newest date first. */
  feedByDate: (itemId: string, date: string, txnId: string, seq: number) => ({
    pk: `FEED#${itemId}`,
    sk: `D#${invertedDate(date)}#${txnId}#${String(seq).padStart(12, '0')}`,
  }),
  /** Sort-key bounds of the date-ordered view for dates in [from, to] (YYYY-MM-DD, inclusive). */
  feedByDateRange: (itemId: string, from: string, to: string) => ({ pk: `FEED#${itemId}`, skFrom: `D#${invertedDate(to)}#`, skTo: `D#${invertedDate(from)}#\uffff` }),
  feedMonth: (itemId: string, month: string) => ({ pk: `FEED#${itemId}`, sk: `M#${month}` }),
  feedStats: (itemId: string) => ({ pk: `FEED#${itemId}`, sk: 'STATS' }),
  feedDigests: (itemId: string) => ({ pk: `FEED#${itemId}`, sk: 'DIGEST' }),
  /** `bucket`: two hex digits of the transaction id's SHA-256. */
  feedDirectory: (itemId: string, bucket: string) => ({ pk: `FEED#${itemId}`, sk: `X#${bucket}` }),
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
  outbox: (createdAt: string, eventId: string) => ({ gsi1pk: `OUTBOX#${shardOf(eventId, OUTBOX_SHARDS)}`, gsi1sk: `${createdAt}#${eventId}` }),
  delivery: (eventId: string, endpointId: string, replay: number) => ({ pk: `EVT#${eventId}`, sk: `DLV#${endpointId}#${replay}` }),
  deliveriesOfEvent: (eventId: string) => ({ pk: `EVT#${eventId}`, skPrefix: 'DLV#' }),
  deliveryByApplication: (applicationId: string, environment: Environment, createdAt: string, deliveryId: string) => ({
    gsi1pk: `DLVS#${applicationId}#${environment}`,
    gsi1sk: `${createdAt}#${deliveryId}`,
  }),
  deliveriesOfApplication: (applicationId: string, environment: Environment) => ({ gsi1pk: `DLVS#${applicationId}#${environment}` }),
  // Webhook dispatch reads (functions/data/webhooks-repo.ts): one Query each, no new index.
  /** An event's partition: the event row and every delivery of it. */
  eventPartition: (eventId: string) => ({ pk: `EVT#${eventId}` }),
  /**
   * A sort-key range of the application's partition holding every endpoint of the environment and
   * its secret row (`WH#<env>#...` up to `WHSECRET#<env>`); it also spans a few rows of other kinds
   * (endpoint counts, the other environment's endpoints), which the reader drops.
   */
  webhookTargetsRange: (applicationId: string, environment: Environment) => ({
    pk: `APP#${applicationId}`,
    skFrom: `WH#${environment}#`,
    skTo: `WHSECRET#${environment}`,
  }),
  localExecution: (deliveryId: string) => ({ pk: `LOCALEXEC#${deliveryId}`, sk: 'LOCALEXEC', gsi1pk: 'LOCALEXECS', gsi1sk: deliveryId }),
  localExecutions: () => ({ gsi1pk: 'LOCALEXECS' }),
  /** `queuedAt` (ms) orders an item's jobs; zero-padded so that string order is time order. */
  localRefreshJob: (itemId: string, queuedAt: number, jobId: string) => {
    const sk = `${String(queuedAt).padStart(15, '0')}#${jobId}`;
    return { pk: `LOCALREFRESH#${itemId}`, sk, gsi1pk: 'LOCALREFRESHES', gsi1sk: `${itemId}#${sk}` };
  },
  localRefreshJobs: () => ({ gsi1pk: 'LOCALREFRESHES' }),
  // ---------- Console (functions/data/console-repo.ts, console-sessions-repo.ts, request-log-repo.ts) ----------
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** One row per e-mail address (lower-cased): sign-in by e-mail, and no two users with one address. */
  userEmail: (emailHash: string) => ({ pk: `USEREMAIL#${emailHash}`, sk: 'USEREMAIL' }),
  /** A Cognito identity (`sub`) bound to a user. */
  userIdentity: (provider: string, subject: string) => ({ pk: `USERID#${provider}#${subject}`, sk: 'USERID' }),
  consoleSession: (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  // Console abuse limits (functions/app/console/session.ts, authorize.ts): rows of a session's own
  // partition, each expiring on its own (TTL).
  /** Fixed-window counter of a session's console calls. */
  consoleSessionWindow: (tokenHash: string, windowStart: number) => ({ pk: `SESSION#${tokenHash}`, sk: `W#${windowStart}` }),
  /** Which audit row stands for a session's denials of one action in one organisation in one minute. */
  consoleDeniedWindow: (tokenHash: string, organizationId: string, action: string, windowStart: number) => ({
    pk: `SESSION#${tokenHash}`,
    sk: `DENIED#${windowStart}#${organizationId}#${action}`,
  }),
  /** Fixed-window counter of sign-in attempts per e-mail or client address (TTL). */
  signInWindow: (scope: 'email' | 'address' | 'email-address', idHash: string, windowStart: number) => ({ pk: `SIGNIN#${scope}#${idHash}`, sk: `W#${windowStart}` }),
  /** A Cognito sign-in under way: its PKCE verifier, kept until the callback (TTL; under SIGNIN# like the counters). */
  signInState: (stateHash: string) => ({ pk: `SIGNIN#state#${stateHash}`, sk: 'STATE' }),
  organization: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  /** A member of an organisation; its gsi1 entry lists the user's organisations. */
  membership: (orgId: string, userId: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${userId}`, gsi1pk: `USERORGS#${userId}`, gsi1sk: orgId }),
  membersOf: (orgId: string) => ({ pk: `ORG#${orgId}`, skPrefix: 'MEMBER#' }),
  organizationsOfUser: (userId: string) => ({ gsi1pk: `USERORGS#${userId}` }),
  /** The owners of an organisation, counted: removing or demoting the last one is a failed condition. */
  ownerCount: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'OWNERS' }),
  invitation: (tokenHash: string) => ({ pk: `INVITE#${tokenHash}`, sk: 'INVITE' }),
  /** gsi1 entry of an invitation: the organisation's pending invitations. */
  invitationOfOrganization: (orgId: string, createdAt: string, invitationId: string) => ({ gsi1pk: `ORGINVITES#${orgId}`, gsi1sk: `${createdAt}#${invitationId}` }),
  invitationsOf: (orgId: string) => ({ gsi1pk: `ORGINVITES#${orgId}` }),
  /** gsi1 entry of an Application row: the organisation's applications. */
  applicationOfOrganization: (orgId: string, createdAt: string, applicationId: string) => ({ gsi1pk: `ORGAPPS#${orgId}`, gsi1sk: `${createdAt}#${applicationId}` }),
  applicationsOf: (orgId: string) => ({ gsi1pk: `ORGAPPS#${orgId}` }),
  /** One console action (sort key: time, then request id), in the organisation's audit partition. */
  auditEntry: (orgId: string, at: string, requestId: string) => ({ pk: `AUDIT#${orgId}`, sk: `${at}#${requestId}` }),
  auditOf: (orgId: string) => ({ pk: `AUDIT#${orgId}` }),
  /** One API request; `shard` 0-3 spreads a busy day over four partitions. */
  requestLogEntry: (applicationId: string, environment: Environment, day: string, shard: number, at: string, requestId: string) => ({
    pk: `REQLOG#${applicationId}#${environment}#${day}#${shard}`,
    sk: `${at}#${requestId}`,
  }),
  requestLogPartition: (applicationId: string, environment: Environment, day: string, shard: number) => ({ pk: `REQLOG#${applicationId}#${environment}#${day}#${shard}` }),
  /** Where a request id's entry is (a request id from an error envelope finds it in two reads). */
  requestIdLookup: (requestId: string) => ({ pk: `REQID#${requestId}`, sk: 'REQID' }),
  /** A finished day's request count, computed once from the request log. */
  usageDay: (applicationId: string, environment: Environment, day: string) => ({ pk: `USAGEDAY#${applicationId}#${environment}`, sk: day }),
  usageDaysOf: (applicationId: string, environment: Environment) => ({ pk: `USAGEDAY#${applicationId}#${environment}` }),
  /**
   * A usage.limit_approaching event, indexed by month (events themselves are found only by id): at
   * most one per quota and threshold a month, so the console lists a month's notices in one Query.
   */
  usageNotice: (applicationId: string, environment: Environment, month: string, quota: 'api' | 'ai', percent: number) => ({
    pk: `USAGENOTICE#${applicationId}#${environment}`,
    sk: `${month}#${quota}#${percent}`,
  }),
  usageNoticesOf: (applicationId: string, environment: Environment, month: string) => ({ pk: `USAGENOTICE#${applicationId}#${environment}`, skPrefix: `${month}#` }),
  /** The gsi1 partition listing an application's items of one environment (keys.itemByApplication): the console counts it. */
  itemsOfApplication: (applicationId: string, environment: Environment) => ({ gsi1pk: keys.itemByApplication(applicationId, environment, '', '').gsi1pk }),
  /** A row that never exists: the health check reads it, one cheap GetItem proving storage answers. */
  storageProbe: () => ({ pk: 'HEALTH', sk: 'PROBE' }),
  // ---------- Plaid webhook keys (functions/data/plaid-keys-repo.ts) ----------
  /** One signing key of an application environment's Plaid-shaped webhooks, by its key id. */
  plaidWebhookKey: (applicationId: string, environment: Environment, kid: string) => ({ pk: `APP#${applicationId}`, sk: `PLAIDKEY#${environment}#${kid}` }),
  plaidWebhookKeysOf: (applicationId: string, environment: Environment) => ({ pk: `APP#${applicationId}`, skPrefix: `PLAIDKEY#${environment}#` }),
  /** The key that signs now (a copy of its PlaidWebhookKey row): one GetItem per signature. */
  plaidWebhookKeyCurrent: (applicationId: string, environment: Environment) => ({ pk: `APP#${applicationId}`, sk: `PLAIDKEYCURRENT#${environment}` }),
};

/** YYYY-MM-DD as 8 digits that sort newest first (the date-ordered view of the transactions feed). */
function invertedDate(date: string): string {
  return String(99_999_999 - Number(date.replaceAll('-', ''))).padStart(8, '0');
}

/** Monthly usage attribute on the ApiKey row, e.g. used_api_202611. UTC month. */
export function usageAttribute(kind: 'api' | 'ai', at: Date): string {
  const month = `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return `used_${kind}_${month}`;
}

/** Metering shards: the units of the month's quota lent to a MeteringShard row, e.g. allot_api_202611. */
export function allotmentAttribute(kind: 'api' | 'ai', at: Date): string {
  return usageAttribute(kind, at).replace(/^used_/, 'allot_');
}
