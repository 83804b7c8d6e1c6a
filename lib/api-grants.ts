// What each API function may do, decided by its route alone (id, auth mode, `item`, `dataAccess`,
// status) and the per-route row table below. Pure, so the CDK test can compare every role and
// environment in the template with the access its route should get.
import { ENVIRONMENTS, type Environment } from '../functions/contracts/schemas';
import { AI_MODEL_ENVIRONMENT } from '../functions/contracts/stages';
import { MCP_TOOLS } from '../functions/contracts/mcp-tools';
import { PLAID_SURFACE_ROUTES } from '../functions/contracts/plaid-endpoints';
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
  // The request log (every key route writes its entry and the request id's lookup row; the console searches them).
  requestLog: onTable(keys.requestLogPartition(ANY, ANY as Environment, ANY, ANY as unknown as number).pk),
  requestId: onTable(keys.requestIdLookup(ANY).pk),
  /** A month's usage.limit_approaching notices of an application environment (indexed when metering fires one). */
  usageNotice: onTable(keys.usageNoticesOf(ANY, ANY as Environment, ANY).pk),
  // ---------- the console (functions/data/console-repo.ts, console-sessions-repo.ts, request-log-repo.ts) ----------
  user: onTable(keys.user(ANY).pk),
  userEmail: onTable(keys.userEmail(ANY).pk),
  userIdentity: onTable(keys.userIdentity(ANY, ANY).pk),
  consoleSession: onTable(keys.consoleSession(ANY).pk),
  signInWindow: onTable(...(['email', 'address', 'email-address'] as const).map((scope) => keys.signInWindow(scope, ANY, 0).pk)),
  /** A Cognito sign-in under way (its PKCE verifier), from auth/start to auth/callback. */
  signInState: onTable(keys.signInState(ANY).pk),
  /** The organisation row, its members and its owner count. */
  organization: onTable(keys.organization(ANY).pk),
  invitation: onTable(keys.invitation(ANY).pk),
  audit: onTable(keys.auditOf(ANY).pk),
  usageDay: onTable(keys.usageDaysOf(ANY, ANY as Environment).pk),
  /** A user's organisations (their memberships' gsi1 entries). */
  organizationsOfUser: onGsi1(keys.organizationsOfUser(ANY).gsi1pk),
  invitationsOfOrganization: onGsi1(keys.invitationsOf(ANY).gsi1pk),
  applicationsOfOrganization: onGsi1(keys.applicationsOf(ANY).gsi1pk),
  /** An application's keys (both environments: one Query, the environment is in the sort key). */
  keysOfApplication: onGsi1(keys.apiKeysOfApplicationPrefix(ANY).gsi1pk),
  /** An application environment's items (counted for usage; one looked up to refuse deleting an organisation with items). */
  itemsOfApplication: onGsi1(...ENVIRONMENTS.map((environment) => keys.itemsOfApplication(ANY, environment).gsi1pk)),
} satisfies Record<string, RowFamily>;
export type RowFamilyName = keyof typeof ROW_FAMILIES;

/** What a route may do, family by family. */
export type RowAccess = Partial<Record<RowFamilyName, readonly PartitionAction[]>>;

/**
 * Authenticate and meter (every `auth: 'key'` route, functions/platform/middleware.ts): the key's
 * metering write, the usage.limit_approaching event a request may fire and its month's notice row,
 * then the request log entry and its request-id lookup row (one BatchWriteItem once the answer is built).
 */
const KEY_AUTH_ROWS: RowAccess = {
  apiKey: ['UpdateItem'],
  event: ['PutItem', 'UpdateItem'],
  usageNotice: ['PutItem'],
  requestLog: ['BatchWriteItem'],
  requestId: ['BatchWriteItem'],
};
/**
 * The console session behind the cookie (every `auth: 'session'` route, functions/platform/middleware.ts
 * consoleGate): read it, move its idle deadline (at most every 5 minutes), delete it once ended.
 */
const SESSION_AUTH_ROWS: RowAccess = { consoleSession: ['GetItem', 'UpdateItem', 'DeleteItem'] };
/** Resolve `access_token` to its item (every `item: true` route, functions/platform/operation.ts). */
const ACCESS_TOKEN_ROWS: RowAccess = { accessToken: ['GetItem'], item: ['GetItem'] };

