// THE route table. Every operation is declared here once: path, method, zod request and response
// schemas, auth mode, whether it is tied to an item, the product consent it needs, and how it is
// metered. The CDK API, the local server, openapi.json, llms.txt and the tests all iterate ROUTES.
//
// Each route is also its own export, named after its id as openapi.json's operationId is
// (`accounts.get` -> `accountsGet`), and its handler module functions/api/<route id>.ts binds to
// that const: `defineOperation(accountsGet, ...)`. A Lambda bundle then carries its own route's
// schemas and none of the others': every top-level value here and in the other contract modules is
// `/* @__PURE__ */` with arguments that have no side effects (route() takes its declaration as a
// function for that reason), so esbuild drops what the handler does not reference. A bare call or
// a computed argument at the top level pulls it back into every bundle, and
// test/unit/route-bundles.test.ts fails (docs/architecture.md, "The contract is the type source").
import * as z from 'zod';
import {
  AccessToken,
  Account,
  AccountIds,
  Category,
  Count,
  CountryCode,
  DateString,
  AiAmount,
  EngineMeta,
  Holding,
  Id,
  Institution,
  InstitutionType,
  InvestmentTransaction,
  Item,
  Offset,
  PaymentChannel,
  Product,
  PRODUCTS,
  RemovedTransaction,
  Transaction,
  TransactionsUpdateStatus,
  tokenOrTransactions,
} from './schemas';
import { EVENT_TYPES } from './events';
import { INITIAL_UPDATE_DAYS, LIMITS, LINK_UPLOAD_BODY_MAX_BYTES, LINK_UPLOAD_MAX_FILE_BYTES } from './limits';
import { LinkAccountSelectionFlag, LinkLanguageField, LinkSession, LinkStep, LinkTokenField } from './link-schemas';
import { ShownWebhookSecret, WebhookDelivery, WebhookEndpoint } from './webhook-schemas';
import {
  AcceptInvitationAnswer,
  AcceptInvitationInput,
  CreateApplicationAnswer,
  CreateApplicationInput,
  CreateEndpointAnswer,
  CreateEndpointInput,
  CreateInvitationAnswer,
  CreateInvitationInput,
  CreateKeyAnswer,
  CreateKeyInput,
  CreateOrganizationAnswer,
  CreateOrganizationInput,
  DeleteEndpointAnswer,
  DeleteEndpointInput,
  DeleteOrganizationAnswer,
  DeleteOrganizationInput,
  EmptyAnswer,
  EmptyRequest,
  ItemAnswer,
  ItemInput,
  ItemRefreshAnswer,
  ListApplicationsAnswer,
  ListApplicationsInput,
  ListAuditAnswer,
  ListAuditInput,
  ListDeliveriesAnswer,
  ListDeliveriesInput,
  ListEndpointsAnswer,
  ListEndpointsInput,
  ListInvitationsAnswer,
  ListInvitationsInput,
  ListKeysAnswer,
  ListKeysInput,
  ListMembersAnswer,
  ListMembersInput,
  RemoveMemberAnswer,
  RemoveMemberInput,
  ReplayEventAnswer,
  ReplayEventInput,
  RequestSearchAnswer,
  RequestSearchInput,
  RevokeInvitationAnswer,
  RevokeInvitationInput,
  RevokeKeyAnswer,
  RevokeKeyInput,
  RotateSecretAnswer,
  RotateSecretInput,
  SessionAnswer,
  SignInAnswer,
  SignInRequest,
  SignUpAnswer,
  SignUpRequest,
  UpdateApplicationAnswer,
  UpdateApplicationInput,
  UpdateMemberAnswer,
  UpdateMemberInput,
  UsageAnswer,
  UsageInput,
} from './console-schemas';
import { ExcludedAccount, Identity, IncomeStream, Liabilities, RecurringStream } from './product-schemas';
import {
  CashflowResult,
  FinancialSummaryResult,
  FraudRiskResult,
  HealthScoreResult,
  HorizonDays,
  PurchaseAnalysisResult,
  SubscriptionsResult,
  WeeklyReportResult,
} from './ai-schemas';

