// Every request-shape bound and plan limit in one place. Route schemas, the limiter,
// the docs generator and the tests read these; nothing else spells the numbers.

export const LIMITS = {
  bodyMaxBytes: 1024 * 1024,
  clientNameMax: 120,
  institutionQueryMax: 120,
  institutionSearchMaxResults: 20,
  pageDefault: 100,
  pageMax: 500,
  /** Offsets beyond this are rejected: deep paging past 24 months of data is a client bug. */
  offsetMax: 1_000_000,
  accountIdsMax: 100,
  aiTransactionsMax: 1000,
  /**
   * The largest amount (major units, either sign) an AI request may carry: far above any real
   * transaction, and small enough that cents, sums over 1,000 rows and compounding stay finite.
   */
  aiAmountMax: 1_000_000_000_000,
  /**
   * How long an AI route waits for its model before answering with the rules result: well inside
   * API Gateway's 29 s integration limit and the AI functions' own timeout (lib/stage-config.ts).
   */
  aiModelTimeoutMs: 8_000,
  descriptorMaxLength: 500,
  idMaxLength: 128,
  tokenMaxLength: 256,
  cursorMaxLength: 1024,
  stringMaxLength: 1000,
  graphqlQueryMaxLength: 100_000,
  credentialMaxLength: 200,
  mfaCodeMaxLength: 16,
  /** Wrong credentials or MFA codes one link token accepts before the session is locked. */
  linkAttemptsMax: 5,
  linkTokenLifetimeMinutes: 30,
  /**
   * Calls of the Link page's own API (/link/api/...) per minute, per link token and per client
   * address. A person using the page makes a handful per screen (the as-you-type search is debounced
   * to one call per pause); an address is shared by many people behind one NAT, hence the headroom.
   */
  linkCallsPerTokenPerMinute: 60,
  linkCallsPerAddressPerMinute: 300,
  /** A new item's Link connection must commit within this long, or the reaper removes what it wrote. */
  linkConnectDeadlineMinutes: 15,
  balanceCacheMinutes: 15,
  webhookTimestampWindowMinutes: 5,
  /** Burst capacity is this many seconds' worth of the plan's rate. */
  burstMultiplier: 3,
  /**
   * DynamoDB's write ceiling for one partition (write units per second). A key's metering rows are
   * split into shards, each in its own partition (functions/core/rate-limit.ts `shardsFor`).
   */
  partitionWritesPerSecond: 1000,
  /**
   * The share of that ceiling one metering shard may take when the whole key bursts (3x its rate):
   * well under it, so a shard stays clear of throttling with room for refused requests' writes.
   */
  meteringShardShareOfPartition: 0.3,
  // ---------- GraphQL (functions/surfaces/graphql; checked before a query runs) ----------
  /** Nesting of selections below the root, introspection excluded (graphql's own rule bounds that). */
  graphqlMaxDepth: 10,
  /**
   * The cost estimate a query may reach: every object a query resolves costs 1, list fields count
   * as many objects as their `count` argument (or its default), `access_tokens` entries, or
   * graphqlListEstimate when nothing bounds them, plus graphqlReadCost per storage read. Three items
   * with their accounts and 100 transactions each cost about 12,000.
   */
  graphqlMaxCost: 50_000,
  /** How many elements the cost estimate assumes for a list with no count (accounts, holdings, streams). */
  graphqlListEstimate: 20,
  /** What one `__schema` or `__type` costs: the whole schema, whatever is selected of it. */
  graphqlIntrospectionCost: 1_000,
  /** Access tokens one query may name, over every `item` and `items` field (aliases included). */
  graphqlItemsMax: 10,
  /**
   * What each item field that reads storage adds to the cost estimate, per item in scope (accounts,
   * transactions, transactions_sync, the products, Account.transactions): every occurrence with its
   * own arguments is a read of its own (an alias with other dates reads the history again), so this
   * bounds how many such reads one request may make (graphqlMaxCost / graphqlReadCost).
   */
  graphqlReadCost: 1_000,
  // Statement import (CSV, OFX, QFX): every parser checks these before and while it reads a file, so a
  // hostile or runaway upload fails fast with a clear error instead of exhausting the Lambda.
  /** Largest statement file accepted, in bytes, checked before decoding (a decade of a busy account fits in far less). */
  statementMaxBytes: 10 * 1024 * 1024,
  /** Most transactions (CSV rows, OFX STMTTRN/INVTRAN aggregates) one file may hold. */
  statementMaxTransactions: 100_000,
  /**
   * Most transactions one uploaded file may bring into an item: an upload is imported within its
   * request (about 0.7 ms a transaction, measured in bench/statement-import.ts), which must end inside
   * the upload functions' 29-second timeout with room to spare. Split a longer history into files.
   */
  statementUploadMaxTransactions: 20_000,
  /** Longest single CSV field, in characters (a runaway unclosed quote otherwise swallows the file). */
  statementCsvMaxFieldChars: 10_000,
  /** Most columns one CSV record may have. */
  statementCsvMaxColumns: 200,
  /** Deepest nesting of OFX elements (a real statement nests about 8 deep; fuzzed input can nest without end). */
  statementOfxMaxDepth: 64,
  /** Longest value of one OFX element, in characters (a memo is at most 255 in the OFX spec; one stored row must stay far below DynamoDB's 400 KB). */
  statementOfxMaxValueChars: 10_000,
} as const;

