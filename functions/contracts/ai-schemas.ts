// Response bodies of seven AI endpoints (subscriptions, cashflow, health-score, financial-summary,
// fraud-risk, purchase-analysis, weekly-report), WITHOUT the engine metadata (`engine`, `model`):
// the route table adds EngineMeta. The rules answers that fill them live in functions/core/ai; how
// each number is computed is documented in docs/ai.md, "Rules answers".
//
// Conventions: money is in major units rounded to cents, next to an `iso_currency_code`; every
// number, id and date is a structured field. Prose sits only in fields named `summary`,
// `highlights`, `narrative`, `recommendation`, `explanation`, `reason` or `note`: a model may
// rewrite those and nothing else.
import * as z from 'zod';
import { LIMITS } from './limits';
import { Cadence } from './product-schemas';

const Money = /* @__PURE__ */ z.number().meta({ description: 'Major currency units, rounded to cents.' });
const Currency = /* @__PURE__ */ z.string().regex(/^[A-Z]{3}$/).meta({ description: 'ISO 4217 currency code.' });
const Day = /* @__PURE__ */ z.string().meta({ description: 'A calendar date, YYYY-MM-DD.' });
const Ratio = /* @__PURE__ */ z.number().meta({ description: 'A fraction (0.25 = 25 %), rounded to four decimals.' });
const Period = /* @__PURE__ */ z.object({ start: Day, end: Day, days: z.int().min(1) }).meta({ description: 'Both dates inclusive.' });

// ---------------------------------------------------------------------------------------------
// Request extras
// ---------------------------------------------------------------------------------------------

/** Forecast horizon of /v1/ai/cashflow, days. */
export const CASHFLOW_HORIZON_DEFAULT = 30;
export const CASHFLOW_HORIZON_MAX = 365;
export const HorizonDays = /* @__PURE__ */ (() =>
  z
    .int()
    .min(1)
    .max(CASHFLOW_HORIZON_MAX)
    .meta({ description: `Days to forecast after today (default ${CASHFLOW_HORIZON_DEFAULT}).`, example: 30 }))();

/** The planned purchase of /v1/ai/purchase-analysis. */
export const PurchaseInput = /* @__PURE__ */ (() =>
  z.strictObject({
    description: z.string().min(1).max(LIMITS.descriptorMaxLength),
    amount: z.number().positive().max(LIMITS.aiAmountMax),
  }))();

// ---------------------------------------------------------------------------------------------
// subscriptions
// ---------------------------------------------------------------------------------------------

export const SUBSCRIPTION_SIGNAL_CODES = ['duplicate_subscription', 'no_related_activity', 'overlapping_services', 'price_increase'] as const;
const SubscriptionSignal = /* @__PURE__ */ (() =>
  z.object({
    code: z.enum(SUBSCRIPTION_SIGNAL_CODES),
    counts_as_unused: z.boolean().meta({ description: 'Whether this signal alone sets likely_unused.' }),
    reason: z.string(),
  }))();

const Subscription = /* @__PURE__ */ (() =>
  z.object({
    stream_id: z.string().meta({ description: 'The recurring stream (as /v1/recurring/get returns it).' }),
    merchant: z.string(),
    description: z.string().meta({ description: 'Raw descriptor of the latest charge.' }),
    category_detailed: z.string().nullable(),
    account_id: z.string(),
    cadence: Cadence,
    average_amount: Money,
    last_amount: Money.meta({ description: 'The current price: the latest charge.' }),
    monthly_cost: Money.meta({ description: 'annual_cost / 12.' }),
    annual_cost: Money.meta({ description: 'last_amount times the charges a year of the cadence.' }),
    iso_currency_code: Currency,
    first_date: Day,
    last_date: Day,
    next_date: Day.nullable(),
    charge_count: z.int().min(1),
    transaction_ids: z.array(z.string()),
    price_change: z
      .object({ from: Money, to: Money, change_pct: z.number(), date: Day })
      .nullable()
      .meta({ description: 'The latest price change (from the earliest charges to the current price), or null.' }),
    likely_unused: z.boolean(),
    reason: z.string().nullable().meta({ description: 'Why likely_unused is set (the first unused signal), or null.' }),
    signals: z.array(SubscriptionSignal),
  }))();