// ---------- hosted Link: consent beyond credentials ----------
/** The longest code, error or provider parameter an OAuth redirect brings back that the page passes on. */
const LINK_OAUTH_PARAM_MAX_LENGTH = 2048;
/** The longest wallet address accepted (Bitcoin bech32 and Ethereum hex addresses are far shorter). */
const LINK_ADDRESS_MAX_LENGTH = 128;
/** A statement file in a JSON body (link.upload, items.statements.upload): standard base64, at most what the body limit lets through. */
export const StatementFileBase64 = /* @__PURE__ */ z
  .string()
  .min(1)
  // What fits in the body limit (the importer itself takes up to LIMITS.statementMaxBytes).
  .max(Math.ceil(LINK_UPLOAD_MAX_FILE_BYTES / 3) * 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected the file as standard base64')
  // Whole 4-character groups only: a truncated encoding would otherwise lose the file's last bytes silently.
  // (A length check, not a grouped regex: one over megabytes of groups exhausts the regex engine's stack.)
  .refine((v) => v.length % 4 === 0, 'expected the whole file as standard base64, padded to a multiple of 4 characters')
  .meta({ description: 'The file\u2019s bytes, standard base64.', example: 'RGF0ZSxEZXNjcmlwdGlvbixBbW91bnQKMjAyNi0wMS0wMixDT0ZGRUUsLTMuNTAK' });
/** How the Link page collects consent for an institution (functions/core/connector-port.ts LinkMethod). */
const LinkMethodAnswer = /* @__PURE__ */ z
  .object({
    institution_id: z.string(),
    /** The method of the connector that serves the institution for this session; null when none serves it. */
    method: z.enum(['credentials', 'oauth', 'api_key', 'address', 'file']).nullable(),
    /** Whether the user may upload a statement file instead (the institution's chain lists the file importer). */
    file_upload: z.boolean(),
  })
  .meta({ id: 'LinkMethod' });

/**
 * `link`: the hosted Link page's own API, authenticated by the link token in the body (not metered).
 * `session`: the console's own API, authenticated by a signed-in console session (the HttpOnly
 * session cookie) and the session's CSRF token in X-CSRF-Token (not metered, no API key).
 */
export type AuthMode = 'none' | 'key' | 'link' | 'session';
/** `api` and `ai` count one unit against that monthly quota; `none` is not metered (public documents). */
export type Metering = 'none' | 'api' | 'ai';
export const CONTENT_TYPES = {
  json: 'application/json',
  text: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
} as const;
export type ResponseKind = keyof typeof CONTENT_TYPES;
/**
 * A route that speaks another protocol over HTTP: its handler reads the raw body itself (the
 * protocol's library parses and validates it; `request` only documents it), answers with its own
 * status codes, and every error the shared middlewares raise (key, rate limit, size) is rendered in
 * that protocol's error format instead of the REST envelope (functions/platform/protocols.ts).
 * `plaid` is Plaid's own API (functions/surfaces/plaid): its key travels in Plaid's credentials and
 * its errors are Plaid's error objects, both handed to the middlewares by its handler.
 */
export type Protocol = 'graphql' | 'mcp' | 'plaid';

export interface Route {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: AuthMode;
  /** Takes an `access_token` naming one item of the caller's application and environment. */
  item: boolean;
  /**
   * Reads or writes rows beyond the key's own metering row (items, tokens, link sessions). Drives
   * least-privilege grants in the stack. Defaults to `item || auth === 'link' || auth === 'session'`.
   */
  dataAccess: boolean;
  /** Product the item must have consented to, if any. */
  consent: z.infer<typeof Product> | null;
  metering: Metering;
  /** Sandbox helpers refuse live keys. */
  testKeysOnly?: boolean;
  /** JSON body schema; null for bodyless GETs. */
  request: z.ZodType | null;
  /** The body may be omitted entirely (categories/get). */
  bodyOptional?: boolean;
  /** The largest body this route accepts, in bytes, when it is not LIMITS.bodyMaxBytes (a statement upload). */
  bodyMaxBytes?: number;
  /** Runs one call at a time per item: a concurrent call answers 409 with Retry-After. */
  oneAtATime?: boolean;
  /**
   * Work that may take longer than an ordinary call (a statement imported within its request): its
   * function gets the longest timeout API Gateway waits for (UPLOAD_FUNCTION_TIMEOUT_SECONDS).
   */
  longRunning?: boolean;
  response: z.ZodType;
  responseKind: ResponseKind;
  /** Set on the GraphQL, MCP and Plaid-compatible endpoints; absent on REST routes. */
  protocol?: Protocol;
  /**
   * Left out of our public contract (openapi.json, llms.txt, the SDKs, GraphQL and MCP) although an
   * API key calls it: a route that speaks another API's contract, documented as that API
   * (the Plaid-compatible API, docs/plaid-migration.md).
   */
  unlisted?: true;
  /**
   * The console's page and its own API (/console/...): called by the console's web app only, so a
   * cross-site POST is refused; never metered or rate-limited by an API key, never in the request
   * log; and left out of the public contract: openapi.json, llms.txt, the SDKs, GraphQL and MCP.
   */
  console?: true;
  /**
   * A session route that needs no X-CSRF-Token: console.session, which hands the token out (the
   * web app keeps it in memory only, so it asks again after a reload). Same-origin checks still apply.
   */
  csrfExempt?: true;
}

type RouteInput = Omit<Route, 'id' | 'method' | 'auth' | 'item' | 'dataAccess' | 'consent' | 'metering' | 'responseKind'> &
  Partial<Pick<Route, 'method' | 'auth' | 'item' | 'dataAccess' | 'consent' | 'metering' | 'responseKind'>>;

/**
 * A route as route() declares it: a plain Route that also keeps, as literal types, what the handlers
 * are typed from (its id, schemas, auth mode, item scope, response kind and protocol; the defaults
 * route() fills in where the input leaves them out).
 */
export type DeclaredRoute<Id extends string, Input extends RouteInput> = Route & {
  readonly id: Id;
  readonly request: Input['request'];
  readonly response: Input['response'];
  readonly auth: Input extends { auth: infer A } ? A : 'key';
  readonly item: Input extends { item: infer B } ? B : false;
  readonly responseKind: Input extends { responseKind: infer K } ? K : 'json';
  readonly protocol: Input extends { protocol: infer P } ? P : undefined;
  readonly console: Input extends { console: infer C } ? C : undefined;
};

/**
 * Declares a route. The declaration is a function, called here at once, so that the call has no
 * argument with side effects: esbuild then drops a route(...) call annotated `@__PURE__` that no
 * handler references, schemas and all (an object literal argument would keep every schema built in it).
 */
function route<const Id extends string, const Input extends RouteInput>(id: Id, declaration: () => Input): DeclaredRoute<Id, Input> {
  const input = declaration();
  const declared: Route = {
    id,
    method: 'POST',
    auth: 'key',
    item: false,
    consent: null,
    metering: 'api',
    responseKind: 'json',
    ...input,
    dataAccess: input.dataAccess ?? (input.item === true || input.auth === 'link' || input.auth === 'session'),
  };
  // The spread above fills in exactly the defaults DeclaredRoute spells out at the type level.
  return declared as DeclaredRoute<Id, Input>;
}

const tokenOnly = /* @__PURE__ */ z.strictObject({ access_token: AccessToken }).meta({ id: 'AccessTokenRequest' });
const accountsOptions = /* @__PURE__ */ z.strictObject({ account_ids: AccountIds.optional() }).optional();
const pageOptions = /* @__PURE__ */ z
  .strictObject({ count: Count.optional(), offset: Offset.optional(), account_ids: AccountIds.optional() })
  .optional();
const loose = (description: string) => z.looseObject({}).meta({ description });

// ---------- AI routes: shared request and response shapes ----------

/**
 * Body of the AI routes that take an item or a raw payload: exactly one of the two, and ids unique
 * within the payload (each answer row echoes its id).
 */
function aiItemOrRows<T extends z.ZodRawShape>(extra: T) {
  // The generic shape hides the two fields from the checks' parameter type; they are always there.
  const fieldsOf = (body: unknown) => body as { access_token?: string; transactions?: ReadonlyArray<{ id: string }> };
  return tokenOrTransactions(extra)
    .refine((body) => !(fieldsOf(body).access_token !== undefined && fieldsOf(body).transactions !== undefined), {
      message: 'send access_token or transactions, not both',
      path: ['transactions'],
      params: { code: 'invalid_field' },
    })
    .refine((body) => {
      const rows = fieldsOf(body).transactions;
      return !rows || new Set(rows.map((t) => t.id)).size === rows.length;
    }, {
      message: 'every transaction id must be unique',
      path: ['transactions'],
      params: { code: 'invalid_field' },
    });
}

// The AI routes' shared description sentences are functions: a top-level template string would be
// built, and carried, in every bundle that imports this module.
const aiItemOrRowsNote = () =>
  `Send \`access_token\` (the item's transactions, with the \`transactions\` consent) or a raw \`transactions\` array (at most ${LIMITS.aiTransactionsMax} rows with unique ids; a row without a date counts as today), not both.`;
const AI_FALLBACK_NOTE =
  'When the model is unavailable, slow or answers badly, the rules answer is served with `engine: "rules"`: the route never fails for that reason. See docs/ai.md.';
const aiEngineNote = () =>
  `Rules first: the answer is computed by the rules engine; a configured model may rewrite its prose fields (summary, highlights, narrative, recommendation, explanation, reason, note), never its ids, amounts or dates. ${AI_FALLBACK_NOTE}`;
const aiRowsNote = () =>
  `Rules first: the descriptor rules, the brand directory and the learned fallback; a configured model only fills what all three leave open, with a category of the taxonomy. ${AI_FALLBACK_NOTE}`;

/** Which engine decided a categorized row or a merchant (null: none did). */
const DecidedBy = /* @__PURE__ */ z
  .enum(['rules', 'directory', 'learned', 'ai'])
  .nullable()
  .meta({
    id: 'AiDecidedBy',
    description:
      'Which engine decided this answer: `rules` (descriptor rules), `directory` (the brand directory), `learned` (the embedded learned fallback), `ai` (the configured model, only where the others abstained), or null when none did.',
  });

const CategorizedTransaction = /* @__PURE__ */ z
  .object({
    id: z.string().meta({ description: 'Echoes the input id (the transaction_id with an item).' }),
    category: z.string().meta({ description: 'Primary category id of the taxonomy, or `uncategorized` when no engine decided.' }),
    category_detailed: z.string().meta({ description: 'Detailed category id of the taxonomy, or `uncategorized` when no engine decided.' }),
    confidence: z.number().min(0).max(1).meta({ description: '0 for `uncategorized` rows.' }),
    decided_by: DecidedBy,
  })
  .meta({ id: 'CategorizedTransaction' });
const CATEGORIZED_EXAMPLE = { id: 't1', category: 'food_and_drink', category_detailed: 'food_and_drink_coffee', confidence: 0.9, decided_by: 'rules' };

/** A rules answer (ai-schemas.ts) with the engine metadata, its example carrying them too. */
function aiResponse<S extends z.ZodObject>(id: string, result: S) {
  const meta = result.meta() ?? {};
  const example = meta.example as Record<string, unknown> | undefined;
  return result.extend(EngineMeta).meta({ ...meta, id, ...(example ? { example: { ...example, engine: 'rules', model: 'rules-2026.07.2' } } : {}) });
}

// ---------- discovery (public documents) ----------
export const discoveryOpenapi = /* @__PURE__ */ route('discovery.openapi', () => ({
  method: 'GET',
  path: '/openapi.json',
  tag: 'Discovery',
  summary: 'This API description (OpenAPI 3.1), generated from the route table.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: loose('An OpenAPI 3.1 document.'),
}));
export const discoveryLlms = /* @__PURE__ */ route('discovery.llms', () => ({
  method: 'GET',
  path: '/llms.txt',
  tag: 'Discovery',
  summary: 'A short plain-text index of the API for language models and crawlers.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'text',
}));
export const discoveryLlmsFull = /* @__PURE__ */ route('discovery.llms-full', () => ({
  method: 'GET',
  path: '/llms-full.txt',
  tag: 'Discovery',
  summary: 'The whole API in plain text: every operation with its request and response fields.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'text',
}));

// ---------- health ----------
export const healthGet = /* @__PURE__ */ route('health.get', () => ({
  method: 'GET',
  path: '/v1/health',
  tag: 'Health',
  summary: 'Whether this deployment can serve: 200 when its storage answers, 503 storage_unavailable when not.',
  description: 'Public and not metered, for load balancers and uptime checks. Makes one cheap storage read per call.',
  auth: 'none',
  metering: 'none',
  // One GetItem of a fixed row (functions/data/storage-probe.ts), so the function needs table access.
  dataAccess: true,
  request: null,
  response: z.object({ status: z.literal('ok') }).meta({ id: 'Health' }),
}));

// ---------- link ----------
/**
 * An http(s) URL field whose refusal says what is accepted (a URL of another scheme, or with a port
 * out of range, is not just "not a URL"): `accepts` completes "must be ...".
 */
const httpUrlField = (accepts: string) => z.url({ protocol: /^https?$/, error: `expected ${accepts}` }).max(LIMITS.stringMaxLength);
/** What a webhook URL may be (functions/core/webhook-url.ts checks the host itself). */
const WEBHOOK_URL_ACCEPTS = 'an http(s) URL with a valid host and port: https for live keys (http only on a loopback host, for test keys of a local server)';
/** What a redirect_uri may be (functions/core/link-rules.ts redirectUriRefusal). */
const REDIRECT_URI_ACCEPTS = 'an https URL with a valid host and port (or http on localhost, 127.0.0.1 or [::1] for test keys)';

export const linkTokenCreate = /* @__PURE__ */ route('link.token.create', () => ({
  path: '/v1/link/token/create',
  tag: 'Link',
  summary: 'Mint a 30-minute link token that opens hosted Link at {base_url}/link?token=...',
  dataAccess: true,
  request: z.strictObject({
    client_name: z.string().min(1).max(LIMITS.clientNameMax).optional(),
    user: z.strictObject({ client_user_id: Id }),
    products: z
      .array(Product)
      .min(1)
      .max(PRODUCTS.length)
      .refine((list) => new Set(list).size === list.length, 'products must not repeat'),
    institution_id: Id.optional(),
    update_item_id: Id.optional(),
    webhook: httpUrlField(WEBHOOK_URL_ACCEPTS)
      .meta({
        description:
          'The webhook URL of the item this session connects (or repairs), as Plaid\'s: the item\'s events are also sent there, signed with the environment\'s secret. Checked as an endpoint URL is, but not an endpoint (not listed, not counted against the cap). Read it back as `webhook` on the item; change it with /v1/item/webhook/update.',
        example: 'https://example.com/webhooks/fincore',
      })
      .optional(),
    redirect_uri: httpUrlField(REDIRECT_URI_ACCEPTS).optional(),
    /** The language hosted Link is shown in (default en). */
    language: LinkLanguageField.optional(),
    /** Update mode: show the account selection again, with the item's current choice preselected (as Plaid's). */
    update: z.strictObject({ account_selection_enabled: z.boolean().optional() }).optional(),
  })
    // Plaid's account selection in update mode only: without an item to update it would be silently ignored.
    .refine((body) => body.update?.account_selection_enabled !== true || body.update_item_id !== undefined, {
      message: 'account_selection_enabled needs update_item_id: it shows an existing item\'s account selection again in update mode (a new item\'s Link always asks which accounts to share)',
      path: ['update', 'account_selection_enabled'],
    }),
  response: z.object({ link_token: z.string(), expiration: z.string(), webhook_secret: ShownWebhookSecret }),
}));
export const linkTokenExchange = /* @__PURE__ */ route('link.token.exchange', () => ({
  path: '/v1/link/token/exchange',
  tag: 'Link',
  summary: 'Exchange a single-use public token for a permanent access token.',
  dataAccess: true,
  request: z.strictObject({ public_token: z.string().min(1).max(LIMITS.tokenMaxLength) }),
  response: z.object({ access_token: z.string(), item_id: z.string(), rotated: z.boolean() }),
}));

// ---------- items ----------
export const itemsGet = /* @__PURE__ */ route('items.get', () => ({
  path: '/v1/items/get',
  tag: 'Items',
  summary: 'Status, institution, consented products, last sync time and history readiness of an item.',
  item: true,
  request: tokenOnly,
  response: z.object({ item: Item }),
}));
export const itemsRemove = /* @__PURE__ */ route('items.remove', () => ({
  path: '/v1/items/remove',
  tag: 'Items',
  summary: 'Remove an item: its cached data is deleted and its access token stops working.',
  item: true,
  request: tokenOnly,
  response: z.object({ removed: z.boolean() }),
}));
export const itemsRefresh = /* @__PURE__ */ route('items.refresh', () => ({
  path: '/v1/items/refresh',
  tag: 'Items',
  summary: 'Start an on-demand refresh; new transactions are announced by webhook.',
  description: 'Answers at once; refreshes of one item run one at a time. Answers 400 `item_login_required` (or `item_not_healthy`) while the item needs repair.',
  item: true,
  request: tokenOnly,
  response: z.object({ refreshing: z.boolean() }),
}));

export const itemsStatementsUpload = /* @__PURE__ */ route('items.statements.upload', () => ({
  path: '/v1/items/statements/upload',
  tag: 'Items',
  summary: 'Upload another statement file (CSV, OFX, QFX, QBO) to an item created from a statement.',
  description: `For items whose connector is \`file_import\` (created by "Upload a statement" in Link). The file's accounts, holdings and transactions are merged into the item: transaction ids come from the file's FITIDs (or a content hash), so a re-uploaded or overlapping file adds nothing twice, and OFX corrections arrive as \`modified\`/\`removed\` in /v1/transactions/sync. Answers 400 with a \`statement_*\` code naming the problem and line for a file the import cannot read (nothing is written then). The file is sent base64-encoded; the body may be up to ${LINK_UPLOAD_BODY_MAX_BYTES} bytes, so a file of at most ${LINK_UPLOAD_MAX_FILE_BYTES} bytes fits.`,
  item: true,
  bodyMaxBytes: LINK_UPLOAD_BODY_MAX_BYTES,
  oneAtATime: true,
  longRunning: true,
  request: z.strictObject({
    access_token: AccessToken,
    file_name: z.string().min(1).max(255),
    file_base64: StatementFileBase64,
  }),
  response: z.object({
    item_id: z.string(),
    accounts: z.array(Account).meta({ description: 'The accounts this file reported, as stored now.' }),
    transactions: z.object({ added: z.int(), modified: z.int(), removed: z.int() }).meta({ description: 'What the file changed in the item\u2019s transactions.' }),
    skipped_rows: z
      .object({ count: z.int(), rows: z.array(z.object({ line: z.int(), reason: z.string() })) })
      .meta({ description: 'Rows of the file that were left out (totals, balance lines, rows without a date), each with its line and why; `rows` lists the first 100.' }),
    date_order: z
      .object({ order: z.enum(['dmy', 'mdy', 'ymd']), source: z.enum(['file', 'hint', 'default']) })
      .nullable()
      .meta({
        description:
          'How the file\u2019s day/month dates were read: proved by the file (`file`), as the item\u2019s earlier files were (`hint`), or guessed (`default`: every date fits both orders; confirm with the user). Null for OFX.',
      }),
  }),
}));

// ---------- institutions ----------
export const institutionsSearch = /* @__PURE__ */ route('institutions.search', () => ({
  path: '/v1/institutions/search',
  tag: 'Institutions',
  summary: 'Search institutions by name (case-insensitive), ordered by popularity, at most 20 results.',
  description: 'An empty query browses the most popular institutions. The sandbox network is always included.',
  request: z.strictObject({
    query: z.string().max(LIMITS.institutionQueryMax),
    types: z.array(InstitutionType).min(1).max(10).optional(),
    country_codes: z.array(CountryCode).min(1).max(50).optional(),
  }),
  response: z.object({ institutions: z.array(Institution).max(LIMITS.institutionSearchMaxResults) }),
}));
export const institutionsGetById = /* @__PURE__ */ route('institutions.get_by_id', () => ({
  path: '/v1/institutions/get_by_id',
  tag: 'Institutions',
  summary: 'One institution by its id.',
  request: z.strictObject({ institution_id: Id }),
  response: z.object({ institution: Institution }),
}));

// ---------- accounts ----------
export const accountsGet = /* @__PURE__ */ route('accounts.get', () => ({
  path: '/v1/accounts/get',
  tag: 'Accounts',
  summary: 'Consented accounts with cached balances.',
  item: true,
  request: z.strictObject({ access_token: AccessToken, options: accountsOptions }),
  response: z.object({ accounts: z.array(Account), item: Item }),
}));
export const accountsBalanceGet = /* @__PURE__ */ route('accounts.balance.get', () => ({
  path: '/v1/accounts/balance/get',
  tag: 'Accounts',
  summary: 'Accounts with balances refreshed from the institution when older than 15 minutes.',
  description: 'Needs the institution: answers 400 `item_login_required` (or `item_not_healthy`) while the item needs repair; use /v1/accounts/get for cached balances then.',
  item: true,
  request: z.strictObject({ access_token: AccessToken, options: accountsOptions }),
  response: z.object({ accounts: z.array(Account), item: Item }),
}));

// ---------- transactions ----------
export const transactionsSync = /* @__PURE__ */ route('transactions.sync', () => ({
  path: '/v1/transactions/sync',
  tag: 'Transactions',
  summary: 'Page through transaction changes since a cursor (full history without one).',
  description:
    'Loop while has_more, applying each page and keeping next_cursor. Cursors are opaque, bound to the item (they survive token rotation) and signed; anything else is 400 `invalid_cursor` (resync without a cursor). A pending row that posts keeps its transaction_id and comes in `modified`; one that never posts comes in `removed`; a removal is never sent for a row you were never sent. Serves cached data also while the item needs repair. While a new item\'s history loads, answers what is loaded so far with `transactions_update_status` (`not_ready`: nothing yet, `added` is empty); sync again after each `transactions.sync_updates_available` webhook.',
  item: true,
  consent: 'transactions',
  request: z.strictObject({
    access_token: AccessToken,
    cursor: z.string().max(LIMITS.cursorMaxLength).optional(),
    count: Count.optional(),
  }),
  response: z.object({
    added: z.array(Transaction),
    modified: z.array(Transaction),
    removed: z.array(RemovedTransaction),
    next_cursor: z.string(),
    has_more: z.boolean(),
    transactions_update_status: TransactionsUpdateStatus,
  }),
}));
export const transactionsGet = /* @__PURE__ */ route('transactions.get', () => ({
  path: '/v1/transactions/get',
  tag: 'Transactions',
  summary: 'Transactions in a date range, paged by count and offset; removed rows excluded.',
  description:
    `Both dates inclusive. Order: newest first (date descending, then transaction_id ascending), stable across pages. Pending rows are included with their authorization date. Serves cached data also while the item needs repair. Answers 400 \`product_not_ready\` until a new item's most recent ${INITIAL_UPDATE_DAYS} days are loaded (\`transactions_update_status\` \`initial_update_complete\`).`,
  item: true,
  consent: 'transactions',
  request: z.strictObject({
    access_token: AccessToken,
    start_date: DateString,
    end_date: DateString,
    options: pageOptions,
  }),
  response: z.object({
    accounts: z.array(Account),
    transactions: z.array(Transaction),
    total_transactions: z.int().min(0),
  }),
}));

// ---------- other data products ----------
export const identityGet = /* @__PURE__ */ route('identity.get', () => ({
  path: '/v1/identity/get',
  tag: 'Identity',
  summary: 'Names, emails, phones and addresses of the account owners.',
  item: true,
  consent: 'identity',
  request: tokenOnly,
  response: z.object({ accounts: z.array(Account), identity: Identity }),
}));
export const incomeGet = /* @__PURE__ */ route('income.get', () => ({
  path: '/v1/income/get',
  tag: 'Income',
  summary: 'Income streams detected from payroll and other inflows.',
  item: true,
  consent: 'income',
  request: tokenOnly,
  response: z.object({ income_streams: z.array(IncomeStream) }),
}));
export const liabilitiesGet = /* @__PURE__ */ route('liabilities.get', () => ({
  path: '/v1/liabilities/get',
  tag: 'Liabilities',
  summary: 'Credit cards, mortgages, student and auto loans.',
  item: true,
  consent: 'liabilities',
  request: tokenOnly,
  response: z.object({ accounts: z.array(Account), liabilities: Liabilities }),
}));
export const recurringGet = /* @__PURE__ */ route('recurring.get', () => ({
  path: '/v1/recurring/get',
  tag: 'Recurring',
  summary: 'Recurring streams: subscriptions, bills and payroll.',
  item: true,
  consent: 'recurring',
  request: tokenOnly,
  response: z.object({ recurring_streams: z.array(RecurringStream) }),
}));
export const categoriesGet = /* @__PURE__ */ route('categories.get', () => ({
  path: '/v1/categories/get',
  tag: 'Categories',
  summary: 'The static taxonomy: 14 primary and 89 detailed categories, with a Plaid crosswalk.',
  request: z.strictObject({}),
  bodyOptional: true,
  response: z.object({ categories: z.array(Category) }),
}));
export const assetsGet = /* @__PURE__ */ route('assets.get', () => ({
  path: '/v1/assets/get',
  tag: 'Assets',
  summary: 'Assets, liabilities and net worth in one currency.',
  item: true,
  consent: 'assets',
  request: tokenOnly,
  response: z.object({
    accounts: z.array(Account),
    total_assets: z.number(),
    total_liabilities: z.number(),
    net_worth: z.number(),
    iso_currency_code: z.string(),
    summary: z.object({
      total_assets: z.number(),
      total_liabilities: z.number(),
      net_worth: z.number(),
      iso_currency_code: z.string(),
    }),
    breakdown: z.object({
      depository: z.number().optional(),
      investment: z.number().optional(),
      crypto: z.number().optional(),
      holdings: z.number().optional(),
      credit: z.number().optional(),
      loan: z.number().optional(),
    }),
    generated_at: z.string(),
    excluded_accounts: z.array(ExcludedAccount).meta({ description: 'Accounts left out because their currency differs (never converted).' }),
  }),
}));

// ---------- investments ----------
export const investmentsHoldingsGet = /* @__PURE__ */ route('investments.holdings.get', () => ({
  path: '/v1/investments/holdings/get',
  tag: 'Investments',
  summary: 'Holdings and securities of investment and crypto accounts.',
  item: true,
  consent: 'investments',
  request: tokenOnly,
  response: z.object({ accounts: z.array(Account), holdings: z.array(Holding) }),
}));
export const investmentsTransactionsGet = /* @__PURE__ */ route('investments.transactions.get', () => ({
  path: '/v1/investments/transactions/get',
  tag: 'Investments',
  summary: 'Investment transactions; omitted date bounds mean the full history.',
  item: true,
  consent: 'investments',
  request: z.strictObject({
    access_token: AccessToken,
    start_date: DateString.optional(),
    end_date: DateString.optional(),
    options: pageOptions,
  }),
  response: z.object({
    accounts: z.array(Account),
    investment_transactions: z.array(InvestmentTransaction),
    total_investment_transactions: z.int().min(0),
  }),
}));

// ---------- AI enrichment (rules first) ----------
export const aiCategorize = /* @__PURE__ */ route('ai.categorize', () => ({
  dataAccess: true,
  path: '/v1/ai/categorize',
  tag: 'AI',
  summary: 'Categorize transactions into the platform taxonomy.',
  description: `${aiItemOrRowsNote()} With an item: its newest ${LIMITS.aiTransactionsMax} transactions. Each row says which engine decided it (\`decided_by\`); a row no engine decided is \`uncategorized\` with confidence 0. ${aiRowsNote()}`,
  metering: 'ai',
  consent: 'transactions',
  request: aiItemOrRows({}),
  response: z
    .object({ categorized: z.array(CategorizedTransaction), ...EngineMeta })
    .meta({ id: 'AiCategorizeResponse', example: { categorized: [CATEGORIZED_EXAMPLE], engine: 'rules', model: 'rules-2026.07.2' } }),
}));
export const aiSubscriptions = /* @__PURE__ */ route('ai.subscriptions', () => ({
  dataAccess: true,
  path: '/v1/ai/subscriptions',
  tag: 'AI',
  summary: 'Paid subscriptions with cadence, annual cost, likely-unused flags and savings notes.',
  description: `${aiItemOrRowsNote()} ${aiEngineNote()}`,
  metering: 'ai',
  consent: 'transactions',
  request: aiItemOrRows({}),
  response: aiResponse('AiSubscriptionsResponse', SubscriptionsResult),
}));
export const aiCashflow = /* @__PURE__ */ route('ai.cashflow', () => ({
  dataAccess: true,
  path: '/v1/ai/cashflow',
  tag: 'AI',
  summary: 'Cash-flow balance forecast over a configurable horizon.',
  description: `${aiItemOrRowsNote()} With raw rows there are no balances: the forecast starts from 0 and shows the net change. ${aiEngineNote()}`,
  metering: 'ai',
  consent: 'transactions',
  request: aiItemOrRows({ horizon_days: HorizonDays.optional() }),
  response: aiResponse('AiCashflowResponse', CashflowResult),
}));
export const aiMerchant = /* @__PURE__ */ route('ai.merchant', () => ({
  path: '/v1/ai/merchant',
  tag: 'AI',
  summary: 'Resolve a raw descriptor to a merchant.',
  description: `The sign of \`amount\` (positive is money out, the default 0 counts as out) tells refunds and income apart. ${aiRowsNote()}`,
  metering: 'ai',
  request: z.strictObject({
    description: z.string().min(1).max(LIMITS.descriptorMaxLength),
    amount: AiAmount.optional(),
  }),
  response: z
    .object({
      merchant_name: z.string().nullable().meta({ description: 'The cleaned merchant name, or null when no engine knows it.' }),
      category: z.string().nullable(),
      category_detailed: z.string().nullable(),
      payment_channel: PaymentChannel,
      confidence: z.number().min(0).max(1),
      decided_by: DecidedBy,
      ...EngineMeta,
    })
    .meta({
      id: 'AiMerchantResponse',
      example: {
        merchant_name: "Joe's Pizza",
        category: 'food_and_drink',
        category_detailed: 'food_and_drink_restaurant',
        payment_channel: 'in_store',
        confidence: 0.9,
        decided_by: 'rules',
        engine: 'rules',
        model: 'rules-2026.07.2',
      },
    }),
}));
export const aiHealthScore = /* @__PURE__ */ route('ai.health-score', () => ({
  dataAccess: true,
  path: '/v1/ai/health-score',
  tag: 'AI',
  summary: 'Explainable 0-100 financial health score with subscores.',
  description: aiEngineNote(),
  item: true,
  consent: 'transactions',
  metering: 'ai',
  request: tokenOnly,
  response: aiResponse('AiHealthScoreResponse', HealthScoreResult),
}));
export const aiFinancialSummary = /* @__PURE__ */ route('ai.financial-summary', () => ({
  dataAccess: true,
  path: '/v1/ai/financial-summary',
  tag: 'AI',
  summary: 'Plain-language summary with highlights.',
  description: aiEngineNote(),
  item: true,
  consent: 'transactions',
  metering: 'ai',
  request: tokenOnly,
  response: aiResponse('AiFinancialSummaryResponse', FinancialSummaryResult),
}));
export const aiFraudRisk = /* @__PURE__ */ route('ai.fraud-risk', () => ({
  dataAccess: true,
  path: '/v1/ai/fraud-risk',
  tag: 'AI',
  summary: 'Fraud risk signals with an overall grade.',
  description: `${aiItemOrRowsNote()} ${aiEngineNote()}`,
  metering: 'ai',
  consent: 'transactions',
  request: aiItemOrRows({}),
  response: aiResponse('AiFraudRiskResponse', FraudRiskResult),
}));
export const aiPurchaseAnalysis = /* @__PURE__ */ route('ai.purchase-analysis', () => ({
  dataAccess: true,
  path: '/v1/ai/purchase-analysis',
  tag: 'AI',
  summary: 'Buy, wait or skip analysis of a planned purchase, with opportunity cost.',
  description: aiEngineNote(),
  item: true,
  consent: 'transactions',
  metering: 'ai',
  request: z.strictObject({
    access_token: AccessToken,
    purchase: z.strictObject({ description: z.string().min(1).max(LIMITS.descriptorMaxLength), amount: AiAmount.positive() }),
  }),
  response: aiResponse('AiPurchaseAnalysisResponse', PurchaseAnalysisResult),
}));
export const aiWeeklyReport = /* @__PURE__ */ route('ai.weekly-report', () => ({
  dataAccess: true,
  path: '/v1/ai/weekly-report',
  tag: 'AI',
  summary: 'Narrative weekly report.',
  description: `The 7 days ending on \`week_ending\` (default: today). ${aiEngineNote()}`,
  item: true,
  consent: 'transactions',
  metering: 'ai',
  request: z.strictObject({ access_token: AccessToken, week_ending: DateString.optional() }),
  response: aiResponse('AiWeeklyReportResponse', WeeklyReportResult),
}));

// ---------- hosted Link (the page, the SDK and the page's own API) ----------
export const linkPage = /* @__PURE__ */ route('link.page', () => ({
  method: 'GET',
  path: '/link',
  tag: 'Hosted Link',
  summary: 'The hosted Link page: open {base_url}/link?token=<link_token> in a browser or the SDK modal.',
  auth: 'none',
  metering: 'none',
  dataAccess: true,
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const linkSdk = /* @__PURE__ */ route('link.sdk', () => ({
  method: 'GET',
  path: '/link/sdk.js',
  tag: 'Hosted Link',
  summary: 'The Link SDK: FincoreLink.create({ token, onSuccess, onExit }).open() shows Link in a modal.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'js',
}));
export const linkSession = /* @__PURE__ */ route('link.session', () => ({
  path: '/link/api/session',
  tag: 'Hosted Link',
  summary: 'What the Link page needs to render a session (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({ link_token: LinkTokenField }),
  response: LinkSession,
}));
export const linkInstitutions = /* @__PURE__ */ route('link.institutions', () => ({
  path: '/link/api/institutions',
  tag: 'Hosted Link',
  summary: 'Institution search for the Link page (as-you-type).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({
    link_token: LinkTokenField,
    query: z.string().max(LIMITS.institutionQueryMax),
    types: z.array(InstitutionType).min(1).max(10).optional(),
    country_codes: z.array(CountryCode).min(1).max(50).optional(),
  }),
  response: z.object({ institutions: z.array(Institution).max(LIMITS.institutionSearchMaxResults) }),
}));
export const linkConnect = /* @__PURE__ */ route('link.connect', () => ({
  path: '/link/api/connect',
  tag: 'Hosted Link',
  summary: 'Submit credentials for an institution (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({
    link_token: LinkTokenField,
    institution_id: Id,
    username: z.string().min(1).max(LIMITS.credentialMaxLength),
    password: z.string().min(1).max(LIMITS.credentialMaxLength),
    account_selection: LinkAccountSelectionFlag.optional(),
  }),
  response: LinkStep,
}));
export const linkMfa = /* @__PURE__ */ route('link.mfa', () => ({
  path: '/link/api/mfa',
  tag: 'Hosted Link',
  summary: 'Submit the one-time code of an MFA challenge (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({ link_token: LinkTokenField, code: z.string().min(1).max(LIMITS.mfaCodeMaxLength), account_selection: LinkAccountSelectionFlag.optional() }),
  response: LinkStep,
}));
export const linkMethod = /* @__PURE__ */ route('link.method', () => ({
  path: '/link/api/method',
  tag: 'Hosted Link',
  summary: 'How the page collects consent for an institution: its connector\'s method, and whether a statement upload is offered (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({ link_token: LinkTokenField, institution_id: Id }),
  response: LinkMethodAnswer,
}));
export const linkOauthStart = /* @__PURE__ */ route('link.oauth.start', () => ({
  path: '/link/api/oauth/start',
  tag: 'Hosted Link',
  summary: 'Start an OAuth consent: the provider URL to send the user to; they come back to /link/oauth/callback (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({ link_token: LinkTokenField, institution_id: Id }),
  response: z.object({
    authorize_url: z.string(),
    /**
     * Where the institution sends the user back: Link's own callback, or the link token's
     * redirect_uri with oauth_state_id (the sandbox's OAuth institutions), where the integrator's page
     * re-opens Link with received_redirect_uri.
     */
    returns_to: z.enum(['link', 'redirect_uri']),
  }),
}));
export const linkOauthCallback = /* @__PURE__ */ route('link.oauth.callback', () => ({
  method: 'GET',
  path: '/link/oauth/callback',
  tag: 'Hosted Link',
  summary: 'Where the provider sends the user back after consent (?state&code, or ?state&error): serves the Link page, which completes the consent.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const linkOauthComplete = /* @__PURE__ */ route('link.oauth.complete', () => ({
  path: '/link/api/oauth/complete',
  tag: 'Hosted Link',
  summary: 'Finish an OAuth consent with what the provider sent back to the callback (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({
    link_token: LinkTokenField,
    /** The redirect's `state` (or the `ref` providers that name it so send back). */
    state: z.string().min(1).max(LIMITS.tokenMaxLength),
    code: z.string().min(1).max(LINK_OAUTH_PARAM_MAX_LENGTH).optional(),
    error: z.string().min(1).max(LINK_OAUTH_PARAM_MAX_LENGTH).optional(),
    account_selection: LinkAccountSelectionFlag.optional(),
  }),
  response: LinkStep,
}));
export const linkConsent = /* @__PURE__ */ route('link.consent', () => ({
  path: '/link/api/consent',
  tag: 'Hosted Link',
  summary: 'Submit a read-only API key and secret, or a public wallet address, for an institution (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({
    link_token: LinkTokenField,
    institution_id: Id,
    api_key: z.string().min(1).max(LIMITS.credentialMaxLength).optional(),
    api_secret: z.string().min(1).max(LIMITS.credentialMaxLength).optional(),
    address: z.string().min(1).max(LINK_ADDRESS_MAX_LENGTH).optional(),
    account_selection: LinkAccountSelectionFlag.optional(),
  }),
  response: LinkStep,
}));
export const linkUpload = /* @__PURE__ */ route('link.upload', () => ({
  path: '/link/api/upload',
  tag: 'Hosted Link',
  summary: 'Upload a statement file (CSV, OFX, QFX, QBO) for an institution: the item is created with the file\'s data (called by the page).',
  description: `The file is sent base64-encoded in JSON. The body may be up to ${LINK_UPLOAD_BODY_MAX_BYTES} bytes (under the 6 MB a Lambda invocation carries), so a file of at most ${LINK_UPLOAD_MAX_FILE_BYTES} bytes fits.`,
  auth: 'link',
  metering: 'none',
  bodyMaxBytes: LINK_UPLOAD_BODY_MAX_BYTES,
  longRunning: true,
  request: z.strictObject({
    link_token: LinkTokenField,
    institution_id: Id,
    file_name: z.string().min(1).max(255),
    file_base64: StatementFileBase64,
    account_selection: LinkAccountSelectionFlag.optional(),
  }),
  response: LinkStep,
}));

