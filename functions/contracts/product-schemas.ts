// Shapes of the data products the spec leaves "not shown" (identity, income, liabilities, recurring)
// plus the assets exclusions, designed after Plaid's equivalents and documented in openapi.json.
import * as z from 'zod';

export const Cadence = /* @__PURE__ */ z.enum(['weekly', 'biweekly', 'semi_monthly', 'monthly', 'quarterly', 'annual']).meta({ id: 'Cadence' });

export const RecurringStream = /* @__PURE__ */ z
  .object({
    stream_id: z.string(),
    kind: z.enum(['subscription', 'bill', 'payroll', 'other']),
    direction: z.enum(['outflow', 'inflow']),
    account_id: z.string(),
    merchant_name: z.string().nullable(),
    description: z.string().meta({ description: 'The raw descriptor of the latest transaction.' }),
    category: z.string().nullable(),
    category_detailed: z.string().nullable(),
    cadence: Cadence,
    average_amount: z.number().meta({ description: 'Mean absolute amount, major units.' }),
    last_amount: z.number(),
    iso_currency_code: z.string(),
    first_date: z.string(),
    last_date: z.string(),
    predicted_next_date: z.string().nullable(),
    is_active: z.boolean().meta({ description: 'False when the next expected charge is overdue by more than half a period plus a grace week.' }),
    transaction_ids: z.array(z.string()),
    confidence: z.number().min(0).max(1),
  })
  .meta({ id: 'RecurringStream' });

export const IncomeStream = /* @__PURE__ */ z
  .object({
    stream_id: z.string(),
    kind: z.enum(['payroll', 'benefits', 'interest', 'other']),
    employer: z.object({ name: z.string() }).nullable(),
    account_id: z.string(),
    cadence: Cadence,
    average_net: z.number(),
    average_gross: z.number().meta({ description: 'Estimated from net deposits; see gross_estimation.' }),
    gross_estimation: z.string().meta({ description: 'How average_gross was estimated from net deposits.' }),
    last_amount: z.number(),
    last_date: z.string(),
    predicted_next_date: z.string().nullable(),
    iso_currency_code: z.string(),
    transaction_ids: z.array(z.string()),
    confidence: z.number().min(0).max(1),
  })
  .meta({ id: 'IncomeStream' });

const Contact = /* @__PURE__ */ (() => z.object({ data: z.string(), primary: z.boolean(), type: z.enum(['home', 'work', 'mobile', 'personal', 'other']) }))();
const Address = /* @__PURE__ */ (() =>
  z.object({
    data: z.object({ street: z.string(), city: z.string(), region: z.string().nullable(), postal_code: z.string(), country: z.string() }),
    primary: z.boolean(),
  }))();

export const Owner = /* @__PURE__ */ z
  .object({
    names: z.array(z.string()),
    emails: z.array(Contact),
    phone_numbers: z.array(Contact),
    addresses: z.array(Address),
    account_ids: z.array(z.string()),
  })
  .meta({ id: 'Owner' });

export const Identity = /* @__PURE__ */ z
  .object({ owners: z.array(Owner).meta({ description: 'Empty for a degraded item (login needs repair): never an error.' }) })
  .meta({ id: 'Identity' });

const Apr = /* @__PURE__ */ (() => z.object({ apr_type: z.enum(['purchase', 'cash_advance', 'balance_transfer', 'special']), apr_percentage: z.number() }))();

export const Liabilities = /* @__PURE__ */ z
  .object({
    credit: z.array(
      z.object({
        account_id: z.string(),
        aprs: z.array(Apr),
        is_overdue: z.boolean(),
        last_payment_amount: z.number().nullable(),
        last_payment_date: z.string().nullable(),
        last_statement_balance: z.number().nullable(),
        last_statement_issue_date: z.string().nullable(),
        minimum_payment_amount: z.number(),
        next_payment_due_date: z.string(),
      }),
    ),
    mortgage: z.array(
      z.object({
        account_id: z.string(),
        interest_rate_percentage: z.number(),
        interest_rate_type: z.enum(['fixed', 'variable']),
        origination_date: z.string(),
        origination_principal_amount: z.number(),
        maturity_date: z.string(),
        next_monthly_payment: z.number(),
        next_payment_due_date: z.string(),
        escrow_balance: z.number().nullable(),
      }),
    ),
    student: z.array(
      z.object({
        account_id: z.string(),
        loan_name: z.string(),
        interest_rate_percentage: z.number(),
        minimum_payment_amount: z.number(),
        next_payment_due_date: z.string(),
        origination_date: z.string(),
        origination_principal_amount: z.number(),
        expected_payoff_date: z.string(),
      }),
    ),
    auto: z.array(
      z.object({
        account_id: z.string(),
        interest_rate_percentage: z.number(),
        minimum_payment_amount: z.number(),
        next_payment_due_date: z.string(),
        origination_date: z.string(),
        origination_principal_amount: z.number(),
        maturity_date: z.string(),
      }),
    ),
  })
  .meta({ id: 'Liabilities' });

export const ExcludedAccount = /* @__PURE__ */ z
  .object({ account_id: z.string(), iso_currency_code: z.string(), reason: z.literal('currency_mismatch') })
  .meta({ id: 'ExcludedAccount' });