/**
 * How long an event and each delivery of it (with its attempts) are kept: the table's TTL removes
 * them this many days after they were created (functions/data/webhooks-repo.ts). Thirty days covers
 * replaying a missed event and reading the delivery log well past the retry schedule (the last
 * attempt is about 2.6 hours in), matches what webhook providers commonly keep, and bounds the
 * largest share of the table's storage, which point-in-time recovery bills again. The spec sets no
 * event retention or replay window.
 */
export const EVENT_RETENTION_DAYS = 30;

/**
 * The first stage of a new item's history load: the transactions of the most recent this many days
 * (counted back from today, inclusive), committed and announced before the rest. Plaid's initial
 * update covers the last 30 days, so an integrator written for its webhook and status semantics sees
 * the same split; and the recent month is what an app shows first (a balance screen, this month's
 * spending), while the older history (some 23 of 24 months) can follow seconds later.
 */
export const INITIAL_UPDATE_DAYS = 30;

/**
 * The body limit of link.upload and items.statements.upload: 6 MiB less 64 KiB. A Lambda invocation
 * carries at most 6 MB (API Gateway's own 10 MB limit is the looser one), and the proxy event wraps
 * the body with headers and request context: 64 KiB is kept for them. (Written out: esbuild keeps a
 * top-level `6 * 1024 * 1024 - 64 * 1024` in every bundle that imports this module, used or not.)
 */
export const LINK_UPLOAD_BODY_MAX_BYTES = 6_225_920;
/** The largest file link.upload takes through the gateway: base64 turns 3 bytes into 4, and 4 KiB is kept for the other fields. */
export const LINK_UPLOAD_MAX_FILE_BYTES = /* @__PURE__ */ (() => Math.floor((LINK_UPLOAD_BODY_MAX_BYTES - 4096) / 4) * 3)();

export const PLANS = {
  free: { apiPerMonth: 10_000, aiPerMonth: 1_000, connectedUsers: 100, ratePerSecond: 10, liveAccess: false },
  startup: { apiPerMonth: 500_000, aiPerMonth: 50_000, connectedUsers: 5_000, ratePerSecond: 50, liveAccess: true },
  growth: { apiPerMonth: 5_000_000, aiPerMonth: 500_000, connectedUsers: 50_000, ratePerSecond: 200, liveAccess: true },
  enterprise: { apiPerMonth: null, aiPerMonth: null, connectedUsers: null, ratePerSecond: 1000, liveAccess: true },
} as const;
export type PlanName = keyof typeof PLANS;

/**
 * Scheduled refresh cadence per plan: hours between two scheduled refreshes of one item. Plaid-style
 * aggregators refresh transactions a few times a day; on-demand `/v1/items/refresh` covers the rest.
 * functions/core/refresh-schedule.ts applies the stage's override and the floor no cadence may beat.
 */
export const PLAN_REFRESH_HOURS: Record<PlanName, number> = { free: 24, startup: 12, growth: 8, enterprise: 6 };

/** When the monthly quotas in force at `now` (Unix ms) reset: the first of next month, 00:00 UTC. */
export function monthlyQuotaResetAt(now: number): number {
  const at = new Date(now);
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}
export const PLAN_NAMES = /* @__PURE__ */ Object.keys(PLANS) as PlanName[];
