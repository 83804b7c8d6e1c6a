// The connector port: what every data source behind an item implements (docs/connectors.md).
// The app layer talks to institutions only through this interface; which adapter serves a call is
// decided in one place (connectorFor / connectorOfItem in functions/connectors). The sandbox
// simulator is the first adapter.
//
// Adapters report raw facts. What the service derives stays out of the port: ingestion enriches
// every transaction (merchant, category, payment channel), the change feed diffs each batch
// against what it already holds, and recurring and income streams are detected from the stored
// transactions (core/recurring.ts, core/income.ts), so the transactions a connector delivers are
// also its income inputs. Link's lockout rule (LIMITS.linkAttemptsMax) stays in the app layer.
import type { z } from 'zod';
import type { Identity as IdentitySchema, Liabilities as LiabilitiesSchema } from '../contracts/product-schemas';
import type {
  AccountRecord,
  Holding as HoldingSchema,
  InvestmentTransaction as InvestmentTransactionSchema,
  Security as SecuritySchema,
  TransactionRecord,
} from '../contracts/schemas';

/**
 * Per-item secrets a connector needs to reach the user's data again: OAuth access and refresh
 * tokens, an API key and secret the user supplied, a consent id. Stored sealed (KMS envelope
 * encryption under an encryption context bound to the item), opened only to hand them to the
 * adapter, never logged, deleted with the item. Values are strings; the adapter chooses the keys.
 */
export type ProviderSecrets = Readonly<Record<string, string>>;

/** Enough to reach an item's data at its connector again. */
export interface Connection {
  institutionId: string;
  /**
   * The non-secret reference the connector finds the user's data by (the sandbox username, a
   * provider account or consent id, a wallet address, an import id). Stored in clear on the item.
   */
  login: string;
  /** The item's provider secrets, opened for this call (absent for connectors that need none). */
  secrets?: ProviderSecrets;
  /**
   * Where the connector's incremental refresh resumes: the `cursor` its previous pull returned
   * (SourceBatch.cursor), stored in clear on the item; absent before the first pull. Adapters of
   * sources without a cursor use it to hold the date up to which they have read.
   */
  cursor?: string;
}

/**
 * How Link collects what a connector needs from the user:
 * - `credentials`: username and password on our page (then maybe a one-time code): `login`.
 * - `oauth`: a redirect to the provider's consent page (`beginOauth`), back with a code (`connect`).
 * - `api_key`: a read-only API key and secret the user created at the provider (`connect`).
 * - `address`: a public wallet address (`connect`).
 * - `file`: a statement file the user uploads (`connect`).
 */
export type LinkMethod = 'credentials' | 'oauth' | 'api_key' | 'address' | 'file';

/** What the user supplied in Link, for the methods other than `credentials`. */
export type ConsentInput =
  | {
      method: 'oauth';
      /** The authorization code (or the provider's equivalent) from the redirect back to Link. */
      code: string;
      /** The redirect URI the authorization request used (OAuth requires it again at the token call). */
      redirectUri: string;
      /** What `beginOauth` asked to keep for this step (a PKCE verifier, a requisition id). */
      pending: ProviderSecrets;
    }
  | { method: 'api_key'; apiKey: string; apiSecret: string; passphrase?: string }
  | { method: 'address'; address: string }
  | { method: 'file'; bytes: Uint8Array; fileName: string | null };

/** A statement file for the `file` method, with what the item's earlier files settled. */
export interface StatementFile {
  bytes: Uint8Array;
  fileName: string | null;
  /** The day/month order the item's earlier files were read in: a file that cannot tell is read the same way. */
  dateOrder?: 'dmy' | 'mdy' | 'ymd';
}

/** The start of an OAuth consent: where to send the user, and what to keep until they come back. */
export interface OauthStart {
  authorizeUrl: string;
  /** Kept sealed on the Link session until the user comes back; handed to `connect` as `pending`. */
  pending: ProviderSecrets;
}

export interface Credentials {
  username: string;
  password: string;
}

/** What the user's credentials lead to in Link. */
export type LoginResult =
  /**
   * `secrets` (if any) are sealed to the new item; `connection.secrets` is ignored here. `batch` is
   * data that came with the consent itself (a statement file): it is the item's history, ingested
   * at connect, since there is nothing to pull later.
   */
  | { status: 'connected'; connection: Connection; secrets?: ProviderSecrets; batch?: SourceBatch }
  /** The institution asks for a one-time code; `prompt` is shown to the user as is. */
  | { status: 'mfa_required'; connection: Connection; prompt: string }
  /** What the user supplied was refused; `message` (shown to the user) says what, when the source says. */
  | { status: 'invalid_credentials'; message?: string }
  /** The institution locked this login: the item enters the error state. */
  | { status: 'locked' };