/**
 * Writing a Link connection: a new item (connecting, committed or discarded; its history is loaded by
 * the refresh worker) or a repaired one (its sync handed to the worker too).
 */
const LINK_CONNECTION: RowAccess = {
  item: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchWriteItem'],
  feed: ['GetItem', 'Query', 'PutItem', 'BatchWriteItem'],
  publicToken: ['PutItem'],
  event: ['PutItem', 'UpdateItem'],
};
/** A connection whose data comes with it (a statement upload): ingested in the request, so it reads the feed's latest versions too. */
const LINK_CONNECTION_WITH_DATA: RowAccess = { ...LINK_CONNECTION, feed: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'BatchWriteItem'] };
/** The Link page's API: every call is counted per token and client address, then reads its session. */
const LINK_PAGE_CALL: RowAccess = { linkCalls: ['UpdateItem'], linkToken: ['GetItem'] };
/** Registering a webhook endpoint: its rows, the URL and count rows, and the environment's secret (all under `APP#`). */
const ENDPOINT_REGISTRATION: RowAccess = { application: ['GetItem', 'PutItem', 'UpdateItem', 'Query'] };
/** The environment's webhook signing secret, read and created on first use (under `APP#`): what an item's own webhook URL needs. */
const WEBHOOK_SECRET_FIRST_USE: RowAccess = { application: ['GetItem', 'PutItem'] };
/**
 * An application environment's Plaid webhook keys (functions/data/plaid-keys-repo.ts, under `APP#`):
 * the current key or one by id read, the first key and its current copy put in one transaction.
 */
const PLAID_WEBHOOK_KEYS: RowAccess = { application: ['GetItem', 'PutItem'] };
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

// ---------- the console (functions/app/console/*.ts) ----------
/**
 * The one permission check of every organisation action (functions/app/console/authorize.ts): the
 * organisation and the caller's membership in one BatchGetItem, and the audit row (every change, and
 * every refusal, reads included; a repeated refusal counted on the row of the first, through a
 * marker in the session's partition, which SESSION_AUTH_ROWS grants; ids the action created added).
 */
const CONSOLE_AUTHORIZE: RowAccess = { organization: ['BatchGetItem'], audit: ['PutItem', 'UpdateItem'] };
/** The same through an application: its row names the organisation that owns it. */
const CONSOLE_AUTHORIZE_APPLICATION: RowAccess = { ...CONSOLE_AUTHORIZE, application: ['GetItem'] };
/** Revoking the pending invitations a removed or demoted member created that their new role cannot grant. */
const INVITATIONS_OF_A_FORMER_GRANTER: RowAccess = { invitationsOfOrganization: ['Query'], invitation: ['UpdateItem'] };
/** A new console session (a sign-in or sign-up). */
const CONSOLE_SESSION_START: RowAccess = { consoleSession: ['PutItem'] };
/**
 * Joining through an invitation (functions/data/console-repo.ts acceptInvitation): the invitation read
 * and spent, the organisation's existence and its creator's role checked, the membership put and,
 * for the owner role, the owner count raised, in one transaction (the creator's membership read
 * before it); then the organisation and membership read for the answer, and the audit row.
 */
