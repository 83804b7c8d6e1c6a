// Generated from openapi.json by bin/sdks/generate.ts (npm run sdks). Do not edit.

export interface AccessTokenRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
}

export interface AccountBalances {
  current: number;
  available: number | null;
  limit: number | null;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
}

export interface Account {
  account_id: string;
  name: string;
  official_name: string;
  type: "depository" | "investment" | "credit" | "loan" | "crypto";
  subtype: string;
  mask: string;
  balances: AccountBalances;
  verification_status: string;
}

export interface AccountsBalanceGetRequestOptions {
  /** At least one account_id of this item. */
  account_ids?: string[];
}

export interface AccountsBalanceGetRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  options?: AccountsBalanceGetRequestOptions;
}

/** Why the item is not healthy. */
export interface ItemError {
  type: string;
  code: string;
  message: string;
}

export interface SyncError {
  /** The error code the pull ended with, e.g. `provider_error` or `rate_limit_exceeded`. */
  code: string;
  message: string;
  /** ISO 8601 timestamp (UTC). */
  occurred_at: string;
}

export interface Item {
  item_id: string;
  institution_id: string;
  institution_name: string;
  status: "healthy" | "login_required" | "error";
  /** The connector serving this item; `sandbox` for test keys. */
  connector: string;
  error: ItemError | null;
  consented_products: Array<"transactions" | "identity" | "income" | "assets" | "investments" | "liabilities" | "recurring">;
  last_successful_sync: string | null;
  /** ISO 8601 timestamp (UTC). */
  created_at: string;
  transactions_update_status: "not_ready" | "initial_update_complete" | "historical_update_complete";
  /** The last failed pull from the item’s connector, until a pull succeeds again (null when the last pull succeeded). With `connector` and `last_successful_sync`, the connector’s health and freshness for this item. */
  last_sync_error: SyncError | null;
  /** The item’s own webhook URL (the link token’s `webhook`, or set with /v1/item/webhook/update); null when it has none. Not an endpoint: the environment’s endpoints receive its events too. */
  webhook: string | null;
}

export interface AccountsBalanceGetResponse {
  accounts: Account[];
  item: Item;
}

export interface AccountsGetRequestOptions {
  /** At least one account_id of this item. */
  account_ids?: string[];
}

export interface AccountsGetRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  options?: AccountsGetRequestOptions;
}

export interface AccountsGetResponse {
  accounts: Account[];
  item: Item;
}

export interface AiCashflowRequestTransactionsItem {
  id: string;
  description: string;
  amount: number;
  /** A calendar date, YYYY-MM-DD. */
  date?: string;
  /** ISO 4217 currency code. */
  iso_currency_code?: string;
}

export interface AiCashflowRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token?: string;
  transactions?: AiCashflowRequestTransactionsItem[];
  /** Days to forecast after today (default 30). */
  horizon_days?: number;
}

export interface AiCashflowResponseLowestBalance {
  /** A calendar date, YYYY-MM-DD. */
  date: string;
  /** Major currency units, rounded to cents. */
  balance: number;
}

export interface AiCashflowResponseLowBalanceWarning {
  /** Major currency units, rounded to cents. */
  threshold: number;
  /** The first day the projected balance is below the threshold. */
  first_date: string;
  days_below: number;
  /** `high` when the balance is projected below zero. */
  severity: "low" | "high";
  explanation: string;
}

export interface AiCashflowResponseDriversItem {
  stream_id: string;
  direction: "inflow" | "outflow";
  kind: "subscription" | "bill" | "payroll" | "other";
  merchant: string;
  cadence: "weekly" | "biweekly" | "semi_monthly" | "monthly" | "quarterly" | "annual";
  /** Expected amount per occurrence (absolute). */
  amount: number;
  /** Expected dates within the horizon. */
  dates: string[];
  /** amount times the occurrences within the horizon (absolute). */
  total: number;
}

export interface AiCashflowResponseDailyItem {
  /** A calendar date, YYYY-MM-DD. */
  date: string;
  /** Major currency units, rounded to cents. */
  inflow: number;
  /** Recurring outflows due that day plus the baseline daily spend. */
  outflow: number;
  /** Projected balance at the end of the day. */
  balance: number;
  /** Recurring streams expected that day. */
  stream_ids: string[];
}