const SavingsNote = /* @__PURE__ */ (() =>
  z.object({
    code: z.enum(['cancel_duplicate', 'cancel_unused', 'consolidate_overlap', 'price_increase']),
    stream_ids: z.array(z.string()),
    potential_annual_savings: Money,
    iso_currency_code: Currency,
    note: z.string(),
  }))();

const SubscriptionTotals = /* @__PURE__ */ (() =>
  z.object({
    iso_currency_code: Currency,
    count: z.int().min(0),
    monthly_cost: Money,
    annual_cost: Money,
    likely_unused_annual_cost: Money,
  }))();

export const SubscriptionsResult = /* @__PURE__ */ z
  .object({
    subscriptions: z.array(Subscription).meta({ description: 'Active paid subscriptions, by annual_cost descending, then stream_id.' }),
    totals: z.array(SubscriptionTotals).meta({ description: 'One entry per currency, by annual_cost descending.' }),
    savings_notes: z.array(SavingsNote).meta({ description: 'By potential_annual_savings descending.' }),
  })
  .meta({
    description: 'Paid subscriptions found by recurring detection, with annual cost, likely-unused flags and savings notes.',
    example: {
      subscriptions: [
        {
          stream_id: 'rec_3f2a9c0d1e4b5a6c7d8e',
          merchant: 'Netflix',
          description: 'NETFLIX.COM 866-579-7172 CA',
          category_detailed: 'entertainment_streaming',
          account_id: 'acct_8c1f0a',
          cadence: 'monthly',
          average_amount: 16.82,
          last_amount: 17.99,
          monthly_cost: 17.99,
          annual_cost: 215.88,
          iso_currency_code: 'USD',
          first_date: '2025-07-15',
          last_date: '2026-06-15',
          next_date: '2026-07-15',
          charge_count: 12,
          transaction_ids: ['txn_a1', 'txn_a2'],
          price_change: { from: 15.49, to: 17.99, change_pct: 16.14, date: '2026-02-15' },
          likely_unused: false,
          reason: null,
          signals: [{ code: 'price_increase', counts_as_unused: false, reason: 'Netflix went up from 15.49 to 17.99 (+16.1 %) on 2026-02-15.' }],
        },
      ],
      totals: [{ iso_currency_code: 'USD', count: 1, monthly_cost: 17.99, annual_cost: 215.88, likely_unused_annual_cost: 0 }],
      savings_notes: [
        {
          code: 'price_increase',
          stream_ids: ['rec_3f2a9c0d1e4b5a6c7d8e'],
          potential_annual_savings: 30,
          iso_currency_code: 'USD',
          note: 'Netflix now costs 30.00 USD more a year than at its earlier price; a cheaper plan may be worth a look.',
        },
      ],
    },
  });
export type SubscriptionsResult = z.infer<typeof SubscriptionsResult>;

// ---------------------------------------------------------------------------------------------
// cashflow
// ---------------------------------------------------------------------------------------------

const ForecastDay = /* @__PURE__ */ (() =>
  z.object({
    date: Day,
    inflow: Money,
    outflow: Money.meta({ description: 'Recurring outflows due that day plus the baseline daily spend.' }),
    balance: Money.meta({ description: 'Projected balance at the end of the day.' }),
    stream_ids: z.array(z.string()).meta({ description: 'Recurring streams expected that day.' }),
  }))();

