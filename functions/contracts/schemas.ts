// Resource and request-part schemas shared by the route table: the field names and bounds of the
// public contract. Where the contract leaves a shape open, the choice is recorded in docs/products.md.
import * as z from 'zod';
import { INITIAL_UPDATE_DAYS, LIMITS } from './limits';

export const API_VERSION = '2026-07-01';

// ---------- primitives ----------

/** Which world a key lives in: `fc_sk_test_` keys reach the sandbox, `fc_sk_live_` keys real institutions. */
export const ENVIRONMENTS = ['test', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const PRODUCTS = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'] as const;
export const Product = /* @__PURE__ */ z.enum(PRODUCTS).meta({ id: 'Product', description: 'A data product an item can consent to.' });
export type Product = z.infer<typeof Product>;

export const INSTITUTION_TYPES = [
  'bank',
  'credit_union',
  'payment_app',
  'investment',
  'crypto_exchange',
  'crypto_wallet',
  'business',
] as const;
export const InstitutionType = /* @__PURE__ */ z.enum(INSTITUTION_TYPES).meta({ id: 'InstitutionType' });

const isRealDate = (value: string) => {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};
export const DateString = /* @__PURE__ */ z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine(isRealDate, 'expected a real calendar date')
  .meta({ description: 'A calendar date, YYYY-MM-DD.', example: '2026-07-01' });

export const Timestamp = /* @__PURE__ */ z.string().meta({ description: 'ISO 8601 timestamp (UTC).', format: 'date-time' });
export const CurrencyCode = /* @__PURE__ */ z.string().regex(/^[A-Z]{3}$/).meta({ description: 'ISO 4217 currency code.' });
export const CountryCode = /* @__PURE__ */ z.string().regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 country code such as US');

export const AccessToken = /* @__PURE__ */ z
  .string()
  .max(LIMITS.tokenMaxLength)
  .regex(/^fc_at_[A-Za-z0-9]+$/, 'expected an access token starting with fc_at_')
  .meta({ description: 'The item access token from /v1/link/token/exchange (prefix fc_at_).' });

export const Id = /* @__PURE__ */ (() => z.string().min(1).max(LIMITS.idMaxLength))();
export const AccountIds = /* @__PURE__ */ z.array(Id).min(1).max(LIMITS.accountIdsMax).meta({ description: 'At least one account_id of this item.' });
export const Count = /* @__PURE__ */ (() => z.int().min(1).max(LIMITS.pageMax).default(LIMITS.pageDefault))();
export const Offset = /* @__PURE__ */ z.int().min(0).max(LIMITS.offsetMax).default(0);

// ---------- resources ----------

export const ITEM_STATUSES = ['healthy', 'login_required', 'error'] as const;
export const ItemStatus = /* @__PURE__ */ z.enum(ITEM_STATUSES).meta({ id: 'ItemStatus' });
export type ItemStatus = z.infer<typeof ItemStatus>;

/**
 * How far an item's transaction history has loaded (Plaid's TRANSACTIONS_UPDATE_STATUS_*): Link
 * answers as soon as the item and its accounts exist, and the refresh worker loads the history in
 * two stages, the most recent days first (functions/app/lifecycle.ts).
 */
export const TRANSACTIONS_UPDATE_STATUSES = ['not_ready', 'initial_update_complete', 'historical_update_complete'] as const;
export const TransactionsUpdateStatus = /* @__PURE__ */ (() =>
  z.enum(TRANSACTIONS_UPDATE_STATUSES).meta({
    id: 'TransactionsUpdateStatus',
    description: `\`not_ready\`: no transactions are loaded yet. \`initial_update_complete\`: the most recent ${INITIAL_UPDATE_DAYS} days are loaded (\`/v1/transactions/get\` serves them). \`historical_update_complete\`: the whole history is loaded (recurring, income and assets serve it). An item without the transactions product is \`historical_update_complete\` from the start.`,
  }))();
export type TransactionsUpdateStatus = z.infer<typeof TransactionsUpdateStatus>;

export const ItemError = /* @__PURE__ */ z
  .object({ type: z.string(), code: z.string(), message: z.string() })
  .meta({ id: 'ItemError', description: 'Why the item is not healthy.' });

export const SyncError = /* @__PURE__ */ z
  .object({
    code: z.string().meta({ description: 'The error code the pull ended with, e.g. `provider_error` or `rate_limit_exceeded`.' }),
    message: z.string(),
    occurred_at: Timestamp,
  })
  .meta({ id: 'SyncError' });

export const Item = /* @__PURE__ */ z
  .object({
    item_id: z.string(),
    institution_id: z.string(),
    institution_name: z.string(),
    status: ItemStatus,
    connector: z.string().meta({ description: 'The connector serving this item; `sandbox` for test keys.' }),
    error: ItemError.nullable(),
    consented_products: z.array(Product),
    last_successful_sync: Timestamp.nullable(),
    created_at: Timestamp,
    transactions_update_status: TransactionsUpdateStatus,
    last_sync_error: SyncError.nullable().meta({
      description: 'The last failed pull from the item\u2019s connector, until a pull succeeds again (null when the last pull succeeded). With `connector` and `last_successful_sync`, the connector\u2019s health and freshness for this item.',
    }),
    webhook: z.string().nullable().meta({
      description: 'The item\u2019s own webhook URL (the link token\u2019s `webhook`, or set with /v1/item/webhook/update); null when it has none. Not an endpoint: the environment\u2019s endpoints receive its events too.',
    }),
  })
  .meta({ id: 'Item' });

export const Balances = /* @__PURE__ */ (() =>
  z.object({
    current: z.number(),
    available: z.number().nullable(),
    limit: z.number().nullable(),
    iso_currency_code: CurrencyCode,
  }))();

export const ACCOUNT_TYPES = ['depository', 'investment', 'credit', 'loan', 'crypto'] as const;
export const Account = /* @__PURE__ */ z
  .object({
    account_id: z.string(),
    name: z.string(),
    official_name: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    subtype: z.string(),
    mask: z.string(),
    balances: Balances,
    verification_status: z.string(),
  })
  .meta({ id: 'Account' });
/** An account as every layer stores and returns it (one shape, from the contract). */
export type AccountRecord = z.infer<typeof Account>;

export const PAYMENT_CHANNELS = ['online', 'in_store', 'transfer', 'other'] as const;
export const PaymentChannel = /* @__PURE__ */ z.enum(PAYMENT_CHANNELS);
export type PaymentChannel = z.infer<typeof PaymentChannel>;

export const Transaction = /* @__PURE__ */ z
  .object({
    transaction_id: z.string(),
    account_id: z.string(),
    date: z.string(),
    authorized_datetime: Timestamp.nullable(),
    name: z.string(),
    merchant_name: z.string().nullable(),
    amount: z.number(),
    iso_currency_code: CurrencyCode,
    pending: z.boolean(),
    category: z.string().nullable(),
    category_detailed: z.string().nullable(),
    payment_channel: PaymentChannel,
  })
  .meta({ id: 'Transaction' });
/** A transaction as every layer stores and returns it (one shape, from the contract). */
export type TransactionRecord = z.infer<typeof Transaction>;

export const RemovedTransaction = /* @__PURE__ */ z.object({ transaction_id: z.string() }).meta({ id: 'RemovedTransaction' });

export const Institution = /* @__PURE__ */ z
  .object({
    institution_id: z.string(),
    name: z.string(),
    type: InstitutionType,
    country_codes: z.array(z.string()),
    url: z.string().nullable(),
    primary_color: z.string().nullable(),
    logo: z
      .string()
      .nullable()
      .meta({ description: 'The institution\u2019s mark as a data: URI (SVG) when Fincore ships one (sandbox institutions); null otherwise: show a monogram in primary_color.' }),
    products: z.array(Product),
    oauth: z.boolean().meta({ description: 'Whether the login happens on the institution\u2019s own site.' }),
    sandbox: z.boolean().meta({ description: 'Part of the simulated sandbox network (always available).' }),
    popularity: z.int().meta({ description: 'Rank in the default ordering; 1 is the most popular.' }),
  })
  .meta({ id: 'Institution' });

export const DetailedCategory = /* @__PURE__ */ z
  .object({
    category_detailed: z.string(),
    label: z.string(),
    description: z.string(),
    plaid_detailed: z.string().meta({ description: 'Closest Plaid personal-finance detailed category.' }),
  })
  .meta({ id: 'DetailedCategory' });

export const Category = /* @__PURE__ */ z
  .object({
    category: z.string(),
    label: z.string(),
    description: z.string(),
    plaid_primary: z.string().meta({ description: 'Closest Plaid personal-finance primary category.' }),
    detailed: z.array(DetailedCategory),
  })
  .meta({ id: 'Category' });

export const Security = /* @__PURE__ */ (() =>
  z.object({
    security_id: z.string(),
    ticker: z.string(),
    name: z.string(),
    type: z.enum(['equity', 'etf', 'crypto', 'cash', 'bond']),
    close_price: z.number(),
  }))();

export const Holding = /* @__PURE__ */ z
  .object({
    holding_id: z.string(),
    account_id: z.string(),
    security: Security,
    quantity: z.number(),
    cost_basis: z.number().nullable(),
    value: z.number(),
  })
  .meta({ id: 'Holding' });

export const InvestmentTransaction = /* @__PURE__ */ z
  .object({
    investment_transaction_id: z.string(),
    account_id: z.string(),
    ticker: z.string(),
    type: z.enum(['buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee']),
    quantity: z.number(),
    price: z.number(),
    amount: z.number(),
    date: z.string(),
    name: z.string(),
  })
  .meta({ id: 'InvestmentTransaction' });

export const EngineMeta = {
  engine: /* @__PURE__ */ z.enum(['rules', 'ai', 'ai+rules']),
  model: /* @__PURE__ */ z.string().meta({ description: 'The model that took part, or the rules engine version when only rules ran.' }),
};

/** An amount in an AI request: finite and at most LIMITS.aiAmountMax either way. */
export const AiAmount = /* @__PURE__ */ (() => z.number().min(-LIMITS.aiAmountMax).max(LIMITS.aiAmountMax))();

/** Bring-your-own transaction for the AI endpoints (id, description, amount). */
export const InputTransaction = /* @__PURE__ */ (() =>
  z.strictObject({
    id: Id,
    description: z.string().min(1).max(LIMITS.descriptorMaxLength),
    amount: AiAmount,
    date: DateString.optional(),
    iso_currency_code: CurrencyCode.optional(),
  }))();
export const InputTransactions = /* @__PURE__ */ (() => z.array(InputTransaction).min(1).max(LIMITS.aiTransactionsMax))();

/** Request body of AI endpoints that accept either an item or a raw payload. */
export function tokenOrTransactions<T extends z.ZodRawShape>(extra: T) {
  return z
    .strictObject({ access_token: AccessToken.optional(), transactions: InputTransactions.optional(), ...extra })
    .refine(
      (body) => {
        const b = body as { access_token?: unknown; transactions?: unknown };
        return b.access_token !== undefined || b.transactions !== undefined;
      },
      { message: 'send access_token or a non-empty transactions array', path: ['access_token'], params: { code: 'missing_field' } },
    );
}