/** A daily balance forecast driven by recurring streams on their schedules plus a baseline of everyday spending. */
export interface AiCashflowResponse {
  horizon_days: number;
  /** The first forecast day (the day after today). */
  start_date: string;
  /** A calendar date, YYYY-MM-DD. */
  end_date: string;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  /** `none`: no balances were available (raw transactions), so the forecast starts from 0 and shows the net change. */
  balance_source: "depository_accounts" | "none";
  /** Major currency units, rounded to cents. */
  starting_balance: number;
  /** Depository accounts whose current balance the forecast starts from. */
  account_ids: string[];
  /** Non-recurring spending expected each day: the median week of the trailing weeks, over 7. */
  baseline_daily_spend: number;
  /** Trailing weeks the baseline was measured on. */
  baseline_weeks: number;
  /** Major currency units, rounded to cents. */
  total_inflow: number;
  /** Major currency units, rounded to cents. */
  total_outflow: number;
  /** Major currency units, rounded to cents. */
  ending_balance: number;
  lowest_balance: AiCashflowResponseLowestBalance;
  low_balance_warning: AiCashflowResponseLowBalanceWarning | null;
  /** Recurring streams in the horizon, by total descending, then stream_id. */
  drivers: AiCashflowResponseDriversItem[];
  /** One entry per day of the horizon. */
  daily: AiCashflowResponseDailyItem[];
  note: string;
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AiCategorizeRequestTransactionsItem {
  id: string;
  description: string;
  amount: number;
  /** A calendar date, YYYY-MM-DD. */
  date?: string;
  /** ISO 4217 currency code. */
  iso_currency_code?: string;
}

export interface AiCategorizeRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token?: string;
  transactions?: AiCategorizeRequestTransactionsItem[];
}

export interface CategorizedTransaction {
  /** Echoes the input id (the transaction_id with an item). */
  id: string;
  /** Primary category id of the taxonomy, or `uncategorized` when no engine decided. */
  category: string;
  /** Detailed category id of the taxonomy, or `uncategorized` when no engine decided. */
  category_detailed: string;
  /** 0 for `uncategorized` rows. */
  confidence: number;
  decided_by: "rules" | "directory" | "learned" | "ai" | null;
}