/**
 * A transaction as a connector reports it: the contract's fields minus the ones ingestion derives,
 * plus optional enrichment hints. The hints help enrichment when the descriptor alone says too
 * little; they are not stored (the stored transaction keeps the contract's twelve fields).
 */
export type SourceTransaction = Omit<TransactionRecord, 'merchant_name' | 'category' | 'category_detailed' | 'payment_channel'> & {
  /** The card network's merchant category code (ISO 18245), when the source reports one. */
  mcc?: string;
  /** The counterparty's name as the source reports it (a SEPA creditor, an aggregator's merchant). */
  counterparty?: string;
};

/**
 * The transactions of one pull, in whichever of the two shapes the source speaks:
 * - `window`: every transaction inside the source's window (a statement, a date range), newest
 *   first. Ingestion upserts each one and removes a transaction it holds inside that window that
 *   the batch no longer reports (a pending authorization that never posted). The sandbox and file
 *   imports report this way.
 * - `changes`: what changed since the previous pull, as aggregators' incremental sync APIs report
 *   it: transactions added or modified, and the ids of removed ones.
 */
export type TransactionBatch =
  | { kind: 'window'; transactions: SourceTransaction[] }
  | { kind: 'changes'; upserted: SourceTransaction[]; removed: string[] };

/** What the connector reports for an item at one pull: its accounts with balances, and its transactions. */
export interface SourceBatch {
  accounts: AccountRecord[];
  transactions: TransactionBatch;
  /**
   * Replacement provider secrets, when the pull rotated them (a refresh token exchanged for a new
   * one). Ingestion seals and stores them before it commits the batch, so a rotated token is
   * never lost.
   */
  secrets?: ProviderSecrets;
  /** The position to resume from at the next refresh (Connection.cursor); omitted = unchanged. */
  cursor?: string;
  /** Holdings and investment transactions, for sources that report them with the pull (statement files). */
  investments?: Investments;
  /**
   * Statement files: which ids of `transactions.upserted`/`removed` are corrections (OFX
   * CORRECTACTION REPLACE / DELETE). The import remembers them, so re-importing an older file that
   * still holds the original never undoes a correction.
   */
  corrections?: { replaced: string[]; deleted: string[] };
  /**
   * Statement files: per account id, the date its reported balance is as of, or null when the file
   * reported none (the balance in `accounts` is then a placeholder). An older or absent balance
   * never replaces a newer one the item holds.
   */
  balancesAsOf?: Readonly<Record<string, string | null>>;
  /**
   * Statement files: the day/month order the file was read in, and whether the file proved it
   * (`file`), followed the item's earlier files (`hint`) or fell back to a guess (`default`).
   */
  dateOrder?: { order: 'dmy' | 'mdy' | 'ymd'; source: 'file' | 'hint' | 'default' };
  /** Statement files: rows the file holds that were left out, each with its line and why (a total row, a row without a date). */
  notices?: readonly { line: number; reason: string }[];
}

/** What the institution-reported products are computed against. */
export interface ProductContext {
  /** YYYY-MM-DD (UTC): the service's today, so adapters stay free of clocks. */
  today: string;
  /** The accounts as the API serves them (cached balances): the products reconcile with these. */
  accounts: readonly AccountRecord[];
}

export type Identity = z.infer<typeof IdentitySchema>;
export type Liabilities = z.infer<typeof LiabilitiesSchema>;

export interface Investments {
  holdings: z.infer<typeof HoldingSchema>[];
  securities: z.infer<typeof SecuritySchema>[];
  /** Newest first. */
  investment_transactions: z.infer<typeof InvestmentTransactionSchema>[];
}

/**
 * Why a connector call failed, in the terms the service maps to item states and HTTP answers:
 * - `login_required`: the user must consent again (expired or revoked consent, a refresh token the
 *   provider refused): the item moves to `login_required` and `item.error` is sent.
 * - `rate_limited`: the provider asked us to slow down; `retryAfterSeconds` is its hint when it
 *   gave one. The item stays healthy; the refresh is tried again later.
 * - `provider_error`: the provider failed (5xx, timeout, a response we cannot read): 502
 *   `provider_error`, the item's last error records it.
 * - `invalid_input`: what the user supplied cannot be used (a malformed address, a file that is not
 *   a statement); `code` is the API error code to answer with, `message` names the problem.
 * Messages must never contain a secret or a provider token.
 */
export type ConnectorErrorKind = 'login_required' | 'rate_limited' | 'provider_error' | 'invalid_input';