const INVITATION_ACCEPT: RowAccess = { invitation: ['GetItem', 'UpdateItem'], organization: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'], audit: ['PutItem'] };
/** An application's keys (one gsi1 Query), and each key's metering rows (one BatchGetItem per key). */
const KEY_LISTING: RowAccess = { keysOfApplication: ['Query'], apiKey: ['BatchGetItem'] };
/**
 * Stamping a plan on a key's metering rows (issue, replan: one TransactWriteItems of UpdateItems after
 * reading them) and revoking keys (GetItem of the key row, then a transaction of UpdateItems).
 */
const KEY_PROVISIONING: RowAccess = { apiKey: ['GetItem', 'BatchGetItem', 'UpdateItem'], keysOfApplication: ['Query'] };
/** Issuing a key checks, in its transaction, that the application's plan and organisation are still what was read. */
const KEY_ISSUING: RowAccess = { ...KEY_PROVISIONING, application: ['ConditionCheckItem'] };

/**
 * The rows each live route with `dataAccess` touches beyond KEY_AUTH_ROWS, SESSION_AUTH_ROWS and
 * ACCESS_TOKEN_ROWS (which its auth mode and `item` add): one entry per such route, its RowAccess blocks merged by
 * union. Checked both ways by test/cdk/route-capabilities.test.ts against what the route's code
 * references (key builders, DynamoDB commands), and by the deploy rehearsal (test/rehearsal) against
 * every call the bundled function makes. Adding a row family to a route is one line here (a new family is one more line in
 * ROW_FAMILIES). `wholeTable` would keep grantReadWriteData for a route whose partitions are chosen
 * by data (a Scan), with the reason; no route needs it today.
 */
export const ROUTE_ROWS: Partial<Record<RouteId, readonly RowAccess[] | { wholeTable: string }>> = {
  'health.get': [{ storageProbe: ['GetItem'] }],
  'link.token.create': [WEBHOOK_SECRET_FIRST_USE, { item: ['GetItem'], linkToken: ['PutItem'] }],
  /** The item's webhook URL and the event announcing it, in one transaction, then the event published. */
  'item.webhook.update': [WEBHOOK_SECRET_FIRST_USE, { item: ['UpdateItem'], event: ['PutItem', 'UpdateItem'] }],
  'link.token.exchange': [{ publicToken: ['GetItem', 'UpdateItem'], item: ['GetItem', 'UpdateItem'], accessToken: ['PutItem', 'DeleteItem'] }],
  'items.get': [],
  /** An upload: the item's accounts, its imported holdings row, its feed commit (with the lease on the item row) and the event. */
  'items.statements.upload': [{ item: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'BatchWriteItem'], feed: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'BatchWriteItem'], event: ['PutItem', 'UpdateItem'] }, CONNECTOR_FAILURE],
  // The token, schedule, item and listing deleted and the purge row put in one transaction; the rest
  // of the item's rows are the refresh worker's to delete (a queued purge).
  'items.remove': [{ accessToken: ['DeleteItem'], item: ['DeleteItem', 'PutItem'] }],
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
  // Reloaded at the account selection, the page reads the item awaiting it and issues it another public token.
  'link.page': [{ linkToken: ['GetItem'], application: ['GetItem'], item: ['GetItem', 'Query'], publicToken: ['PutItem'] }],
  'link.session': [LINK_PAGE_CALL],
  'link.institutions': [LINK_PAGE_CALL],
  'link.connect': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.mfa': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  // Link's consent methods beyond credentials (functions/app/link.ts).
  // Update mode reads the item whose consent it repairs (its connector).
  'link.method': [LINK_PAGE_CALL, { item: ['GetItem'] }],
  // The application's redirect URI allowlist: the sandbox bank returns only to a listed (or loopback) redirect_uri.
  'link.oauth.start': [LINK_PAGE_CALL, { linkToken: ['UpdateItem'], item: ['GetItem'], application: ['GetItem'] }],
  'link.oauth.complete': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.consent': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.upload': [LINK_PAGE_CALL, LINK_CONNECTION_WITH_DATA, { linkToken: ['UpdateItem'] }],
  // Link's account selection and the sandbox's OAuth redirect (functions/app/link.ts).
  // The choice activates a new item (with its listing row, ITEM#<item>/LISTED, and its refresh-due row) or rotates a
  // repaired one's cursors, with the event announcing it.
  'link.accounts.select': [LINK_PAGE_CALL, { publicToken: ['GetItem', 'UpdateItem'], item: ['GetItem', 'UpdateItem', 'PutItem', 'Query'], event: ['PutItem', 'UpdateItem'] }],
  'link.oauth.resume': [LINK_PAGE_CALL, LINK_CONNECTION, { linkToken: ['UpdateItem'] }],
  'link.sandbox.oauth.authorize': [{ linkToken: ['GetItem'], application: ['GetItem'] }],
  // Records the user's answer on the session's consent.
  'link.sandbox.oauth.decide': [{ linkToken: ['GetItem', 'UpdateItem'], application: ['GetItem'] }],
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

  // ---------- the console: sign-in (auth none), then session routes (SESSION_AUTH_ROWS added) ----------
  // Password sign-in (local identity; refused before any read where Cognito signs in): the attempt
  // counted per address, per e-mail and per both (taken back when it succeeds), the user by e-mail
  // address, the new session.
  'console.auth.login': [{ signInWindow: ['UpdateItem'], userEmail: ['GetItem'], user: ['GetItem'] }, CONSOLE_SESSION_START],
  // Sign-up by invitation (local identity): counted like a sign-in, the invitation and its
  // organisation read, the user and its e-mail row created in one transaction, the session, the joining.
  'console.auth.signup': [
    { signInWindow: ['UpdateItem'], invitation: ['GetItem'], organization: ['GetItem'], user: ['PutItem'], userEmail: ['PutItem'] },
    CONSOLE_SESSION_START,
    INVITATION_ACCEPT,
  ],
  'console.auth.start': [{ signInState: ['PutItem'] }],
  // The sign-in's state taken (deleted), the Cognito identity's user found by `sub`, else by verified
  // e-mail address and bound (a ConditionCheck on the user with the identity's Put), else created with
  // its e-mail and identity rows; then the session.
  'console.auth.callback': [
    { signInState: ['DeleteItem'], userIdentity: ['GetItem', 'PutItem'], userEmail: ['GetItem', 'PutItem'], user: ['GetItem', 'PutItem', 'ConditionCheckItem'] },
    CONSOLE_SESSION_START,
  ],
  'console.auth.logout': [],
  // The user's memberships (gsi1), then their organisations (BatchGetItem).
  'console.session': [{ organizationsOfUser: ['Query'], organization: ['BatchGetItem'] }],
  // The organisation, its first owner's membership and the owner count in one transaction; the audit row.
  'console.orgs.create': [{ organization: ['PutItem'], audit: ['PutItem'] }],
  // Refused while an application has an item (one gsi1 read per environment); else its applications'
  // keys revoked, the applications detached, the invitations and memberships deleted, then the
  // organisation, its owner count and the last membership in one transaction.
  'console.orgs.delete': [
    CONSOLE_AUTHORIZE,
    { applicationsOfOrganization: ['Query'], itemsOfApplication: ['Query'], application: ['UpdateItem'] },
    { apiKey: ['GetItem', 'UpdateItem'], keysOfApplication: ['Query'] },
    { invitationsOfOrganization: ['Query'], invitation: ['DeleteItem'], organization: ['Query', 'DeleteItem'] },
  ],
  'console.members.list': [CONSOLE_AUTHORIZE, { organization: ['Query'], user: ['BatchGetItem'] }],
  // The member read, then the role changed with the owner count in one transaction.
  // Then the member's pending invitations their new role cannot grant revoked (one gsi1 Query, an UpdateItem each).
  'console.members.update': [CONSOLE_AUTHORIZE, { organization: ['GetItem', 'UpdateItem'] }, INVITATIONS_OF_A_FORMER_GRANTER],
  'console.members.remove': [CONSOLE_AUTHORIZE, { organization: ['GetItem', 'DeleteItem', 'UpdateItem'] }, INVITATIONS_OF_A_FORMER_GRANTER],
  'console.invitations.create': [CONSOLE_AUTHORIZE, { invitation: ['PutItem'] }],
  // With the members (one Query), to leave out invitations their creator may no longer grant.
  'console.invitations.list': [CONSOLE_AUTHORIZE, { invitationsOfOrganization: ['Query'], organization: ['Query'] }],
  'console.invitations.revoke': [CONSOLE_AUTHORIZE, { invitationsOfOrganization: ['Query'], invitation: ['UpdateItem'] }],
  'console.invitations.accept': [INVITATION_ACCEPT],
  'console.applications.list': [CONSOLE_AUTHORIZE, { applicationsOfOrganization: ['Query'] }],
  // The application row written (an UpdateItem that keeps what other writers set), then read back.
  'console.applications.create': [CONSOLE_AUTHORIZE, { application: ['UpdateItem', 'GetItem'] }],
  // KEY_ISSUING: its replanning shares the stamping transaction whose issue mode checks the application (read-only).
  'console.applications.update': [CONSOLE_AUTHORIZE_APPLICATION, { application: ['UpdateItem'] }, KEY_ISSUING],
  'console.keys.list': [CONSOLE_AUTHORIZE_APPLICATION, KEY_LISTING],
  'console.keys.create': [CONSOLE_AUTHORIZE_APPLICATION, KEY_ISSUING],
  'console.keys.revoke': [CONSOLE_AUTHORIZE_APPLICATION, { apiKey: ['GetItem', 'UpdateItem'], keysOfApplication: ['Query'] }],
  // Webhook management: the API's own webhook routes' rows (the same functions/app/webhooks.ts code).
  'console.webhooks.endpoints.list': [CONSOLE_AUTHORIZE_APPLICATION, { application: ['Query'] }],
  'console.webhooks.endpoints.create': [CONSOLE_AUTHORIZE_APPLICATION, ENDPOINT_REGISTRATION],
  'console.webhooks.endpoints.delete': [CONSOLE_AUTHORIZE_APPLICATION, { application: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'] }],
  'console.webhooks.secret.rotate': [CONSOLE_AUTHORIZE_APPLICATION, { application: ['GetItem', 'PutItem', 'UpdateItem'] }],
  'console.webhooks.deliveries.list': [CONSOLE_AUTHORIZE_APPLICATION, { deliveriesOfApplication: ['Query'] }],
  'console.webhooks.events.replay': [CONSOLE_AUTHORIZE_APPLICATION, { event: ['Query', 'PutItem'], application: ['Query'] }],
  // By request id: the lookup row, then the entry; otherwise the day partitions' shards, newest first.
  'console.requests.search': [CONSOLE_AUTHORIZE_APPLICATION, { requestId: ['GetItem'], requestLog: ['GetItem', 'Query'] }],
  // The month's usage over the environment's keys (their metering rows), per day from the request log
  // (finished days counted once and kept), connected users (the items' gsi1 entries, counted) and notices.
  'console.usage.get': [
    CONSOLE_AUTHORIZE_APPLICATION,
    KEY_LISTING,
    { requestLog: ['Query'], usageDay: ['Query', 'PutItem'], usageNotice: ['Query'], itemsOfApplication: ['Query'] },
  ],
  'console.items.get': [CONSOLE_AUTHORIZE_APPLICATION, { item: ['GetItem'] }],
  // The item read; the refresh itself goes to the refresh queue (requestRefresh).
  'console.items.refresh': [CONSOLE_AUTHORIZE_APPLICATION, { item: ['GetItem'] }],
  'console.audit.list': [CONSOLE_AUTHORIZE, { audit: ['Query'] }],
};

/**
 * The Plaid-compatible API (`plaid.call`, functions/surfaces/plaid) likewise runs the REST handlers
 * of the routes its endpoints wrap (PLAID_ENDPOINT_ROUTES) in its own function: the union of their
 * entries. Its own rows on top: under `APP#`, the Plaid-shaped webhook endpoints it registers
 * (`options.webhook` on /sandbox/public_token/create) and the environment's Plaid webhook keys
 * (created when a Plaid-shaped URL is first set, read by /webhook_verification_key/get); and the
 * Link session whose item's webhook URL gets Plaid's bodies (`webhook` on /link/token/create).
 */
ROUTE_ROWS['plaid.call'] = [
  ...PLAID_SURFACE_ROUTES.flatMap((id) => inlineRouteRows(id, 'The Plaid-compatible API')),
  ENDPOINT_REGISTRATION,
  PLAID_WEBHOOK_KEYS,
  // /link/token/create marks the session's webhook Plaid-shaped (functions/data/webhooks-repo.ts markLinkSessionWebhookPlaid).
  { linkToken: ['UpdateItem'] },
];

/**
 * Routes whose code another route's function hands calls to, by invoking the route's own function
 * (functions/platform/route-functions.ts): that function gets `lambda:InvokeFunction` on exactly
 * these functions and their names in FC_ROUTE_FUNCTIONS, and carries the Lambda client. The MCP
 * server hands each tool call to the tool's route (functions/surfaces/mcp/tool-runner.ts), so it
 * needs none of its tools' rows, secrets or model: each tool's own function has its own grants.
 */
export const ROUTE_INVOCATIONS: Partial<Record<RouteId, readonly RouteId[]>> = {
  'mcp.call': MCP_TOOLS.map((tool) => tool.route),
};

/** Whether another route hands calls to this route's function (it then answers InlineInvocations). */
export function isInvokedByRoutes(routeId: string): boolean {
  return Object.values(ROUTE_INVOCATIONS).some((targets) => (targets as readonly string[]).includes(routeId));
}

/**
 * The rows a function touches when it runs a route's handler inline (invokeRoute): the route's entry,
 * plus ACCESS_TOKEN_ROWS when it takes an item (invokeRoute resolves the access token as the item
 * routes' middleware does).
 */
function inlineRouteRows(id: RouteId, caller: string): readonly RowAccess[] {
  const route = routeById(id);
  // A route without dataAccess touches only the key's rows (authenticate), which the caller has anyway.
  if (!route.dataAccess) return [];
  const rows = ROUTE_ROWS[id];
  if (!rows || 'wholeTable' in rows) throw new Error(`${caller}: the route ${id} it runs needs its rows in ROUTE_ROWS, by partition`);
  return route.item ? [ACCESS_TOKEN_ROWS, ...rows] : rows;
}

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
  /**
   * The console's Cognito user pool: its hosted UI's host, the public app client and the pool
   * (lib/console-identity.ts; read by functions/platform/console-identity-cognito.ts). Set on the
   * routes that sign in or say how one signs in (ROUTE_CAPABILITIES.consoleIdentity).
   */
  consoleCognitoDomain: 'FC_CONSOLE_COGNITO_DOMAIN',
  consoleCognitoClientId: 'FC_CONSOLE_COGNITO_CLIENT_ID',
  consoleCognitoUserPoolId: 'FC_CONSOLE_COGNITO_USER_POOL_ID',
  /** `<route id>=<function name>,...` of ROUTE_INVOCATIONS (functions/platform/route-functions.ts ROUTE_FUNCTIONS_ENV). */
  routeFunctions: 'FC_ROUTE_FUNCTIONS',
} as const;