// ---------- sandbox helpers (test keys only) ----------
export const sandboxPublicTokenCreate = /* @__PURE__ */ route('sandbox.public_token.create', () => ({
  path: '/v1/sandbox/public_token/create',
  tag: 'Sandbox',
  summary: 'Create a public token for a sandbox institution without the browser (CI helper).',
  testKeysOnly: true,
  dataAccess: true,
  request: z.strictObject({
    institution_id: Id,
    products: z.array(Product).min(1).max(PRODUCTS.length),
    username: z.string().min(1).max(LIMITS.clientNameMax).optional(),
  }),
  response: z.object({ public_token: z.string() }),
}));
export const sandboxFireWebhook = /* @__PURE__ */ route('sandbox.fire_webhook', () => ({
  path: '/v1/sandbox/fire_webhook',
  tag: 'Sandbox',
  summary: 'Fire a chosen webhook event for an item.',
  testKeysOnly: true,
  item: true,
  request: z.strictObject({
    access_token: AccessToken,
    webhook_type: z.enum(EVENT_TYPES),
  }),
  response: z.object({ fired: z.boolean(), event_id: z.string() }),
}));
export const sandboxItemResetLogin = /* @__PURE__ */ route('sandbox.item.reset_login', () => ({
  path: '/v1/sandbox/item/reset_login',
  tag: 'Sandbox',
  summary: 'Put an item into login_required (fires item.error).',
  testKeysOnly: true,
  item: true,
  request: tokenOnly,
  response: z.object({ reset_login: z.boolean() }),
}));