const CashflowDriver = /* @__PURE__ */ (() =>
  z.object({
    stream_id: z.string(),
    direction: z.enum(['inflow', 'outflow']),
    kind: z.enum(['subscription', 'bill', 'payroll', 'other']),
    merchant: z.string(),
    cadence: Cadence,
    amount: Money.meta({ description: 'Expected amount per occurrence (absolute).' }),
    dates: z.array(Day).meta({ description: 'Expected dates within the horizon.' }),
    total: Money.meta({ description: 'amount times the occurrences within the horizon (absolute).' }),
  }))();

export const CashflowResult = /* @__PURE__ */ z
  .object({
    horizon_days: z.int().min(1).max(CASHFLOW_HORIZON_MAX),
    start_date: Day.meta({ description: 'The first forecast day (the day after today).' }),
    end_date: Day,
    iso_currency_code: Currency,
    balance_source: z
      .enum(['depository_accounts', 'none'])
      .meta({ description: '`none`: no balances were available (raw transactions), so the forecast starts from 0 and shows the net change.' }),
    starting_balance: Money,
    account_ids: z.array(z.string()).meta({ description: 'Depository accounts whose current balance the forecast starts from.' }),
    baseline_daily_spend: Money.meta({ description: 'Non-recurring spending expected each day: the median week of the trailing weeks, over 7.' }),
    baseline_weeks: z.int().min(0).meta({ description: 'Trailing weeks the baseline was measured on.' }),
    total_inflow: Money,
    total_outflow: Money,
    ending_balance: Money,
    lowest_balance: z.object({ date: Day, balance: Money }),
    low_balance_warning: z
      .object({
        threshold: Money,
        first_date: Day.meta({ description: 'The first day the projected balance is below the threshold.' }),
        days_below: z.int().min(1),
        severity: z.enum(['low', 'high']).meta({ description: '`high` when the balance is projected below zero.' }),
        explanation: z.string(),
      })
      .nullable(),
    drivers: z.array(CashflowDriver).meta({ description: 'Recurring streams in the horizon, by total descending, then stream_id.' }),
    daily: z.array(ForecastDay).meta({ description: 'One entry per day of the horizon.' }),
    note: z.string(),
  })
  .meta({
    description: 'A daily balance forecast driven by recurring streams on their schedules plus a baseline of everyday spending.',
    example: {
      horizon_days: 2,
      start_date: '2026-07-02',
      end_date: '2026-07-03',
      iso_currency_code: 'USD',
      balance_source: 'depository_accounts',
      starting_balance: 2450.1,
      account_ids: ['acct_8c1f0a'],
      baseline_daily_spend: 48.2,
      baseline_weeks: 12,
      total_inflow: 2100,
      total_outflow: 1796.4,
      ending_balance: 2753.7,
      lowest_balance: { date: '2026-07-02', balance: 701.9 },
      low_balance_warning: null,
      drivers: [
        { stream_id: 'rec_a1', direction: 'outflow', kind: 'bill', merchant: 'Rent', cadence: 'monthly', amount: 1700, dates: ['2026-07-02'], total: 1700 },
        { stream_id: 'rec_b2', direction: 'inflow', kind: 'payroll', merchant: 'Acme Corp', cadence: 'biweekly', amount: 2100, dates: ['2026-07-03'], total: 2100 },
      ],
      daily: [
        { date: '2026-07-02', inflow: 0, outflow: 1748.2, balance: 701.9, stream_ids: ['rec_a1'] },
        { date: '2026-07-03', inflow: 2100, outflow: 48.2, balance: 2753.7, stream_ids: ['rec_b2'] },
      ],
      note: 'Starts from the current balance of 1 depository account; recurring streams on their schedules plus 48.20 USD of everyday spending a day.',
    },
  });
export type CashflowResult = z.infer<typeof CashflowResult>;

// ---------------------------------------------------------------------------------------------
// health-score
// ---------------------------------------------------------------------------------------------

export const HEALTH_SUBSCORE_KEYS = [
  'savings_rate',
  'emergency_buffer',
  'spending_stability',
  'credit_utilization',
  'debt_to_income',
  'income_regularity',
  'fees',
] as const;