export class ConnectorError extends Error {
  constructor(
    readonly kind: ConnectorErrorKind,
    message: string,
    readonly details: { retryAfterSeconds?: number; code?: string; status?: number } = {},
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

/**
 * What an adapter gets when it is built for one call: the operator's configuration for its
 * connector and the HTTP client it must reach its provider with.
 */
export interface ConnectorContext {
  /**
   * The deployment's values for this connector: its registry credential variables
   * (ConnectorDef.credentials) and optional `<PREFIX>_BASE_URL` overrides, by variable name.
   */
  config: Readonly<Record<string, string>>;
  /** The only way an adapter reaches the network (functions/connectors/provider-http.ts). */
  http: ProviderHttp;
  /**
   * Stores the item's rotated secrets at once (sealed, on the item). An adapter whose provider
   * rotates tokens (single-use refresh tokens) calls it right after the rotation, before any further
   * call, so a later failure of the same pull cannot lose the new pair. Absent outside item calls
   * (Link, before the item exists: the secrets go in LoginResult.secrets).
   */
  saveSecrets?: (secrets: ProviderSecrets) => Promise<void>;
}

/** An HTTP request to a provider. `form` is sent as application/x-www-form-urlencoded, `json` as JSON. */
export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  /** A raw body (already encoded), e.g. for providers that sign the exact bytes sent. */
  body?: string;
  /**
   * Whether sending the request twice does no harm. GET, PUT and DELETE are; a POST is retried by
   * `sendOk` only when the adapter says so (a read that providers expose as POST). A POST that
   * changes state at the provider (a token exchange, a session creation) is never sent twice: a
   * lost answer to a refresh-token exchange must not spend the rotated token a second time.
   */
  idempotent?: boolean;
}

export interface ProviderResponse {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  text: string;
}

/**
 * The provider HTTP client. `send` answers every status (the adapter maps its provider's errors);
 * `sendOk` retries idempotent requests (see ProviderRequest.idempotent) on 429, 5xx and transport
 * failures a bounded number of times (honouring short Retry-After hints) and then throws
 * ConnectorError: `rate_limited` for 429, `provider_error` for 5xx, timeouts and transport failures,
 * `login_required` for 401. Other 4xx are returned to the adapter. Both read at most a bounded
 * response body, counted as it streams in.
 */
export interface ProviderHttp {
  send(request: ProviderRequest): Promise<ProviderResponse>;
  sendOk(request: ProviderRequest): Promise<ProviderResponse>;
}

export interface ConnectorPort {
  /** The connector id of the registry (core/connectors.ts); stored on every item it serves. */
  readonly id: string;
  /** How Link collects what this connector needs from the user. */
  readonly linkMethod: LinkMethod;

  // ---------- Link session ----------
  /** The `credentials` method; other adapters answer `invalid_credentials`. */
  login(institutionId: string, credentials: Credentials): Promise<LoginResult>;
  /** Whether `code` answers the MFA challenge `login` raised for this connection. */
  verifyMfaCode(connection: Connection, code: string): Promise<boolean>;
  /**
   * The `oauth` method's first step: the provider's consent URL for this institution. `state` must
   * be passed through unchanged; `redirectUri` is where the provider sends the user back.
   */
  beginOauth?(args: { institutionId: string; state: string; redirectUri: string }): Promise<OauthStart>;
  /** Every method but `credentials`: turns what the user supplied into a connection. */
  connect?(institutionId: string, input: ConsentInput): Promise<LoginResult>;
  /**
   * The `file` method after connect: another statement for an existing import item (the API's
   * upload route). Ids are derived from the connection, so a re-imported or overlapping file maps
   * to the same transactions.
   */
  importStatement?(connection: Connection, file: StatementFile): Promise<SourceBatch>;
  /** Best effort, when the item is removed: revoke the consent or token at the provider. */
  disconnect?(connection: Connection): Promise<void>;

  // ---------- accounts and transactions ----------
  /** Accounts and current balances. */
  accounts(connection: Connection, today: string): Promise<AccountRecord[]>;
  /** The full history at connect time (24 months for the sandbox). */
  initialHistory(connection: Connection, today: string): Promise<SourceBatch>;
  /**
   * What the source reports at the item's `refreshCount`-th refresh on `today` (1 for the day's
   * first). The simulator advances one step per refresh; a real connector reads its current state.
   */
  refresh(connection: Connection, today: string, refreshCount: number): Promise<SourceBatch>;

  // ---------- institution-reported products ----------
  identity(connection: Connection, context: ProductContext): Promise<Identity>;
  liabilities(connection: Connection, context: ProductContext): Promise<Liabilities>;
  /** Holdings, their securities and investment transactions. */
  investments(connection: Connection, context: ProductContext): Promise<Investments>;
}

/** Builds a connector's adapter for one call; the composition (functions/connectors/index.ts) supplies the context. */
export type ConnectorFactory = (context: ConnectorContext) => ConnectorPort;