export interface AiCategorizeResponse {
  categorized: CategorizedTransaction[];
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

/** Both dates inclusive. */
export interface AiFinancialSummaryResponsePeriod {
  /** A calendar date, YYYY-MM-DD. */
  start: string;
  /** A calendar date, YYYY-MM-DD. */
  end: string;
  days: number;
}

/** Both dates inclusive. */
export interface AiFinancialSummaryResponsePreviousPeriod {
  /** A calendar date, YYYY-MM-DD. */
  start: string;
  /** A calendar date, YYYY-MM-DD. */
  end: string;
  days: number;
}

export interface AiFinancialSummaryResponseTotals {
  /** Major currency units, rounded to cents. */
  income: number;
  /** Major currency units, rounded to cents. */
  spending: number;
  /** income - spending. */
  net: number;
  transaction_count: number;
}

export interface AiFinancialSummaryResponsePreviousTotals {
  /** Major currency units, rounded to cents. */
  income: number;
  /** Major currency units, rounded to cents. */
  spending: number;
  /** income - spending. */
  net: number;
  transaction_count: number;
}

export interface AiFinancialSummaryResponseTopCategoriesItem {
  category: string;
  label: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  /** Share of the period spending. */
  share: number;
  /** Major currency units, rounded to cents. */
  previous_amount: number;
  /** Percent change from the previous period; null when it was 0. */
  change_pct: number | null;
  transaction_count: number;
}

export interface AiFinancialSummaryResponseTopMerchantsItem {
  merchant: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  transaction_count: number;
}

export interface AiFinancialSummaryResponseNotableChangesItem {
  kind: "category_up" | "category_down" | "new_category" | "income_up" | "income_down" | "new_merchant";
  /** A category id, a merchant name, or `income`. */
  subject: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  /** Major currency units, rounded to cents. */
  previous_amount: number;
  /** Major currency units, rounded to cents. */
  change: number;
  change_pct: number | null;
  note: string;
}

export interface AiFinancialSummaryResponseOtherCurrencySpendingItem {
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  transaction_count: number;
}

/** Period totals, top categories and merchants, notable changes against the previous period, and a plain-language summary. */
export interface AiFinancialSummaryResponse {
  /** Both dates inclusive. */
  period: AiFinancialSummaryResponsePeriod;
  /** Both dates inclusive. */
  previous_period: AiFinancialSummaryResponsePreviousPeriod;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  totals: AiFinancialSummaryResponseTotals;
  previous_totals: AiFinancialSummaryResponsePreviousTotals;
  /** Up to five primary categories by amount descending. */
  top_categories: AiFinancialSummaryResponseTopCategoriesItem[];
  /** Up to five merchants by amount descending. */
  top_merchants: AiFinancialSummaryResponseTopMerchantsItem[];
  /** By absolute change descending. */
  notable_changes: AiFinancialSummaryResponseNotableChangesItem[];
  /** Spending in other currencies, not converted or counted in totals. */
  other_currency_spending: AiFinancialSummaryResponseOtherCurrencySpendingItem[];
  summary: string;
  highlights: string[];
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AiFraudRiskRequestTransactionsItem {
  id: string;
  description: string;
  amount: number;
  /** A calendar date, YYYY-MM-DD. */
  date?: string;
  /** ISO 4217 currency code. */
  iso_currency_code?: string;
}

export interface AiFraudRiskRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token?: string;
  transactions?: AiFraudRiskRequestTransactionsItem[];
}

/** The charges reviewed: the last 30 days up to the latest transaction (at most today). */
export interface AiFraudRiskResponseReviewPeriod {
  /** A calendar date, YYYY-MM-DD. */
  start: string;
  /** A calendar date, YYYY-MM-DD. */
  end: string;
  days: number;
}

export interface AiFraudRiskResponseSignalsItemBaseline {
  /** Major currency units, rounded to cents. */
  median: number;
  /** Major currency units, rounded to cents. */
  mad: number;
  robust_z: number;
  history_count: number;
}

export interface AiFraudRiskResponseSignalsItem {
  type: "duplicate_charge" | "unusual_amount" | "new_merchant_large_amount" | "card_testing" | "new_currency";
  severity: "low" | "medium" | "high";
  transaction_ids: string[];
  merchant: string | null;
  /** The amount at stake: the duplicated or unusual charge, or the total of the charges involved. */
  amount: number;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  /** A calendar date, YYYY-MM-DD. */
  first_date: string;
  /** A calendar date, YYYY-MM-DD. */
  last_date: string;
  /** For unusual_amount: the merchant history the charge is measured against. */
  baseline: AiFraudRiskResponseSignalsItemBaseline | null;
  explanation: string;
}

/** Fraud risk signals (duplicate charges, unusual amounts, new merchants with large amounts, card testing, new currencies) with an overall grade. */
export interface AiFraudRiskResponse {
  /** `high` with any high signal or a score of 60+, `medium` with any medium signal or 20+, else `low`. */
  grade: "low" | "medium" | "high";
  /** Severity points (high 40, medium 20, low 5), capped at 100. */
  score: number;
  /** The charges reviewed: the last 30 days up to the latest transaction (at most today). */
  review_period: AiFraudRiskResponseReviewPeriod;
  transactions_reviewed: number;
  /** Days of history before the review period that the baselines use. */
  history_days: number;
  /** By severity (high first), then last_date descending, then the first transaction id. */
  signals: AiFraudRiskResponseSignalsItem[];
  summary: string;
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

/** The trailing window the flow measures use. */
export interface AiHealthScoreResponsePeriod {
  /** A calendar date, YYYY-MM-DD. */
  start: string;
  /** A calendar date, YYYY-MM-DD. */
  end: string;
  days: number;
}

export interface AiHealthScoreResponseSubscoresItem {
  key: "savings_rate" | "emergency_buffer" | "spending_stability" | "credit_utilization" | "debt_to_income" | "income_regularity" | "fees";
  label: string;
  /** The measured quantity in `unit`, or null when the data to measure it is missing. */
  value: number | null;
  unit: "ratio" | "days" | "count";
  /** 0-100, or null when value is null. */
  score: number | null;
  /** Share of the overall score; 0 when the subscore is missing (the others are scaled up). */
  weight: number;
  explanation: string;
}

/** An explainable 0-100 financial health score: the weighted sum of its subscores. */
export interface AiHealthScoreResponse {
  /** The weighted sum of the subscores, rounded. */
  score: number;
  /** excellent 80+, good 65+, fair 45+, poor below. */
  band: "excellent" | "good" | "fair" | "poor";
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  /** The trailing window the flow measures use. */
  period: AiHealthScoreResponsePeriod;
  /** Always all seven, in a fixed order. */
  subscores: AiHealthScoreResponseSubscoresItem[];
  summary: string;
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AiMerchantRequest {
  description: string;
  amount?: number;
}

export interface AiMerchantResponse {
  /** The cleaned merchant name, or null when no engine knows it. */
  merchant_name: string | null;
  category: string | null;
  category_detailed: string | null;
  payment_channel: "online" | "in_store" | "transfer" | "other";
  confidence: number;
  decided_by: "rules" | "directory" | "learned" | "ai" | null;
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AiPurchaseAnalysisRequestPurchase {
  description: string;
  amount: number;
}

export interface AiPurchaseAnalysisRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  purchase: AiPurchaseAnalysisRequestPurchase;
}

export interface AiPurchaseAnalysisResponsePurchase {
  description: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
}

export interface AiPurchaseAnalysisResponseOpportunityCostProjectionsItem {
  years: number;
  /** Major currency units, rounded to cents. */
  future_value: number;
  /** Major currency units, rounded to cents. */
  growth: number;
}

export interface AiPurchaseAnalysisResponseOpportunityCost {
  /** Assumed annual return, compounded yearly (a documented constant, not advice). */
  annual_rate: number;
  projections: AiPurchaseAnalysisResponseOpportunityCostProjectionsItem[];
  note: string;
}

export interface AiPurchaseAnalysisResponseReasonsItem {
  code: "insufficient_funds" | "short_after_upcoming_bills" | "covered_after_next_income" | "thin_buffer" | "comfortable_buffer" | "large_share_of_discretionary" | "small_share_of_discretionary" | "no_balance_data";
  explanation: string;
}

/** Buy, wait or skip for a planned purchase: the buffer left after it and the bills due, its weight in your usual spending, and its opportunity cost. */
export interface AiPurchaseAnalysisResponse {
  purchase: AiPurchaseAnalysisResponsePurchase;
  verdict: "buy" | "wait" | "skip";
  /** Current balance of depository accounts; null without balance data. */
  liquid_balance: number | null;
  /** Recurring outflows expected in the next 30 days. */
  upcoming_outflows: number;
  /** Recurring inflows expected in the next 30 days. */
  upcoming_inflows: number;
  next_income_date: string | null;
  /** liquid_balance - amount - recurring outflows due before the next income. */
  balance_after_purchase: number | null;
  /** balance_after_purchase in days of average spending. */
  buffer_days_after_purchase: number | null;
  /** Balance to keep after bills: 14 days of average spending. */
  safety_buffer: number;
  /** Major currency units, rounded to cents. */
  average_daily_spending: number;
  /** Average monthly spending outside bills, loans and transfers (last 90 days). */
  monthly_discretionary_spending: number;
  share_of_monthly_discretionary: number | null;
  opportunity_cost: AiPurchaseAnalysisResponseOpportunityCost;
  /** For `wait`: the day the purchase fits (the next income), when known. */
  wait_until: string | null;
  reasons: AiPurchaseAnalysisResponseReasonsItem[];
  recommendation: string;
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AiSubscriptionsRequestTransactionsItem {
  id: string;
  description: string;
  amount: number;
  /** A calendar date, YYYY-MM-DD. */
  date?: string;
  /** ISO 4217 currency code. */
  iso_currency_code?: string;
}

export interface AiSubscriptionsRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token?: string;
  transactions?: AiSubscriptionsRequestTransactionsItem[];
}

export interface AiSubscriptionsResponseSubscriptionsItemPriceChange {
  /** Major currency units, rounded to cents. */
  from: number;
  /** Major currency units, rounded to cents. */
  to: number;
  change_pct: number;
  /** A calendar date, YYYY-MM-DD. */
  date: string;
}

export interface AiSubscriptionsResponseSubscriptionsItemSignalsItem {
  code: "duplicate_subscription" | "no_related_activity" | "overlapping_services" | "price_increase";
  /** Whether this signal alone sets likely_unused. */
  counts_as_unused: boolean;
  reason: string;
}

export interface AiSubscriptionsResponseSubscriptionsItem {
  /** The recurring stream (as /v1/recurring/get returns it). */
  stream_id: string;
  merchant: string;
  /** Raw descriptor of the latest charge. */
  description: string;
  category_detailed: string | null;
  account_id: string;
  cadence: "weekly" | "biweekly" | "semi_monthly" | "monthly" | "quarterly" | "annual";
  /** Major currency units, rounded to cents. */
  average_amount: number;
  /** The current price: the latest charge. */
  last_amount: number;
  /** annual_cost / 12. */
  monthly_cost: number;
  /** last_amount times the charges a year of the cadence. */
  annual_cost: number;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  /** A calendar date, YYYY-MM-DD. */
  first_date: string;
  /** A calendar date, YYYY-MM-DD. */
  last_date: string;
  next_date: string | null;
  charge_count: number;
  transaction_ids: string[];
  /** The latest price change (from the earliest charges to the current price), or null. */
  price_change: AiSubscriptionsResponseSubscriptionsItemPriceChange | null;
  likely_unused: boolean;
  /** Why likely_unused is set (the first unused signal), or null. */
  reason: string | null;
  signals: AiSubscriptionsResponseSubscriptionsItemSignalsItem[];
}

export interface AiSubscriptionsResponseTotalsItem {
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  count: number;
  /** Major currency units, rounded to cents. */
  monthly_cost: number;
  /** Major currency units, rounded to cents. */
  annual_cost: number;
  /** Major currency units, rounded to cents. */
  likely_unused_annual_cost: number;
}

export interface AiSubscriptionsResponseSavingsNotesItem {
  code: "cancel_duplicate" | "cancel_unused" | "consolidate_overlap" | "price_increase";
  stream_ids: string[];
  /** Major currency units, rounded to cents. */
  potential_annual_savings: number;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  note: string;
}

/** Paid subscriptions found by recurring detection, with annual cost, likely-unused flags and savings notes. */
export interface AiSubscriptionsResponse {
  /** Active paid subscriptions, by annual_cost descending, then stream_id. */
  subscriptions: AiSubscriptionsResponseSubscriptionsItem[];
  /** One entry per currency, by annual_cost descending. */
  totals: AiSubscriptionsResponseTotalsItem[];
  /** By potential_annual_savings descending. */
  savings_notes: AiSubscriptionsResponseSavingsNotesItem[];
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AiWeeklyReportRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  /** A calendar date, YYYY-MM-DD. */
  week_ending?: string;
}

/** Both dates inclusive. */
export interface AiWeeklyReportResponseWeek {
  /** A calendar date, YYYY-MM-DD. */
  start: string;
  /** A calendar date, YYYY-MM-DD. */
  end: string;
  days: number;
}

export interface AiWeeklyReportResponseTotals {
  /** Major currency units, rounded to cents. */
  spending: number;
  /** Major currency units, rounded to cents. */
  income: number;
  /** Major currency units, rounded to cents. */
  net: number;
  transaction_count: number;
  /** Major currency units, rounded to cents. */
  prior_weekly_average_spending: number;
  change_pct: number | null;
}

export interface AiWeeklyReportResponseCategoriesItem {
  category: string;
  label: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  /** Average weekly spending in the category over the 4 weeks before. */
  prior_weekly_average: number;
  /** Major currency units, rounded to cents. */
  change: number;
  change_pct: number | null;
}

export interface AiWeeklyReportResponseLargestTransactionsItem {
  transaction_id: string;
  /** A calendar date, YYYY-MM-DD. */
  date: string;
  merchant: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  category: string | null;
}

export interface AiWeeklyReportResponseRecurringChargesItem {
  stream_id: string;
  transaction_id: string;
  merchant: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  /** A calendar date, YYYY-MM-DD. */
  date: string;
  cadence: "weekly" | "biweekly" | "semi_monthly" | "monthly" | "quarterly" | "annual";
}

export interface AiWeeklyReportResponseIncomeReceivedItem {
  transaction_id: string;
  /** A calendar date, YYYY-MM-DD. */
  date: string;
  source: string;
  /** Major currency units, rounded to cents. */
  amount: number;
}

export interface AiWeeklyReportResponseUpcomingBillsItem {
  stream_id: string;
  merchant: string;
  kind: "subscription" | "bill" | "payroll" | "other";
  /** A calendar date, YYYY-MM-DD. */
  expected_date: string;
  /** Major currency units, rounded to cents. */
  expected_amount: number;
}

export interface AiWeeklyReportResponseOtherCurrencySpendingItem {
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  /** Major currency units, rounded to cents. */
  amount: number;
  transaction_count: number;
}

/** The week in numbers (spending by category against the 4 weeks before, largest charges, recurring charges, income, bills next week) and a narrative. */
export interface AiWeeklyReportResponse {
  /** Both dates inclusive. */
  week: AiWeeklyReportResponseWeek;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  totals: AiWeeklyReportResponseTotals;
  /** Primary categories with spending this week or in the 4 before, by amount descending. */
  categories: AiWeeklyReportResponseCategoriesItem[];
  /** Up to five, by amount descending. */
  largest_transactions: AiWeeklyReportResponseLargestTransactionsItem[];
  /** Charges of recurring outflow streams that hit this week, by date. */
  recurring_charges: AiWeeklyReportResponseRecurringChargesItem[];
  /** Income deposits this week, by date. */
  income_received: AiWeeklyReportResponseIncomeReceivedItem[];
  /** Recurring outflows expected in the 7 days after the week, by date. */
  upcoming_bills: AiWeeklyReportResponseUpcomingBillsItem[];
  other_currency_spending: AiWeeklyReportResponseOtherCurrencySpendingItem[];
  narrative: string;
  engine: "rules" | "ai" | "ai+rules";
  /** The model that took part, or the rules engine version when only rules ran. */
  model: string;
}

export interface AssetsGetResponseSummary {
  total_assets: number;
  total_liabilities: number;
  net_worth: number;
  iso_currency_code: string;
}

export interface AssetsGetResponseBreakdown {
  depository?: number;
  investment?: number;
  crypto?: number;
  holdings?: number;
  credit?: number;
  loan?: number;
}

export interface ExcludedAccount {
  account_id: string;
  iso_currency_code: string;
  reason: "currency_mismatch";
}

export interface AssetsGetResponse {
  accounts: Account[];
  total_assets: number;
  total_liabilities: number;
  net_worth: number;
  iso_currency_code: string;
  summary: AssetsGetResponseSummary;
  breakdown: AssetsGetResponseBreakdown;
  generated_at: string;
  /** Accounts left out because their currency differs (never converted). */
  excluded_accounts: ExcludedAccount[];
}

export interface CategoriesGetRequest {
}

export interface DetailedCategory {
  category_detailed: string;
  label: string;
  description: string;
  /** Closest Plaid personal-finance detailed category. */
  plaid_detailed: string;
}

export interface Category {
  category: string;
  label: string;
  description: string;
  /** Closest Plaid personal-finance primary category. */
  plaid_primary: string;
  detailed: DetailedCategory[];
}

export interface CategoriesGetResponse {
  categories: Category[];
}

export interface HoldingSecurity {
  security_id: string;
  ticker: string;
  name: string;
  type: "equity" | "etf" | "crypto" | "cash" | "bond";
  close_price: number;
}

export interface Holding {
  holding_id: string;
  account_id: string;
  security: HoldingSecurity;
  quantity: number;
  cost_basis: number | null;
  value: number;
}

export interface OwnerEmailsItem {
  data: string;
  primary: boolean;
  type: "home" | "work" | "mobile" | "personal" | "other";
}

export interface OwnerPhoneNumbersItem {
  data: string;
  primary: boolean;
  type: "home" | "work" | "mobile" | "personal" | "other";
}

export interface OwnerAddressesItemData {
  street: string;
  city: string;
  region: string | null;
  postal_code: string;
  country: string;
}

export interface OwnerAddressesItem {
  data: OwnerAddressesItemData;
  primary: boolean;
}

export interface Owner {
  names: string[];
  emails: OwnerEmailsItem[];
  phone_numbers: OwnerPhoneNumbersItem[];
  addresses: OwnerAddressesItem[];
  account_ids: string[];
}

export interface Identity {
  /** Empty for a degraded item (login needs repair): never an error. */
  owners: Owner[];
}

export interface IdentityGetResponse {
  accounts: Account[];
  identity: Identity;
}

export interface IncomeStreamEmployer {
  name: string;
}

export interface IncomeStream {
  stream_id: string;
  kind: "payroll" | "benefits" | "interest" | "other";
  employer: IncomeStreamEmployer | null;
  account_id: string;
  cadence: "weekly" | "biweekly" | "semi_monthly" | "monthly" | "quarterly" | "annual";
  average_net: number;
  /** Estimated from net deposits; see gross_estimation. */
  average_gross: number;
  /** How average_gross was estimated from net deposits. */
  gross_estimation: string;
  last_amount: number;
  last_date: string;
  predicted_next_date: string | null;
  iso_currency_code: string;
  transaction_ids: string[];
  confidence: number;
}

export interface IncomeGetResponse {
  income_streams: IncomeStream[];
}

export interface Institution {
  institution_id: string;
  name: string;
  type: "bank" | "credit_union" | "payment_app" | "investment" | "crypto_exchange" | "crypto_wallet" | "business";
  country_codes: string[];
  url: string | null;
  primary_color: string | null;
  /** The institution’s mark as a data: URI (SVG) when Fincore ships one (sandbox institutions); null otherwise: show a monogram in primary_color. */
  logo: string | null;
  products: Array<"transactions" | "identity" | "income" | "assets" | "investments" | "liabilities" | "recurring">;
  /** Whether the login happens on the institution’s own site. */
  oauth: boolean;
  /** Part of the simulated sandbox network (always available). */
  sandbox: boolean;
  /** Rank in the default ordering; 1 is the most popular. */
  popularity: number;
}

export interface InstitutionsGetByIdRequest {
  institution_id: string;
}

export interface InstitutionsGetByIdResponse {
  institution: Institution;
}

export interface InstitutionsSearchRequest {
  query: string;
  types?: Array<"bank" | "credit_union" | "payment_app" | "investment" | "crypto_exchange" | "crypto_wallet" | "business">;
  country_codes?: string[];
}

export interface InstitutionsSearchResponse {
  institutions: Institution[];
}

export interface InvestmentsHoldingsGetResponse {
  accounts: Account[];
  holdings: Holding[];
}

export interface InvestmentsTransactionsGetRequestOptions {
  count?: number;
  offset?: number;
  /** At least one account_id of this item. */
  account_ids?: string[];
}

export interface InvestmentsTransactionsGetRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  /** A calendar date, YYYY-MM-DD. */
  start_date?: string;
  /** A calendar date, YYYY-MM-DD. */
  end_date?: string;
  options?: InvestmentsTransactionsGetRequestOptions;
}

export interface InvestmentTransaction {
  investment_transaction_id: string;
  account_id: string;
  ticker: string;
  type: "buy" | "sell" | "dividend" | "deposit" | "withdrawal" | "fee";
  quantity: number;
  price: number;
  amount: number;
  date: string;
  name: string;
}

export interface InvestmentsTransactionsGetResponse {
  accounts: Account[];
  investment_transactions: InvestmentTransaction[];
  total_investment_transactions: number;
}

export interface ItemsGetResponse {
  item: Item;
}

export interface ItemsRefreshResponse {
  refreshing: boolean;
}

export interface ItemsRemoveResponse {
  removed: boolean;
}

export interface ItemsStatementsUploadRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  file_name: string;
  /** The file’s bytes, standard base64. */
  file_base64: string;
}

/** What the file changed in the item’s transactions. */
export interface ItemsStatementsUploadResponseTransactions {
  added: number;
  modified: number;
  removed: number;
}

export interface ItemsStatementsUploadResponseSkippedRowsRowsItem {
  line: number;
  reason: string;
}

/** Rows of the file that were left out (totals, balance lines, rows without a date), each with its line and why; `rows` lists the first 100. */
export interface ItemsStatementsUploadResponseSkippedRows {
  count: number;
  rows: ItemsStatementsUploadResponseSkippedRowsRowsItem[];
}

export interface ItemsStatementsUploadResponseDateOrder {
  order: "dmy" | "mdy" | "ymd";
  source: "file" | "hint" | "default";
}

export interface ItemsStatementsUploadResponse {
  item_id: string;
  /** The accounts this file reported, as stored now. */
  accounts: Account[];
  /** What the file changed in the item’s transactions. */
  transactions: ItemsStatementsUploadResponseTransactions;
  /** Rows of the file that were left out (totals, balance lines, rows without a date), each with its line and why; `rows` lists the first 100. */
  skipped_rows: ItemsStatementsUploadResponseSkippedRows;
  /** How the file’s day/month dates were read: proved by the file (`file`), as the item’s earlier files were (`hint`), or guessed (`default`: every date fits both orders; confirm with the user). Null for OFX. */
  date_order: ItemsStatementsUploadResponseDateOrder | null;
}

export interface ItemWebhookUpdateRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  /** The new URL, or null to stop sending this item's events to a URL of its own. */
  webhook: string | null;
}