const Subscore = /* @__PURE__ */ (() =>
  z.object({
    key: z.enum(HEALTH_SUBSCORE_KEYS),
    label: z.string(),
    value: z.number().nullable().meta({ description: 'The measured quantity in `unit`, or null when the data to measure it is missing.' }),
    unit: z.enum(['ratio', 'days', 'count']),
    score: z.int().min(0).max(100).nullable().meta({ description: '0-100, or null when value is null.' }),
    weight: z.number().min(0).max(1).meta({ description: 'Share of the overall score; 0 when the subscore is missing (the others are scaled up).' }),
    explanation: z.string(),
  }))();

export const HealthScoreResult = /* @__PURE__ */ z
  .object({
    score: z.int().min(0).max(100).meta({ description: 'The weighted sum of the subscores, rounded.' }),
    band: z.enum(['excellent', 'good', 'fair', 'poor']).meta({ description: 'excellent 80+, good 65+, fair 45+, poor below.' }),
    iso_currency_code: Currency,
    period: Period.meta({ description: 'The trailing window the flow measures use.' }),
    subscores: z.array(Subscore).meta({ description: 'Always all seven, in a fixed order.' }),
    summary: z.string(),
  })
  .meta({
    description: 'An explainable 0-100 financial health score: the weighted sum of its subscores.',
    example: {
      score: 72,
      band: 'good',
      iso_currency_code: 'USD',
      period: { start: '2026-04-03', end: '2026-07-01', days: 90 },
      subscores: [
        {
          key: 'savings_rate',
          label: 'Savings rate',
          value: 0.12,
          unit: 'ratio',
          score: 73,
          weight: 0.25,
          explanation: 'You kept 12 % of your income over the last 90 days.',
        },
      ],
      summary: 'Your financial health score is 72 (good). Strongest: credit utilization; weakest: emergency buffer.',
    },
  });
export type HealthScoreResult = z.infer<typeof HealthScoreResult>;

// ---------------------------------------------------------------------------------------------
// financial-summary
// ---------------------------------------------------------------------------------------------

const PeriodTotals = /* @__PURE__ */ (() =>
  z.object({
    income: Money,
    spending: Money,
    net: Money.meta({ description: 'income - spending.' }),
    transaction_count: z.int().min(0),
  }))();

const CategoryTotal = /* @__PURE__ */ (() =>
  z.object({
    category: z.string(),
    label: z.string(),
    amount: Money,
    share: Ratio.meta({ description: 'Share of the period spending.' }),
    previous_amount: Money,
    change_pct: z.number().nullable().meta({ description: 'Percent change from the previous period; null when it was 0.' }),
    transaction_count: z.int().min(0),
  }))();

const MerchantTotal = /* @__PURE__ */ (() => z.object({ merchant: z.string(), amount: Money, transaction_count: z.int().min(1) }))();

const OtherCurrencySpending = /* @__PURE__ */ (() => z.object({ iso_currency_code: Currency, amount: Money, transaction_count: z.int().min(1) }))();

const NotableChange = /* @__PURE__ */ (() =>
  z.object({
    kind: z.enum(['category_up', 'category_down', 'new_category', 'income_up', 'income_down', 'new_merchant']),
    subject: z.string().meta({ description: 'A category id, a merchant name, or `income`.' }),
    amount: Money,
    previous_amount: Money,
    change: Money,
    change_pct: z.number().nullable(),
    note: z.string(),
  }))();