/** Invoke a route's function synchronously (ROUTE_INVOCATIONS). */
export const ROUTE_INVOKE_ACTIONS: readonly string[] = ['lambda:InvokeFunction'];

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
 * A capability's routes, plus the Plaid-compatible API (`plaid.call`) when it runs one of them in its
 * own function: it reaches what the routes it runs reach. (The MCP server hands its tools' calls to
 * their own functions, ROUTE_INVOCATIONS, so it reaches none of this.)
 */
function withSurfaces(routes: readonly RouteId[]): readonly RouteId[] {
  return PLAID_SURFACE_ROUTES.some((id) => routes.includes(id)) && !routes.includes('plaid.call') ? [...routes, 'plaid.call'] : routes;
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
  'link.oauth.resume',
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

/** The routes that create, rotate or show a webhook signing secret (ensureSecret, rotateSecret), link.token.create with a webhook included. */
const WEBHOOK_SECRET_ROUTES: readonly RouteId[] = [
  'link.token.create',
  'item.webhook.update',
  'webhooks.endpoints.create',
  'webhooks.secret.rotate',
  'console.webhooks.endpoints.create',
  'console.webhooks.secret.rotate',
];
/** The routes that open an item's provider secrets (withConnector) or seal new ones (Link, OAuth's pending values). */
const PROVIDER_SECRET_ROUTES: readonly RouteId[] = [...CONNECTOR_ROUTES, 'link.oauth.start'];
/**
 * The routes that create a Plaid webhook key (registering a Plaid-shaped endpoint) or open one: the
 * Plaid-compatible API only (functions/app/plaid-webhook-keys.ts).
 */
const PLAID_WEBHOOK_KEY_ROUTES: readonly RouteId[] = ['plaid.call'];

/**
 * Background capabilities a route's code may use, each listing exactly the routes whose code reaches
 * it. test/cdk/route-capabilities.test.ts scans every handler's code (test/cdk/capability-scan.ts:
 * the port and key-provider calls reachable from the handler) and fails when a route that reaches a
 * capability is missing here, or a route listed here never reaches it. The environment variable and
 * the IAM grant of a capability both come from this one table (routeAccessFor), so they cannot drift.
 */
export const ROUTE_CAPABILITIES = {
  /**
   * `RefreshQueue.enqueue`: functions/app/lifecycle.ts requestRefresh and removeItemEverywhere (the
   * purge of a removed item's rows), and Link (functions/app/link.ts),
   * which queues a new item's history load, and in update mode leaves the sync to the refresh worker
   * while a refresh holds the item.
   */
  refreshQueue: withSurfaces([
    'items.refresh',
    'items.remove',
    'link.connect',
    'link.mfa',
    'link.consent',
    'link.oauth.complete',
    'link.oauth.resume',
    'link.upload',
    'link.accounts.select',
    'sandbox.public_token.create',
    'console.items.refresh',
  ]),
  /** `DeliveryStarter.start`: replayEvent starts a WebhookDelivery execution per new delivery. */
  deliveryWorkflow: withSurfaces(['webhooks.events.replay', 'console.webhooks.events.replay']),
  /**
   * `KeyProvider.generateDataKey` and `decryptDataKey`: the routes that create, rotate or show the
   * webhook signing secret (ensureSecret, rotateSecret), including link.token.create with a webhook;
   * every route that reaches an item's connector, which opens the item's provider secrets
   * (functions/app/item-source.ts withConnector), and Link, which seals new ones; and the
   * Plaid-compatible API, which creates and opens the Plaid webhook keys.
   */
  secretsKey: withSurfaces([...WEBHOOK_SECRET_ROUTES, ...PROVIDER_SECRET_ROUTES, ...PLAID_WEBHOOK_KEY_ROUTES]),
  /** Of those, the routes that seal or open webhook signing secrets (purpose `webhook_secret`, functions/app/webhooks.ts). */
  webhookSecrets: withSurfaces(WEBHOOK_SECRET_ROUTES),
  /** Of those, the routes that seal or open an item's provider secrets (purpose `provider_secrets`, functions/app/provider-secrets.ts). */
  providerSecrets: withSurfaces(PROVIDER_SECRET_ROUTES),
  /** Of those, the routes that seal or open Plaid webhook keys (purpose `plaid_webhook_key`, functions/app/plaid-webhook-keys.ts). */
  plaidWebhookKeys: PLAID_WEBHOOK_KEY_ROUTES,
  /**
   * `ConnectorConfigSource.load`: the routes that reach a live connector (Link, and the item routes
   * that ask the item's connector: balances, identity, liabilities, holdings, assets, uploads, removal).
   */
  connectorConfig: withSurfaces([...CONNECTOR_ROUTES, 'link.method', 'link.oauth.start']),
  /**
   * `ModelPort.refine`: the AI routes (functions/app/ai.ts). On a stage with a model
   * (StageConfig.ai.model) they get its id and `bedrock:InvokeModel` on it, and carry the Bedrock client.
   */
  model: withSurfaces([
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
  /**
   * The console's identity (functions/platform/console-identity.ts consoleIdentityFromEnv): the routes
   * that sign in through Cognito or tell the browser how one signs in. On a deployed stage they get
   * FC_CONSOLE_COGNITO_* (no IAM grant: the hosted UI's token endpoint and the pool's JWKS are public
   * HTTPS endpoints); without them the code refuses to run, since local passwords exist only locally.
   */
  consoleIdentity: ['console.page', 'console.auth.login', 'console.auth.signup', 'console.auth.start', 'console.auth.callback'],
  /**
   * `EventBus.publish` from a console route's own code. The API's routes with table access all get the
   * events queue (any key route may cross a usage threshold; data routes emit item and link events);
   * console routes meter nothing, so only these do.
   */
  consoleEvents: [],
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
/**
 * The private halves of the keys that sign Plaid-shaped webhooks (functions/app/plaid-webhook-keys.ts
 * keyContext): the context adds the key's id, `kid`.
 */
export const PLAID_WEBHOOK_KEY_CONTEXT_KEYS: readonly string[] = ['application_id', 'environment', 'kid', 'purpose'];
export const PLAID_WEBHOOK_KEY_PURPOSE = 'plaid_webhook_key';
/** Every key any of these contexts may carry: a grant's context keys must all be among them. */
export const SECRETS_CONTEXT_KEYS: readonly string[] = [...new Set([...WEBHOOK_SECRET_CONTEXT_KEYS, ...PROVIDER_SECRET_CONTEXT_KEYS, ...PLAID_WEBHOOK_KEY_CONTEXT_KEYS])];
/** Webhook and provider secrets: the refresh worker's grant (it opens provider tokens and seals rotated ones). */
export const SECRETS_KEY_CONDITIONS = secretsKeyConditions([WEBHOOK_SECRET_PURPOSE, PROVIDER_SECRET_PURPOSE]);
/**
 * What signs a webhook delivery: the webhook secrets (FC-Signature) and the Plaid webhook keys
 * (Plaid-Verification), opened only. The dispatch and delivery workers' grant.
 */
export const DELIVERY_SIGNING_KEY_CONDITIONS = secretsKeyConditions([WEBHOOK_SECRET_PURPOSE, PLAID_WEBHOOK_KEY_PURPOSE]);

/** The secrets-key grant's conditions for these purposes: the purpose itself, and only the context keys they carry. */
export function secretsKeyConditions(purposes: readonly string[]) {
  const keys = [
    ...(purposes.includes(WEBHOOK_SECRET_PURPOSE) ? WEBHOOK_SECRET_CONTEXT_KEYS : []),
    ...(purposes.includes(PROVIDER_SECRET_PURPOSE) ? PROVIDER_SECRET_CONTEXT_KEYS : []),
    ...(purposes.includes(PLAID_WEBHOOK_KEY_PURPOSE) ? PLAID_WEBHOOK_KEY_CONTEXT_KEYS : []),
  ];
  return {
    StringEquals: { 'kms:EncryptionContext:purpose': [...purposes] },
    'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': SECRETS_CONTEXT_KEYS.filter((key) => keys.includes(key)) },
  };
}

/**
 * A route's secrets-key conditions: only the purposes its code seals or opens
 * (ROUTE_CAPABILITIES.webhookSecrets, .providerSecrets, .plaidWebhookKeys), so the console's webhook
 * routes, say, cannot unwrap an item's provider tokens sealed under the same key.
 */
export function routeSecretsKeyConditions(routeId: string) {
  const has = (capability: 'webhookSecrets' | 'providerSecrets' | 'plaidWebhookKeys') => (ROUTE_CAPABILITIES[capability] as readonly string[]).includes(routeId);
  const purposes = [
    ...(has('webhookSecrets') ? [WEBHOOK_SECRET_PURPOSE] : []),
    ...(has('providerSecrets') ? [PROVIDER_SECRET_PURPOSE] : []),
    ...(has('plaidWebhookKeys') ? [PLAID_WEBHOOK_KEY_PURPOSE] : []),
  ];
  if (purposes.length === 0) throw new Error(`${routeId} holds no secrets-key purpose`);
  return secretsKeyConditions(purposes);
}

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
   * ARN, and the Bedrock client in the bundle (lib/api-route-stack.ts decides with the stage's config).
   */
  model: boolean;
  /** FC_CONSOLE_COGNITO_* (ENV_VARS.consoleCognito*): the console's user pool, hosted UI and app client. */
  consoleIdentity: boolean;
  /** ROUTE_INVOCATIONS: `FC_ROUTE_FUNCTIONS` + `lambda:InvokeFunction` on these routes' functions (empty for most). */
  invokesRoutes: readonly RouteId[];
}

type RouteFacts = Pick<Route, 'id' | 'auth' | 'dataAccess'> & Partial<Pick<Route, 'item' | 'console'>>;

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
    case 'session':
      throw new Error(`${route.id}: auth 'session' routes read the console session, so they need dataAccess: true`);
  }
}

/**
 * The table statements of a route with `auth-and-meter` or `partitions` access: its own rows
 * (ROUTE_ROWS), the key's rows when it authenticates a key (metering, usage notice, request log),
 * the console session's when it authenticates one, the access token's and item's when it names an
 * item. Empty for the other kinds of access.
 */
export function tableGrantsFor(route: RouteFacts): LeadingKeyGrant[] {
  const access = tableAccessFor(route);
  if (access === 'none' || access === 'whole-table') return [];
  const own = access === 'partitions' ? (ROUTE_ROWS[route.id as RouteId] as readonly RowAccess[]) : [];
  const auth = route.auth === 'key' ? KEY_AUTH_ROWS : route.auth === 'session' ? SESSION_AUTH_ROWS : {};
  return leadingKeyGrants(auth, route.item ? ACCESS_TOKEN_ROWS : {}, ...own);
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
 *   Public routes without data access never emit; console routes only when listed in
 *   ROUTE_CAPABILITIES.consoleEvents.
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
  return {
    table,
    // A console route never authenticates a key (whose metering may fire a usage event): only the ones
    // whose own code emits an event get the queue.
    eventsQueue: table !== 'none' && (!route.console || uses('consoleEvents')),
    refreshQueue,
    secretsKey,
    deliveryWorkflow,
    model: uses('model'),
    connectorConfig: uses('connectorConfig'),
    consoleIdentity: uses('consoleIdentity'),
    invokesRoutes: ROUTE_INVOCATIONS[route.id as RouteId] ?? [],
  };
}