export interface ItemWebhookUpdateResponse {
  item: Item;
  /** The item's webhook URL from now on; null when cleared. */
  webhook: string | null;
  /** The environment’s webhook signing secret (`whsec_...`) when this call created it, on the environment’s first webhook: shown this once, null otherwise. Every delivery is signed with it (FC-Signature, docs/webhooks-verify.md); a lost one is replaced with /v1/webhooks/secret/rotate. */
  webhook_secret: string | null;
}

export interface LiabilitiesCreditItemAprsItem {
  apr_type: "purchase" | "cash_advance" | "balance_transfer" | "special";
  apr_percentage: number;
}

export interface LiabilitiesCreditItem {
  account_id: string;
  aprs: LiabilitiesCreditItemAprsItem[];
  is_overdue: boolean;
  last_payment_amount: number | null;
  last_payment_date: string | null;
  last_statement_balance: number | null;
  last_statement_issue_date: string | null;
  minimum_payment_amount: number;
  next_payment_due_date: string;
}

export interface LiabilitiesMortgageItem {
  account_id: string;
  interest_rate_percentage: number;
  interest_rate_type: "fixed" | "variable";
  origination_date: string;
  origination_principal_amount: number;
  maturity_date: string;
  next_monthly_payment: number;
  next_payment_due_date: string;
  escrow_balance: number | null;
}