// ---------- webhooks (management) ----------
export const webhooksEndpointsList = /* @__PURE__ */ route('webhooks.endpoints.list', () => ({
  path: '/v1/webhooks/endpoints/list',
  tag: 'Webhooks',
  summary: "The key's environment's webhook endpoints.",
  dataAccess: true,
  request: z.strictObject({}),
  bodyOptional: true,
  response: z.object({ endpoints: z.array(WebhookEndpoint) }),
}));
export const webhooksEndpointsCreate = /* @__PURE__ */ route('webhooks.endpoints.create', () => ({
  path: '/v1/webhooks/endpoints/create',
  tag: 'Webhooks',
  summary: 'Register an endpoint (idempotent per URL); the environment signing secret is returned only when this call created it.',
  dataAccess: true,
  request: z.strictObject({ url: httpUrlField(WEBHOOK_URL_ACCEPTS) }),
  response: z.object({ endpoint: WebhookEndpoint, created: z.boolean(), secret: z.string().nullable() }),
}));
export const webhooksEndpointsDelete = /* @__PURE__ */ route('webhooks.endpoints.delete', () => ({
  path: '/v1/webhooks/endpoints/delete',
  tag: 'Webhooks',
  summary: 'Delete an endpoint; its pending deliveries are cancelled.',
  dataAccess: true,
  request: z.strictObject({ endpoint_id: Id }),
  response: z.object({ deleted: z.boolean() }),
}));
export const webhooksSecretRotate = /* @__PURE__ */ route('webhooks.secret.rotate', () => ({
  path: '/v1/webhooks/secret/rotate',
  tag: 'Webhooks',
  summary: 'Rotate the signing secret; the old one keeps signing (beside the new) for the grace period.',
  dataAccess: true,
  request: z.strictObject({ grace_period_hours: z.int().min(0).max(168).optional() }),
  bodyOptional: true,
  response: z.object({
    secret: z.string(),
    previous_secret_expires_at: z.string(),
    signing_secrets: z
      .array(
        z.object({
          last4: z.string().describe('The last four characters of the secret, to tell secrets apart.'),
          expires_at: z.string().nullable().describe('When it stops signing; null for the current secret (it signs until the next rotation).'),
        }),
      )
      .describe('Every secret that signs deliveries after this rotation, the new one first: at most 5.'),
  }),
}));
export const webhooksDeliveriesList = /* @__PURE__ */ route('webhooks.deliveries.list', () => ({
  path: '/v1/webhooks/deliveries/list',
  tag: 'Webhooks',
  summary: 'Recent deliveries, newest first, with every attempt (time, status code, latency, error).',
  dataAccess: true,
  request: z.strictObject({ count: Count.optional(), cursor: z.string().max(LIMITS.cursorMaxLength).optional() }),
  bodyOptional: true,
  response: z.object({ deliveries: z.array(WebhookDelivery), next_cursor: z.string().nullable() }),
}));
export const webhooksEventsReplay = /* @__PURE__ */ route('webhooks.events.replay', () => ({
  path: '/v1/webhooks/events/replay',
  tag: 'Webhooks',
  summary: 'Deliver an event again (to one endpoint or all), as a new delivery with the same event id.',
  dataAccess: true,
  request: z.strictObject({ event_id: Id, endpoint_id: Id.optional() }),
  response: z.object({ delivery_ids: z.array(z.string()) }),
}));