export const FinancialSummaryResult = /* @__PURE__ */ z
  .object({
    period: Period,
    previous_period: Period,
    iso_currency_code: Currency,
    totals: PeriodTotals,
    previous_totals: PeriodTotals,
    top_categories: z.array(CategoryTotal).meta({ description: 'Up to five primary categories by amount descending.' }),
    top_merchants: z.array(MerchantTotal).meta({ description: 'Up to five merchants by amount descending.' }),
    notable_changes: z.array(NotableChange).meta({ description: 'By absolute change descending.' }),
    other_currency_spending: z.array(OtherCurrencySpending).meta({ description: 'Spending in other currencies, not converted or counted in totals.' }),
    summary: z.string(),
    highlights: z.array(z.string()),
  })
  .meta({
    description: 'Period totals, top categories and merchants, notable changes against the previous period, and a plain-language summary.',
    example: {
      period: { start: '2026-06-02', end: '2026-07-01', days: 30 },
      previous_period: { start: '2026-05-03', end: '2026-06-01', days: 30 },
      iso_currency_code: 'USD',
      totals: { income: 4200, spending: 3310.55, net: 889.45, transaction_count: 84 },
      previous_totals: { income: 4200, spending: 2980.1, net: 1219.9, transaction_count: 79 },
      top_categories: [
        { category: 'rent_and_utilities', label: 'Rent & Utilities', amount: 1820.4, share: 0.5499, previous_amount: 1815.2, change_pct: 0.29, transaction_count: 4 },
      ],
      top_merchants: [{ merchant: 'Whole Foods Market', amount: 412.37, transaction_count: 7 }],
      notable_changes: [
        {
          kind: 'category_up',
          subject: 'travel',
          amount: 420,
          previous_amount: 60,
          change: 360,
          change_pct: 600,
          note: 'Travel spending rose from 60.00 to 420.00 USD.',
        },
      ],
      other_currency_spending: [],
      summary: 'From 2026-06-02 to 2026-07-01 you earned 4,200.00 USD and spent 3,310.55 USD, keeping 889.45 USD.',
      highlights: ['Your biggest category was Rent & Utilities (55 % of spending).'],
    },
  });
export type FinancialSummaryResult = z.infer<typeof FinancialSummaryResult>;

// ---------------------------------------------------------------------------------------------
// fraud-risk
// ---------------------------------------------------------------------------------------------

export const FRAUD_SIGNAL_TYPES = ['duplicate_charge', 'unusual_amount', 'new_merchant_large_amount', 'card_testing', 'new_currency'] as const;
const Severity = /* @__PURE__ */ z.enum(['low', 'medium', 'high']);

const FraudSignal = /* @__PURE__ */ (() =>
  z.object({
    type: z.enum(FRAUD_SIGNAL_TYPES),
    severity: Severity,
    transaction_ids: z.array(z.string()),
    merchant: z.string().nullable(),
    amount: Money.meta({ description: 'The amount at stake: the duplicated or unusual charge, or the total of the charges involved.' }),
    iso_currency_code: Currency,
    first_date: Day,
    last_date: Day,
    baseline: z
      .object({ median: Money, mad: Money, robust_z: z.number(), history_count: z.int().min(1) })
      .nullable()
      .meta({ description: 'For unusual_amount: the merchant history the charge is measured against.' }),
    explanation: z.string(),
  }))();

export const FraudRiskResult = /* @__PURE__ */ z
  .object({
    grade: Severity.meta({ description: '`high` with any high signal or a score of 60+, `medium` with any medium signal or 20+, else `low`.' }),
    score: z.int().min(0).max(100).meta({ description: 'Severity points (high 40, medium 20, low 5), capped at 100.' }),
    review_period: Period.meta({ description: 'The charges reviewed: the last 30 days up to the latest transaction (at most today).' }),
    transactions_reviewed: z.int().min(0),
    history_days: z.int().min(0).meta({ description: 'Days of history before the review period that the baselines use.' }),
    signals: z.array(FraudSignal).meta({ description: 'By severity (high first), then last_date descending, then the first transaction id.' }),
    summary: z.string(),
  })
  .meta({
    description: 'Fraud risk signals (duplicate charges, unusual amounts, new merchants with large amounts, card testing, new currencies) with an overall grade.',
    example: {
      grade: 'medium',
      score: 20,
      review_period: { start: '2026-06-02', end: '2026-07-01', days: 30 },
      transactions_reviewed: 84,
      history_days: 700,
      signals: [
        {
          type: 'duplicate_charge',
          severity: 'medium',
          transaction_ids: ['txn_a1', 'txn_a2'],
          merchant: 'Best Buy',
          amount: 89.99,
          iso_currency_code: 'USD',
          first_date: '2026-06-20',
          last_date: '2026-06-20',
          baseline: null,
          explanation: '2 charges of 89.99 USD at Best Buy within 2 days.',
        },
      ],
      summary: 'Risk is medium: 1 signal in 84 transactions from 2026-06-02 to 2026-07-01.',
    },
  });