export interface LiabilitiesStudentItem {
  account_id: string;
  loan_name: string;
  interest_rate_percentage: number;
  minimum_payment_amount: number;
  next_payment_due_date: string;
  origination_date: string;
  origination_principal_amount: number;
  expected_payoff_date: string;
}

export interface LiabilitiesAutoItem {
  account_id: string;
  interest_rate_percentage: number;
  minimum_payment_amount: number;
  next_payment_due_date: string;
  origination_date: string;
  origination_principal_amount: number;
  maturity_date: string;
}

export interface Liabilities {
  credit: LiabilitiesCreditItem[];
  mortgage: LiabilitiesMortgageItem[];
  student: LiabilitiesStudentItem[];
  auto: LiabilitiesAutoItem[];
}

export interface LiabilitiesGetResponse {
  accounts: Account[];
  liabilities: Liabilities;
}

export interface LinkTokenCreateRequestUser {
  client_user_id: string;
}

export interface LinkTokenCreateRequestUpdate {
  account_selection_enabled?: boolean;
}

export interface LinkTokenCreateRequest {
  client_name?: string;
  user: LinkTokenCreateRequestUser;
  products: Array<"transactions" | "identity" | "income" | "assets" | "investments" | "liabilities" | "recurring">;
  institution_id?: string;
  update_item_id?: string;
  /** The webhook URL of the item this session connects (or repairs), as Plaid's: the item's events are also sent there, signed with the environment's secret. Checked as an endpoint URL is, but not an endpoint (not listed, not counted against the cap). Read it back as `webhook` on the item; change it with /v1/item/webhook/update. */
  webhook?: string;
  redirect_uri?: string;
  language?: "en" | "es" | "fr" | "de";
  update?: LinkTokenCreateRequestUpdate;
}