// ---------- GraphQL (functions/surfaces/graphql) ----------
export const graphqlQuery = /* @__PURE__ */ route('graphql.query', () => ({
  protocol: 'graphql',
  dataAccess: true,
  path: '/v1/graphql',
  tag: 'GraphQL',
  summary: 'Read-only GraphQL gateway over items, accounts, transactions, institutions, categories and the data products.',
  description:
    'GraphQL over HTTP (application/json or application/graphql-response+json). Errors follow the GraphQL response format, ' +
    'with our error type, code and request_id in each error\'s extensions. One HTTP request counts as one API request.',
  request: z.object({
    query: z.string().min(1).max(LIMITS.graphqlQueryMaxLength),
    variables: z.record(z.string(), z.unknown()).nullable().optional(),
    operationName: z.string().max(LIMITS.idMaxLength).nullable().optional(),
    extensions: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
  response: z.looseObject({ data: z.unknown().optional(), errors: z.array(z.unknown()).optional() }),
}));
export const graphqlIde = /* @__PURE__ */ route('graphql.ide', () => ({
  method: 'GET',
  path: '/v1/graphql',
  tag: 'GraphQL',
  summary: 'GraphiQL, the interactive GraphQL IDE (a web page, assets bundled).',
  description:
    'The page itself is small and never cached (it carries a fresh CSP nonce); its scripts and styles are served from the same path ' +
    'with `?asset=<name>&v=<sha256>`, immutable and cached for a year.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'html',
}));

// ---------- MCP (functions/surfaces/mcp; tools in functions/contracts/mcp-tools.ts) ----------
export const mcpCall = /* @__PURE__ */ route('mcp.call', () => ({
  protocol: 'mcp',
  path: '/mcp',
  tag: 'MCP',
  summary: 'The Model Context Protocol server (Streamable HTTP, stateless, JSON responses).',
  description:
    'JSON-RPC 2.0 messages of the Model Context Protocol: initialize, tools/list, tools/call. Each HTTP request counts as one ' +
    'request against the API quota, or the AI quota when it calls an ai_* tool.',
  request: z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string().max(LIMITS.idMaxLength) }),
  response: z.looseObject({ jsonrpc: z.literal('2.0') }),
}));
export const mcpDescribe = /* @__PURE__ */ route('mcp.describe', () => ({
  method: 'GET',
  path: '/mcp',
  tag: 'MCP',
  summary: 'A descriptor of the MCP server and its tools (with their input schemas).',
  auth: 'none',
  metering: 'none',
  request: null,
  response: loose('The server name, version, transport, authentication and tools.'),
}));
export const discoveryMcp = /* @__PURE__ */ route('discovery.mcp', () => ({
  method: 'GET',
  path: '/.well-known/mcp.json',
  tag: 'Discovery',
  summary: 'MCP discovery document: where the server is and how to authenticate.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: loose('The MCP server descriptor.'),
}));
// ---------- the Plaid-compatible API (functions/surfaces/plaid; docs/plaid-migration.md) ----------
// One route for every Plaid endpoint served: the greedy path takes Plaid's own paths below /plaid
// (`/plaid/transactions/sync`), as a Plaid client configured with the base path `{base_url}/plaid` calls them.
export const plaidCall = /* @__PURE__ */ route('plaid.call', () => ({
  protocol: 'plaid',
  unlisted: true,
  dataAccess: true,
  path: '/plaid/{proxy+}',
  tag: 'Plaid',
  summary: 'The Plaid-compatible API: Plaid request and response shapes for Link, items, accounts, transactions and webhook keys.',
  description:
    'POST /plaid/<Plaid endpoint path> with Plaid\'s JSON body; client_id (the application id) and secret (the API key) in the ' +
    'PLAID-CLIENT-ID and PLAID-SECRET headers or the body. Answers and errors are Plaid\'s. Each HTTP request counts as one API request.',
  request: z.looseObject({ client_id: z.string().optional(), secret: z.string().optional() }),
  response: z.looseObject({ request_id: z.string() }),
}));