export type FraudRiskResult = z.infer<typeof FraudRiskResult>;

// ---------------------------------------------------------------------------------------------
// purchase-analysis
// ---------------------------------------------------------------------------------------------

export const PURCHASE_REASON_CODES = [
  'insufficient_funds',
  'short_after_upcoming_bills',
  'covered_after_next_income',
  'thin_buffer',
  'comfortable_buffer',
  'large_share_of_discretionary',
  'small_share_of_discretionary',
  'no_balance_data',
] as const;

export const PurchaseAnalysisResult = /* @__PURE__ */ z
  .object({
    purchase: z.object({ description: z.string(), amount: Money, iso_currency_code: Currency }),
    verdict: z.enum(['buy', 'wait', 'skip']),
    liquid_balance: Money.nullable().meta({ description: 'Current balance of depository accounts; null without balance data.' }),
    upcoming_outflows: Money.meta({ description: 'Recurring outflows expected in the next 30 days.' }),
    upcoming_inflows: Money.meta({ description: 'Recurring inflows expected in the next 30 days.' }),
    next_income_date: Day.nullable(),
    balance_after_purchase: Money.nullable().meta({ description: 'liquid_balance - amount - recurring outflows due before the next income.' }),
    buffer_days_after_purchase: z.number().nullable().meta({ description: 'balance_after_purchase in days of average spending.' }),
    safety_buffer: Money.meta({ description: 'Balance to keep after bills: 14 days of average spending.' }),
    average_daily_spending: Money,
    monthly_discretionary_spending: Money.meta({ description: 'Average monthly spending outside bills, loans and transfers (last 90 days).' }),
    share_of_monthly_discretionary: Ratio.nullable(),
    opportunity_cost: z.object({
      annual_rate: z.number().meta({ description: 'Assumed annual return, compounded yearly (a documented constant, not advice).' }),
      projections: z.array(z.object({ years: z.int(), future_value: Money, growth: Money })),
      note: z.string(),
    }),
    wait_until: Day.nullable().meta({ description: 'For `wait`: the day the purchase fits (the next income), when known.' }),
    reasons: z.array(z.object({ code: z.enum(PURCHASE_REASON_CODES), explanation: z.string() })),
    recommendation: z.string(),
  })
  .meta({
    description: 'Buy, wait or skip for a planned purchase: the buffer left after it and the bills due, its weight in your usual spending, and its opportunity cost.',
    example: {
      purchase: { description: 'Noise-cancelling headphones', amount: 349, iso_currency_code: 'USD' },
      verdict: 'buy',
      liquid_balance: 5210.4,
      upcoming_outflows: 2150.3,
      upcoming_inflows: 4200,
      next_income_date: '2026-07-10',
      balance_after_purchase: 3290.1,
      buffer_days_after_purchase: 41.2,
      safety_buffer: 1117.2,
      average_daily_spending: 79.8,
      monthly_discretionary_spending: 1480.25,
      share_of_monthly_discretionary: 0.2358,
      opportunity_cost: {
        annual_rate: 0.07,
        projections: [
          { years: 5, future_value: 489.49, growth: 140.49 },
          { years: 10, future_value: 686.54, growth: 337.54 },
        ],
        note: 'Invested at 7 % a year instead, 349.00 USD would grow to 489.49 in 5 years and 686.54 in 10.',
      },
      wait_until: null,
      reasons: [{ code: 'comfortable_buffer', explanation: 'After the purchase and bills due before your next income, 3,290.10 USD (41 days of spending) remain.' }],
      recommendation: 'Buy: it fits comfortably.',
    },
  });
