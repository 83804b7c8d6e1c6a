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

/** Enough to reach an item's data at its connector again. */
export interface Connection {
  institutionId: string;
  /** The login the user connected with (for the sandbox simulator: the sandbox username). */
  login: string;
}

export interface Credentials {
  username: string;
  password: string;
}

/** What the user's credentials lead to in Link. */
export type LoginResult =
  | { status: 'connected'; connection: Connection }
  /** The institution asks for a one-time code; `prompt` is shown to the user as is. */
  | { status: 'mfa_required'; connection: Connection; prompt: string }
  | { status: 'invalid_credentials' }
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

export interface ConnectorPort {
  /** The connector id of the registry (core/connectors.ts); stored on every item it serves. */
  readonly id: string;

  // ---------- Link session ----------
  login(institutionId: string, credentials: Credentials): Promise<LoginResult>;
  /** Whether `code` answers the MFA challenge `login` raised for this connection. */
  verifyMfaCode(connection: Connection, code: string): Promise<boolean>;

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