export interface LinkTokenCreateResponse {
  link_token: string;
  expiration: string;
  /** The environment’s webhook signing secret (`whsec_...`) when this call created it, on the environment’s first webhook: shown this once, null otherwise. Every delivery is signed with it (FC-Signature, docs/webhooks-verify.md); a lost one is replaced with /v1/webhooks/secret/rotate. */
  webhook_secret: string | null;
}

export interface LinkTokenExchangeRequest {
  public_token: string;
}

export interface LinkTokenExchangeResponse {
  access_token: string;
  item_id: string;
  rotated: boolean;
}

export interface RecurringStream {
  stream_id: string;
  kind: "subscription" | "bill" | "payroll" | "other";
  direction: "outflow" | "inflow";
  account_id: string;
  merchant_name: string | null;
  /** The raw descriptor of the latest transaction. */
  description: string;
  category: string | null;
  category_detailed: string | null;
  cadence: "weekly" | "biweekly" | "semi_monthly" | "monthly" | "quarterly" | "annual";
  /** Mean absolute amount, major units. */
  average_amount: number;
  last_amount: number;
  iso_currency_code: string;
  first_date: string;
  last_date: string;
  predicted_next_date: string | null;
  /** False when the next expected charge is overdue by more than half a period plus a grace week. */
  is_active: boolean;
  transaction_ids: string[];
  confidence: number;
}