export type PurchaseAnalysisResult = z.infer<typeof PurchaseAnalysisResult>;

// ---------------------------------------------------------------------------------------------
// weekly-report
// ---------------------------------------------------------------------------------------------

const WeekCategory = /* @__PURE__ */ (() =>
  z.object({
    category: z.string(),
    label: z.string(),
    amount: Money,
    prior_weekly_average: Money.meta({ description: 'Average weekly spending in the category over the 4 weeks before.' }),
    change: Money,
    change_pct: z.number().nullable(),
  }))();

export const WeeklyReportResult = /* @__PURE__ */ z
  .object({
    week: Period,
    iso_currency_code: Currency,
    totals: z.object({
      spending: Money,
      income: Money,
      net: Money,
      transaction_count: z.int().min(0),
      prior_weekly_average_spending: Money,
      change_pct: z.number().nullable(),
    }),
    categories: z.array(WeekCategory).meta({ description: 'Primary categories with spending this week or in the 4 before, by amount descending.' }),
    largest_transactions: z
      .array(z.object({ transaction_id: z.string(), date: Day, merchant: z.string(), amount: Money, category: z.string().nullable() }))
      .meta({ description: 'Up to five, by amount descending.' }),
    recurring_charges: z
      .array(z.object({ stream_id: z.string(), transaction_id: z.string(), merchant: z.string(), amount: Money, date: Day, cadence: Cadence }))
      .meta({ description: 'Charges of recurring outflow streams that hit this week, by date.' }),
    income_received: z
      .array(z.object({ transaction_id: z.string(), date: Day, source: z.string(), amount: Money }))
      .meta({ description: 'Income deposits this week, by date.' }),
    upcoming_bills: z
      .array(
        z.object({
          stream_id: z.string(),
          merchant: z.string(),
          kind: z.enum(['subscription', 'bill', 'payroll', 'other']),
          expected_date: Day,
          expected_amount: Money,
        }),
      )
      .meta({ description: 'Recurring outflows expected in the 7 days after the week, by date.' }),
    other_currency_spending: z.array(OtherCurrencySpending),
    narrative: z.string(),
  })
  .meta({
    description: 'The week in numbers (spending by category against the 4 weeks before, largest charges, recurring charges, income, bills next week) and a narrative.',
    example: {
      week: { start: '2026-06-25', end: '2026-07-01', days: 7 },
      iso_currency_code: 'USD',
      totals: { spending: 612.4, income: 2100, net: 1487.6, transaction_count: 23, prior_weekly_average_spending: 540.1, change_pct: 13.39 },
      categories: [{ category: 'food_and_drink', label: 'Food & Drink', amount: 188.2, prior_weekly_average: 150.35, change: 37.85, change_pct: 25.17 }],
      largest_transactions: [{ transaction_id: 'txn_a1', date: '2026-06-28', merchant: 'Costco', amount: 182.55, category: 'shopping' }],
      recurring_charges: [{ stream_id: 'rec_s1', transaction_id: 'txn_b1', merchant: 'Spotify', amount: 11.99, date: '2026-06-27', cadence: 'monthly' }],
      income_received: [{ transaction_id: 'txn_c1', date: '2026-06-26', source: 'Acme Corp', amount: 2100 }],
      upcoming_bills: [{ stream_id: 'rec_r1', merchant: 'Rent', kind: 'bill', expected_date: '2026-07-03', expected_amount: 1700 }],
      other_currency_spending: [],
      narrative: 'You spent 612.40 USD this week, 13 % more than your 4-week average of 540.10 USD.',
    },
  });
export type WeeklyReportResult = z.infer<typeof WeeklyReportResult>;