export const discoveryAiPlugin = /* @__PURE__ */ route('discovery.ai-plugin', () => ({
  method: 'GET',
  path: '/.well-known/ai-plugin.json',
  tag: 'Discovery',
  summary: 'AI plugin manifest pointing at openapi.json and the MCP server.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: loose('An ai-plugin.json manifest.'),
}));

// ---------- the console (its page and its own API; functions/contracts/console-schemas.ts) ----------
// Called by the console's web app only (Route.console): POST JSON under /console/api/, the path being
// the route id without `console.` and with its dots as slashes. Not in openapi.json or llms.txt.
export const consolePage = /* @__PURE__ */ route('console.page', () => ({
  method: 'GET',
  path: '/console',
  tag: 'Console',
  summary: 'The console web app: the page shell at /console/ and its script and stylesheet (?asset=&v=).',
  auth: 'none',
  metering: 'none',
  console: true,
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const consoleAuthLogin = /* @__PURE__ */ route('console.auth.login', () => ({
  path: '/console/api/auth/login',
  tag: 'Console',
  summary: 'Console sign-in with e-mail address and password (local identity): sets the session cookie.',
  auth: 'none',
  metering: 'none',
  console: true,
  dataAccess: true,
  request: SignInRequest,
  response: SignInAnswer,
}));
export const consoleAuthSignup = /* @__PURE__ */ route('console.auth.signup', () => ({
  path: '/console/api/auth/signup',
  tag: 'Console',
  summary: 'Console sign-up through an invitation link (local identity): creates the account, joins, signs in.',
  auth: 'none',
  metering: 'none',
  console: true,
  dataAccess: true,
  request: SignUpRequest,
  response: SignUpAnswer,
}));
export const consoleAuthStart = /* @__PURE__ */ route('console.auth.start', () => ({
  method: 'GET',
  path: '/console/api/auth/start',
  tag: 'Console',
  summary: 'Begins a Cognito hosted UI sign-in (authorization code with PKCE): redirects to the user pool.',
  auth: 'none',
  metering: 'none',
  console: true,
  dataAccess: true,
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const consoleAuthCallback = /* @__PURE__ */ route('console.auth.callback', () => ({
  method: 'GET',
  path: '/console/api/auth/callback',
  tag: 'Console',
  summary: 'Where Cognito returns after sign-in (?code&state): starts the console session, back to /console/.',
  auth: 'none',
  metering: 'none',
  console: true,
  dataAccess: true,
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const consoleAuthLogout = /* @__PURE__ */ route('console.auth.logout', () => ({
  path: '/console/api/auth/logout',
  tag: 'Console',
  summary: 'Console sign-out: ends this session and clears its cookie.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: EmptyRequest,
  bodyOptional: true,
  response: EmptyAnswer,
}));
export const consoleSession = /* @__PURE__ */ route('console.session', () => ({
  path: '/console/api/session',
  tag: 'Console',
  summary: 'The signed-in console user, their organisations with their role in each, and the CSRF token.',
  auth: 'session',
  metering: 'none',
  console: true,
  csrfExempt: true,
  request: EmptyRequest,
  bodyOptional: true,
  response: SessionAnswer,
}));
export const consoleOrgsCreate = /* @__PURE__ */ route('console.orgs.create', () => ({
  path: '/console/api/orgs/create',
  tag: 'Console',
  summary: 'Create an organisation (team); the console user creating it becomes its first owner.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: CreateOrganizationInput,
  response: CreateOrganizationAnswer,
}));
export const consoleOrgsDelete = /* @__PURE__ */ route('console.orgs.delete', () => ({
  path: '/console/api/orgs/delete',
  tag: 'Console',
  summary: 'Delete an organisation (owners only, its name typed again): revokes keys, detaches applications.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: DeleteOrganizationInput,
  response: DeleteOrganizationAnswer,
}));
export const consoleMembersList = /* @__PURE__ */ route('console.members.list', () => ({
  path: '/console/api/members/list',
  tag: 'Console',
  summary: 'The members of an organisation with their console roles.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListMembersInput,
  response: ListMembersAnswer,
}));
export const consoleMembersUpdate = /* @__PURE__ */ route('console.members.update', () => ({
  path: '/console/api/members/update',
  tag: 'Console',
  summary: 'Change the role of a member (only owners grant or take away the owner role).',
  auth: 'session',
  metering: 'none',
  console: true,
  request: UpdateMemberInput,
  response: UpdateMemberAnswer,
}));
export const consoleMembersRemove = /* @__PURE__ */ route('console.members.remove', () => ({
  path: '/console/api/members/remove',
  tag: 'Console',
  summary: 'Remove a member from an organisation, or leave it (the last owner cannot).',
  auth: 'session',
  metering: 'none',
  console: true,
  request: RemoveMemberInput,
  response: RemoveMemberAnswer,
}));
export const consoleInvitationsCreate = /* @__PURE__ */ route('console.invitations.create', () => ({
  path: '/console/api/invitations/create',
  tag: 'Console',
  summary: 'Invite an e-mail address with a role: the invitation link (valid 7 days) is shown this once.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: CreateInvitationInput,
  response: CreateInvitationAnswer,
}));
export const consoleInvitationsList = /* @__PURE__ */ route('console.invitations.list', () => ({
  path: '/console/api/invitations/list',
  tag: 'Console',
  summary: 'The open invitations of an organisation (pending, unexpired), never their links.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListInvitationsInput,
  response: ListInvitationsAnswer,
}));
export const consoleInvitationsRevoke = /* @__PURE__ */ route('console.invitations.revoke', () => ({
  path: '/console/api/invitations/revoke',
  tag: 'Console',
  summary: 'Revoke a pending invitation so that its link no longer works.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: RevokeInvitationInput,
  response: RevokeInvitationAnswer,
}));
export const consoleInvitationsAccept = /* @__PURE__ */ route('console.invitations.accept', () => ({
  path: '/console/api/invitations/accept',
  tag: 'Console',
  summary: 'Accept an invitation as the signed-in user (signed in with the invited address): join with its role.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: AcceptInvitationInput,
  response: AcceptInvitationAnswer,
}));
export const consoleApplicationsList = /* @__PURE__ */ route('console.applications.list', () => ({
  path: '/console/api/applications/list',
  tag: 'Console',
  summary: 'The applications an organisation owns, with plan and live access.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListApplicationsInput,
  response: ListApplicationsAnswer,
}));
export const consoleApplicationsCreate = /* @__PURE__ */ route('console.applications.create', () => ({
  path: '/console/api/applications/create',
  tag: 'Console',
  summary: 'Create an application in an organisation (admins and owners), on the free plan unless named.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: CreateApplicationInput,
  response: CreateApplicationAnswer,
}));
export const consoleApplicationsUpdate = /* @__PURE__ */ route('console.applications.update', () => ({
  path: '/console/api/applications/update',
  tag: 'Console',
  summary: 'Rename an application or change its plan; its active keys follow the new plan at once.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: UpdateApplicationInput,
  response: UpdateApplicationAnswer,
}));
export const consoleKeysList = /* @__PURE__ */ route('console.keys.list', () => ({
  path: '/console/api/keys/list',
  tag: 'Console',
  summary: 'The secret keys of an application: prefix and last four, status, created, last used.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListKeysInput,
  response: ListKeysAnswer,
}));
export const consoleKeysCreate = /* @__PURE__ */ route('console.keys.create', () => ({
  path: '/console/api/keys/create',
  tag: 'Console',
  summary: 'Issue a secret key for an environment (it replaces the active one); the key is shown this once.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: CreateKeyInput,
  response: CreateKeyAnswer,
}));
export const consoleKeysRevoke = /* @__PURE__ */ route('console.keys.revoke', () => ({
  path: '/console/api/keys/revoke',
  tag: 'Console',
  summary: 'Revoke a secret key of an application: requests with it are refused from then on.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: RevokeKeyInput,
  response: RevokeKeyAnswer,
}));
export const consoleWebhooksEndpointsList = /* @__PURE__ */ route('console.webhooks.endpoints.list', () => ({
  path: '/console/api/webhooks/endpoints/list',
  tag: 'Console',
  summary: 'The webhook endpoints of an application environment, for the console.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListEndpointsInput,
  response: ListEndpointsAnswer,
}));
export const consoleWebhooksEndpointsCreate = /* @__PURE__ */ route('console.webhooks.endpoints.create', () => ({
  path: '/console/api/webhooks/endpoints/create',
  tag: 'Console',
  summary: 'Register a webhook endpoint from the console; a newly made signing secret is shown this once.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: CreateEndpointInput,
  response: CreateEndpointAnswer,
}));
export const consoleWebhooksEndpointsDelete = /* @__PURE__ */ route('console.webhooks.endpoints.delete', () => ({
  path: '/console/api/webhooks/endpoints/delete',
  tag: 'Console',
  summary: 'Delete a webhook endpoint from the console; its pending deliveries stop.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: DeleteEndpointInput,
  response: DeleteEndpointAnswer,
}));
export const consoleWebhooksSecretRotate = /* @__PURE__ */ route('console.webhooks.secret.rotate', () => ({
  path: '/console/api/webhooks/secret/rotate',
  tag: 'Console',
  summary: 'Rotate the webhook signing secret from the console, with a grace period for the old one.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: RotateSecretInput,
  response: RotateSecretAnswer,
}));
export const consoleWebhooksDeliveriesList = /* @__PURE__ */ route('console.webhooks.deliveries.list', () => ({
  path: '/console/api/webhooks/deliveries/list',
  tag: 'Console',
  summary: 'The webhook delivery log with every attempt (status, latency, error); dead letters by status.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListDeliveriesInput,
  response: ListDeliveriesAnswer,
}));
export const consoleWebhooksEventsReplay = /* @__PURE__ */ route('console.webhooks.events.replay', () => ({
  path: '/console/api/webhooks/events/replay',
  tag: 'Console',
  summary: 'Replay a webhook event from the console, as a new delivery with the same event id.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ReplayEventInput,
  response: ReplayEventAnswer,
}));
export const consoleRequestsSearch = /* @__PURE__ */ route('console.requests.search', () => ({
  path: '/console/api/requests/search',
  tag: 'Console',
  summary: 'Search the request log by request id, or by time range with route and status filters.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: RequestSearchInput,
  response: RequestSearchAnswer,
}));
export const consoleUsageGet = /* @__PURE__ */ route('console.usage.get', () => ({
  path: '/console/api/usage/get',
  tag: 'Console',
  summary: 'Monthly API and AI usage against the plan, per day, connected users and the usage notices.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: UsageInput,
  response: UsageAnswer,
}));
export const consoleItemsGet = /* @__PURE__ */ route('console.items.get', () => ({
  path: '/console/api/items/get',
  tag: 'Console',
  summary: 'Find an item by item_id for support: status, connector, last sync and last sync error.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ItemInput,
  response: ItemAnswer,
}));
export const consoleItemsRefresh = /* @__PURE__ */ route('console.items.refresh', () => ({
  path: '/console/api/items/refresh',
  tag: 'Console',
  summary: 'Ask for a refresh of an item from the console (developers and up), as items/refresh does.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ItemInput,
  response: ItemRefreshAnswer,
}));
export const consoleAuditList = /* @__PURE__ */ route('console.audit.list', () => ({
  path: '/console/api/audit/list',
  tag: 'Console',
  summary: 'The audit log of an organisation (admins and owners): who did what, when and from where.',
  auth: 'session',
  metering: 'none',
  console: true,
  request: ListAuditInput,
  response: ListAuditAnswer,
}));

// ---------- the browsable docs (functions/surfaces/docs; paths in functions/contracts/docs-links.ts) ----------
export const docsPage = /* @__PURE__ */ route('docs.page', () => ({
  method: 'GET',
  path: '/docs',
  tag: 'Discovery',
  summary: 'The interactive API reference: this document rendered by Redoc (assets bundled), with a curl sample per operation.',
  description:
    'A web page. Deep links: `#operation/<operationId>` and `#tag/<tag>`. The page itself is small and never cached (it carries a fresh ' +
    'CSP nonce); its script is served from the same path with `?asset=<name>&v=<sha256>`, immutable and cached for a year.',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const docsErrors = /* @__PURE__ */ route('docs.errors', () => ({
  method: 'GET',
  path: '/docs/errors',
  tag: 'Discovery',
  summary: 'Every error code with its HTTP status, type, message and what to do: the page `documentation_url` points at (`#<code>`).',
  auth: 'none',
  metering: 'none',
  request: null,
  response: z.string(),
  responseKind: 'html',
}));

// ---------- hosted Link: account selection and the sandbox's OAuth redirect (functions/app/link.ts) ----------
export const linkAccountsSelect = /* @__PURE__ */ route('link.accounts.select', () => ({
  path: '/link/api/accounts/select',
  tag: 'Hosted Link',
  summary: 'The accounts the user chose to share after a select_accounts step: the item\'s consent is limited to them and the public token becomes exchangeable (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({
    link_token: LinkTokenField,
    public_token: z.string().min(1).max(LIMITS.tokenMaxLength),
    account_ids: z
      .array(Id)
      .min(1, 'choose at least one account')
      .max(LIMITS.accountIdsMax)
      .refine((ids) => new Set(ids).size === ids.length, 'account_ids must not repeat'),
  }),
  response: LinkStep,
}));
export const linkOauthResume = /* @__PURE__ */ route('link.oauth.resume', () => ({
  path: '/link/api/oauth/resume',
  tag: 'Hosted Link',
  summary: 'Finish an OAuth consent from the URL the integrator\'s redirect_uri page was opened at (received_redirect_uri, with oauth_state_id), as Plaid\'s OAuth flow resumes (called by the page).',
  auth: 'link',
  metering: 'none',
  request: z.strictObject({
    link_token: LinkTokenField,
    received_redirect_uri: z.string().min(1).max(LIMITS.stringMaxLength),
    account_selection: LinkAccountSelectionFlag.optional(),
  }),
  response: LinkStep,
}));
export const linkSandboxOauthAuthorize = /* @__PURE__ */ route('link.sandbox.oauth.authorize', () => ({
  method: 'GET',
  path: '/link/sandbox/oauth/authorize',
  tag: 'Hosted Link',
  summary: 'The simulated bank consent page of the sandbox\'s OAuth institutions (test link tokens): its Allow and Deny buttons submit the form to POST /link/sandbox/oauth/authorize. A GET never decides.',
  auth: 'none',
  metering: 'none',
  // Reads the Link session the consent belongs to.
  dataAccess: true,
  request: null,
  response: z.string(),
  responseKind: 'html',
}));
export const linkSandboxOauthDecide = /* @__PURE__ */ route('link.sandbox.oauth.decide', () => ({
  method: 'POST',
  path: '/link/sandbox/oauth/authorize',
  tag: 'Hosted Link',
  summary: 'The sandbox bank page\'s form (application/x-www-form-urlencoded: session, state, decision=allow|deny): records the answer against the consent, then redirects (303) to the link token\'s redirect_uri (a loopback or allowlisted one) with oauth_state_id, or to /link/oauth/callback.',
  auth: 'none',
  metering: 'none',
  // Records the decision on the Link session the consent belongs to.
  dataAccess: true,
  // A browser form, not JSON: the handler reads the form fields itself.
  request: null,
  response: z.string(),
  responseKind: 'html',
}));

// ---------- per-item webhook URLs ----------
export const itemWebhookUpdate = /* @__PURE__ */ route('item.webhook.update', () => ({
  path: '/v1/item/webhook/update',
  tag: 'Items',
  summary: 'Set, change or clear (null) the item\'s own webhook URL: events about the item go there besides the environment\'s endpoints.',
  description:
    'The URL is checked as an endpoint URL is (public https for live keys; loopback only for test keys of a local server) but is not an endpoint: it does not count against the environment\'s endpoint cap and is not listed. Deliveries to it are signed with the environment\'s secret and appear in the delivery log with `destination: item`. An `item.webhook_updated` event announces the change (to the new URL too). `webhook_secret` is the environment\'s signing secret when this call created it.',
  item: true,
  dataAccess: true,
  request: z.strictObject({
    access_token: AccessToken,
    webhook: httpUrlField(WEBHOOK_URL_ACCEPTS).nullable().meta({ description: 'The new URL, or null to stop sending this item\'s events to a URL of its own.', example: 'https://example.com/webhooks/fincore' }),
  }),
  response: z.object({
    item: Item,
    webhook: z.string().nullable().meta({ description: 'The item\'s webhook URL from now on; null when cleared.' }),
    webhook_secret: ShownWebhookSecret,
  }),
}));

/** Every route, in the order the stack, openapi.json and llms.txt list them. */
const DECLARED_ROUTES = [
  discoveryOpenapi,
  discoveryLlms,
  discoveryLlmsFull,
  docsPage,
  docsErrors,
  healthGet,
  linkTokenCreate,
  linkTokenExchange,
  itemsGet,
  itemsRemove,
  itemsRefresh,
  itemsStatementsUpload,
  itemWebhookUpdate,
  institutionsSearch,
  institutionsGetById,
  accountsGet,
  accountsBalanceGet,
  transactionsSync,
  transactionsGet,
  identityGet,
  incomeGet,
  liabilitiesGet,
  recurringGet,
  categoriesGet,
  assetsGet,
  investmentsHoldingsGet,
  investmentsTransactionsGet,
  aiCategorize,
  aiSubscriptions,
  aiCashflow,
  aiMerchant,
  aiHealthScore,
  aiFinancialSummary,
  aiFraudRisk,
  aiPurchaseAnalysis,
  aiWeeklyReport,
  linkPage,
  linkSdk,
  linkSession,
  linkInstitutions,
  linkConnect,
  linkMfa,
  linkMethod,
  linkOauthStart,
  linkOauthCallback,
  linkOauthComplete,
  linkConsent,
  linkUpload,
  linkAccountsSelect,
  linkOauthResume,
  linkSandboxOauthAuthorize,
  linkSandboxOauthDecide,
  sandboxPublicTokenCreate,
  sandboxFireWebhook,
  sandboxItemResetLogin,
  webhooksEndpointsList,
  webhooksEndpointsCreate,
  webhooksEndpointsDelete,
  webhooksSecretRotate,
  webhooksDeliveriesList,
  webhooksEventsReplay,
  graphqlQuery,
  graphqlIde,
  mcpCall,
  mcpDescribe,
  discoveryMcp,
  discoveryAiPlugin,
  plaidCall,
  consolePage,
  consoleAuthLogin,
  consoleAuthSignup,
  consoleAuthStart,
  consoleAuthCallback,
  consoleAuthLogout,
  consoleSession,
  consoleOrgsCreate,
  consoleOrgsDelete,
  consoleMembersList,
  consoleMembersUpdate,
  consoleMembersRemove,
  consoleInvitationsCreate,
  consoleInvitationsList,
  consoleInvitationsRevoke,
  consoleInvitationsAccept,
  consoleApplicationsList,
  consoleApplicationsCreate,
  consoleApplicationsUpdate,
  consoleKeysList,
  consoleKeysCreate,
  consoleKeysRevoke,
  consoleWebhooksEndpointsList,
  consoleWebhooksEndpointsCreate,
  consoleWebhooksEndpointsDelete,
  consoleWebhooksSecretRotate,
  consoleWebhooksDeliveriesList,
  consoleWebhooksEventsReplay,
  consoleRequestsSearch,
  consoleUsageGet,
  consoleItemsGet,
  consoleItemsRefresh,
  consoleAuditList,
] as const satisfies readonly Route[];

/** A route of the table, literal types kept (see DeclaredRoute): what defineOperation binds a handler to. */
export type TableRoute = (typeof DECLARED_ROUTES)[number];
/** Every route id in the table, as a union of literals. */
export type RouteId = TableRoute['id'];
/** The declared route with this id, literal types kept (see DeclaredRoute). */
export type RouteById<Id extends RouteId> = Extract<TableRoute, { id: Id }>;
/**
 * The parsed JSON body a route's handler receives (zod output); an empty object on bodyless routes;
 * the raw body text (UTF-8 decoded, size-checked) on protocol routes, whose library parses it.
 */
export type RequestOfRoute<R extends Route> = R['protocol'] extends Protocol ? string : RequestBody<R['request']>;
export type RequestOf<Id extends RouteId> = RequestOfRoute<RouteById<Id>>;
type RequestBody<Schema> = Schema extends z.ZodType ? z.output<Schema> : Record<string, never>;
/**
 * What a route's handler returns: the input of its response schema, since that is what the schema
 * checks (in tests) and what is serialised as is.
 */
export type ResponseOfRoute<R extends Route> = z.input<R['response']>;
export type ResponseOf<Id extends RouteId> = ResponseOfRoute<RouteById<Id>>;

/**
 * The table as plain routes, for what needs every route (CDK, the local server, openapi.json,
 * llms.txt, GraphQL, MCP, the fallback's 405 answers, tests). A handler reaches its own route through
 * its const instead: referencing ROUTES, ROUTES_BY_ID or routeById puts every route in its bundle.
 */
export const ROUTES: readonly Route[] = DECLARED_ROUTES;

export const ROUTES_BY_ID: ReadonlyMap<string, Route> = /* @__PURE__ */ new Map(/* @__PURE__ */ ROUTES.map((r) => [r.id, r]));

export function routeById<Id extends RouteId>(id: Id): RouteById<Id>;
export function routeById(id: string): Route;
export function routeById(id: string): Route {
  const found = ROUTES_BY_ID.get(id);
  if (!found) throw new Error(`No route with id ${id}`);
  return found;
}

/**
 * The routes metered against the AI quota (`metering: 'ai'`), by id: what the console's usage page
 * counts as AI requests in the request log. A list of its own, so that code needing only the ids does
 * not carry the table (test/unit/routes.test.ts checks it against the table).
 */
export const AI_METERED_ROUTE_IDS = [
  'ai.categorize',
  'ai.subscriptions',
  'ai.cashflow',
  'ai.merchant',
  'ai.health-score',
  'ai.financial-summary',
  'ai.fraud-risk',
  'ai.purchase-analysis',
  'ai.weekly-report',
] as const satisfies readonly RouteId[];

/** Whether a route is part of our public contract (openapi.json, llms.txt, the SDKs): every route but the console's own and the unlisted. */
export const inPublicContract = (r: Route): boolean => !r.console && !r.unlisted;

/** The last segment of a greedy path (`/plaid/{proxy+}`): one or more segments of any path below its prefix, as API Gateway's. */
export const GREEDY_SEGMENT = '{proxy+}';

/**
 * The prefix below which a greedy path answers (`/plaid/` for `/plaid/{proxy+}`: `/plaid/item/get`,
 * not `/plaid` itself), or null for a path of fixed segments.
 */
export function greedyPrefixOf(path: string): string | null {
  return path.endsWith(`/${GREEDY_SEGMENT}`) ? path.slice(0, -GREEDY_SEGMENT.length) : null;
}

/** The alias prefix: /api/v1/... answers exactly like /v1/... */
export const ALIAS_PREFIX = '/api';

/** The paths with an `/api` alias: every `/v1/` route, and the MCP server (the spec names `/api/mcp`). */
const hasAlias = (r: Route) => r.path.startsWith('/v1/') || r.path === '/mcp';

export function aliasPaths(r: Route): string[] {
  return hasAlias(r) ? [r.path, ALIAS_PREFIX + r.path] : [r.path];
}