export interface RecurringGetResponse {
  recurring_streams: RecurringStream[];
}

export interface RemovedTransaction {
  transaction_id: string;
}

export interface SandboxFireWebhookRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  webhook_type: "transactions.sync_updates_available" | "item.error" | "item.login_repaired" | "item.webhook_updated" | "usage.limit_approaching";
}

export interface SandboxFireWebhookResponse {
  fired: boolean;
  event_id: string;
}

export interface SandboxItemResetLoginResponse {
  reset_login: boolean;
}

export interface SandboxPublicTokenCreateRequest {
  institution_id: string;
  products: Array<"transactions" | "identity" | "income" | "assets" | "investments" | "liabilities" | "recurring">;
  username?: string;
}

export interface SandboxPublicTokenCreateResponse {
  public_token: string;
}

export interface Transaction {
  transaction_id: string;
  account_id: string;
  date: string;
  authorized_datetime: string | null;
  name: string;
  merchant_name: string | null;
  amount: number;
  /** ISO 4217 currency code. */
  iso_currency_code: string;
  pending: boolean;
  category: string | null;
  category_detailed: string | null;
  payment_channel: "online" | "in_store" | "transfer" | "other";
}

export interface TransactionsGetRequestOptions {
  count?: number;
  offset?: number;
  /** At least one account_id of this item. */
  account_ids?: string[];
}

export interface TransactionsGetRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  /** A calendar date, YYYY-MM-DD. */
  start_date: string;
  /** A calendar date, YYYY-MM-DD. */
  end_date: string;
  options?: TransactionsGetRequestOptions;
}

export interface TransactionsGetResponse {
  accounts: Account[];
  transactions: Transaction[];
  total_transactions: number;
}

export interface TransactionsSyncRequest {
  /** The item access token from /v1/link/token/exchange (prefix fc_at_). */
  access_token: string;
  cursor?: string;
  count?: number;
}

export interface TransactionsSyncResponse {
  added: Transaction[];
  modified: Transaction[];
  removed: RemovedTransaction[];
  next_cursor: string;
  has_more: boolean;
  transactions_update_status: "not_ready" | "initial_update_complete" | "historical_update_complete";
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface WebhookDelivery {
  delivery_id: string;
  event_id: string;
  event_type: string;
  /** Where the delivery went: a registered endpoint, or the webhook URL of the item the event is about (set at link token creation or with /v1/item/webhook/update). */
  destination: "endpoint" | "item";
  /** The endpoint’s id (`whep_...`); for `destination: item`, the item’s id (`item_...`). Replay takes either as `endpoint_id`. */
  endpoint_id: string;
  url: string;
  status: "pending" | "delivered" | "dead_lettered" | "cancelled";
  attempts: WebhookAttempt[];
  created_at: string;
  finished_at: string | null;
}

export interface WebhookEndpoint {
  endpoint_id: string;
  url: string;
  created_at: string;
}

export interface WebhooksDeliveriesListRequest {
  count?: number;
  cursor?: string;
}

export interface WebhooksDeliveriesListResponse {
  deliveries: WebhookDelivery[];
  next_cursor: string | null;
}

export interface WebhooksEndpointsCreateRequest {
  url: string;
}

export interface WebhooksEndpointsCreateResponse {
  endpoint: WebhookEndpoint;
  created: boolean;
  secret: string | null;
}

export interface WebhooksEndpointsDeleteRequest {
  endpoint_id: string;
}

export interface WebhooksEndpointsDeleteResponse {
  deleted: boolean;
}

export interface WebhooksEndpointsListRequest {
}

export interface WebhooksEndpointsListResponse {
  endpoints: WebhookEndpoint[];
}

export interface WebhooksEventsReplayRequest {
  event_id: string;
  endpoint_id?: string;
}

export interface WebhooksEventsReplayResponse {
  delivery_ids: string[];
}

export interface WebhooksSecretRotateRequest {
  grace_period_hours?: number;
}

export interface WebhooksSecretRotateResponseSigningSecretsItem {
  /** The last four characters of the secret, to tell secrets apart. */
  last4: string;
  /** When it stops signing; null for the current secret (it signs until the next rotation). */
  expires_at: string | null;
}

export interface WebhooksSecretRotateResponse {
  secret: string;
  previous_secret_expires_at: string;
  /** Every secret that signs deliveries after this rotation, the new one first: at most 5. */
  signing_secrets: WebhooksSecretRotateResponseSigningSecretsItem[];
}
