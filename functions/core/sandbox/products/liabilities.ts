// Liabilities of a sandbox login, read off its card and loan accounts and their payment history:
// the statement is the month the autopay settles, the minimum payment the installment the loan
// account receives.
import type { z } from 'zod';
import type { Liabilities as LiabilitiesSchema } from '../../../contracts/product-schemas';
import { addMonths, civilFromDays, isoDate, monthDay, parseDate } from '../../calendar';
import type { RawTransaction, SandboxAccount, SandboxItemData, SandboxLogin } from '../generator';
import { convertCents } from '../pools';
import { Rng } from '../random';
import { CARD_PAYMENT_NAMES, cents, FX_FEE_NAMES, money, monthOf, seedOf, settled } from './shared';

export type Liabilities = z.infer<typeof LiabilitiesSchema>;

type CreditLiability = Liabilities['credit'][number];
type StudentLiability = Liabilities['student'][number];
type AutoLiability = Liabilities['auto'][number];
type MortgageLiability = Liabilities['mortgage'][number];

const PURCHASE_APRS = [18.24, 19.99, 21.49, 22.99, 24.24, 25.74, 27.49, 28.99];
const CASH_ADVANCE_APRS = [27.99, 28.99, 29.49, 29.99];
const STUDENT_RATES = [4.99, 5.5, 6.05, 6.54, 6.8, 7.05];
const AUTO_RATES = [4.49, 5.24, 5.99, 6.49, 6.99, 7.49, 7.99, 8.49];
const MORTGAGE_RATES = [5.875, 6.125, 6.25, 6.5, 6.625, 6.99];
const STUDENT_LOAN_NAMES = ['Direct Consolidation Loan', 'Direct Unsubsidized Loan', 'Private Student Loan'];

/** Minimum-payment floor in major units of the card's currency. */
const MIN_PAYMENT_FLOOR = 25;

/**
 * Month (YYYY-MM) whose statement a card row belongs to: the authorization month, as the issuer
 * (and the generator) books it. A foreign-transaction fee carries no authorization time and may
 * post in the next month; it belongs to its purchase (same account, same posted date, the 3% fee).
 */
function statementMonths(rows: RawTransaction[], currency: string): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const t of rows) {
    if (t.authorized_datetime) {
      out.set(t.transaction_id, monthOf(t.authorized_datetime));
      continue;
    }
    let month = monthOf(t.date);
    if (FX_FEE_NAMES.has(t.name)) {
      const fee = cents(t.amount);
      const candidates = rows.filter(
        (x) => x.date === t.date && x.authorized_datetime && x.iso_currency_code !== currency && !used.has(x.transaction_id),
      );
      const match =
        candidates.find((x) => Math.max(1, Math.round(convertCents(cents(x.amount), x.iso_currency_code, currency) * 0.03)) === fee) ?? candidates[0];
      if (match) {
        used.add(match.transaction_id);
        month = monthOf(match.authorized_datetime!);
      }
    }
    out.set(t.transaction_id, month);
  }
  return out;
}

function creditLiability(seed: string, account: SandboxAccount, data: SandboxItemData, todayN: number): CreditLiability {
  const currency = account.balances.iso_currency_code;
  const rows = data.transactions.filter((t) => t.account_id === account.account_id);
  const payments = rows.filter((t) => !t.pending && t.amount < 0 && t.authorized_datetime === null && CARD_PAYMENT_NAMES.has(t.name));
  payments.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const paymentIds = new Set(payments.map((p) => p.transaction_id));
  const r = new Rng(`${seed}|credit|${account.account_id}`);

  // Autopay day: the latest day of month a payment landed on (short months clamp it).
  const payDay = payments.length ? Math.max(...payments.map((p) => civilFromDays(parseDate(p.date)).d)) : r.int(5, 28);

  // Card activity per statement month, in the card's currency; the autopay settles the previous month.
  const months = statementMonths(rows, currency);
  const activity = new Map<string, number>();
  for (const t of rows) {
    if (paymentIds.has(t.transaction_id)) continue;
    const m = months.get(t.transaction_id)!;
    activity.set(m, (activity.get(m) ?? 0) + convertCents(cents(t.amount), t.iso_currency_code, currency));
  }

  const thisMonth = monthOf(isoDate(todayN));
  const statementDay = monthDay(todayN, 0, 1) - 1; // last day of the previous month
  const statementMonth = monthOf(isoDate(statementDay));
  const dueThisMonth = monthDay(todayN, 0, payDay);
  const beforeDue = todayN < dueThisMonth;
  const paidThisMonth = payments.find((p) => monthOf(p.date) === thisMonth) ?? null;

  // The last statement: paid in full by autopay, so once paid it equals the payment to the cent.
  const statementCents = !beforeDue && paidThisMonth ? -cents(paidThisMonth.amount) : (activity.get(statementMonth) ?? 0);
  // Paid in full every month: no interest was charged on the last statement.
  const interestCents = 0;
  const minimumCents =
    statementCents <= 0 ? 0 : Math.min(statementCents, Math.max(MIN_PAYMENT_FLOOR * 100, Math.round(statementCents * 0.01) + interestCents));
  const nextDue = beforeDue ? dueThisMonth : monthDay(todayN, 1, payDay);
  const lastPayment = payments[0] ?? null;
  const purchase = r.pick(PURCHASE_APRS);
  return {
    account_id: account.account_id,
    aprs: [
      { apr_type: 'purchase', apr_percentage: purchase },
      { apr_type: 'cash_advance', apr_percentage: Math.max(purchase, r.pick(CASH_ADVANCE_APRS)) },
      { apr_type: 'balance_transfer', apr_percentage: purchase },
    ],
    is_overdue: !beforeDue && statementCents > 0 && !paidThisMonth,
    last_payment_amount: lastPayment ? -lastPayment.amount : null,
    last_payment_date: lastPayment ? lastPayment.date : null,
    last_statement_balance: money(statementCents),
    last_statement_issue_date: isoDate(statementDay),
    minimum_payment_amount: money(minimumCents),
    next_payment_due_date: isoDate(nextDue),
  };
}

interface LoanTerms {
  ratePercentage: number;
  paymentCents: number;
  nextDue: number;
  originationDate: number;
  originationPrincipalCents: number;
  maturity: number;
}

const STANDARD_TERMS: Record<'auto' | 'student' | 'mortgage', number[]> = {
  auto: [36, 48, 60, 72, 84],
  student: [120, 180, 240, 300],
  mortgage: [180, 240, 360],
};

/**
 * An amortization schedule that agrees with what the item shows: the installment is the amount the
 * loan account receives each month, the balance is balances.current, the rate is the sandbox's
 * quoted rate. Remaining payments follow from those three; the payments already made are the
 * observed ones when the loan started inside the window, else the rest of a standard term; the
 * origination principal is the balance rolled back over the payments made.
 */
function loanTerms(seed: string, account: SandboxAccount, kind: 'auto' | 'student' | 'mortgage', data: SandboxItemData, todayN: number): LoanTerms {
  const r = new Rng(`${seed}|loan|${account.account_id}`);
  const rates = kind === 'auto' ? AUTO_RATES : kind === 'student' ? STUDENT_RATES : MORTGAGE_RATES;
  let ratePercentage = r.pick(rates);
  const balance = cents(account.balances.current);
  const payments = settled(data, account.account_id)
    .filter((t) => t.amount < 0)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const dueDay = payments.length ? Math.max(...payments.map((p) => civilFromDays(parseDate(p.date)).d)) : r.int(1, 28);
  const lastPaid = payments.length ? parseDate(payments[payments.length - 1].date) : null;
  let nextDue = lastPaid === null ? monthDay(todayN, 0, dueDay) : monthDay(lastPaid, 1, dueDay);
  while (nextDue <= todayN) nextDue = monthDay(nextDue, 1, dueDay);

  const terms = STANDARD_TERMS[kind];
  let paymentCents = payments.length ? Math.max(...payments.map((p) => -cents(p.amount))) : 0;
  if (balance <= 0) {
    // paid off: nothing due, matured with the last payment
    const maturity = lastPaid ?? todayN;
    return { ratePercentage, paymentCents: 0, nextDue, originationDate: addMonths(maturity, -terms[0]), originationPrincipalCents: 0, maturity };
  }
  let i = ratePercentage / 1200;
  if (paymentCents === 0) {
    // no installment yet: a fresh loan on the shortest standard term
    const n = terms[0];
    paymentCents = Math.round((balance * i) / (1 - Math.pow(1 + i, -n)));
    return {
      ratePercentage,
      paymentCents,
      nextDue,
      originationDate: monthDay(nextDue, -1, dueDay),
      originationPrincipalCents: balance,
      maturity: monthDay(nextDue, n - 1, dueDay),
    };
  }
  if (balance * i >= paymentCents * 0.95) {
    // the quoted rate could not amortize this balance with this installment: quote one that does
    ratePercentage = Math.floor(((paymentCents * 0.5) / balance) * 1200 * 100) / 100;
    i = ratePercentage / 1200;
  }
  const remaining = i > 0 ? Math.max(1, Math.ceil(Math.log(paymentCents / (paymentCents - balance * i)) / Math.log(1 + i) - 1e-9)) : Math.ceil(balance / paymentCents);
  const observed = payments.length;
  const windowStart = addMonths(todayN, -24);
  const startedInWindow = parseDate(payments[0].date) > windowStart + 35;
  const total = startedInWindow ? observed + remaining : (terms.find((t) => t >= observed + remaining) ?? observed + remaining);
  const made = total - remaining;
  const g = Math.pow(1 + i, made);
  const principal = i > 0 ? (balance + (paymentCents * (g - 1)) / i) / g : balance + paymentCents * made;
  const firstPayment = monthDay(nextDue, -made, dueDay);
  return {
    ratePercentage,
    paymentCents,
    nextDue,
    originationDate: monthDay(firstPayment, -1, dueDay),
    originationPrincipalCents: Math.round(principal),
    maturity: monthDay(nextDue, remaining - 1, dueDay),
  };
}

/**
 * Liabilities of a sandbox login: one credit entry per credit account, one student, auto or
 * mortgage entry per loan account of that subtype. Generator loans are auto or student; a rent or
 * mortgage paid from checking goes to a lender outside the item, so it has no entry (liabilities
 * describe the item's own accounts, as in Plaid).
 */
export function sandboxLiabilities(login: SandboxLogin, data: SandboxItemData, today: string): Liabilities {
  const seed = seedOf(login);
  const todayN = parseDate(today);
  const out: Liabilities = { credit: [], mortgage: [], student: [], auto: [] };
  for (const account of data.accounts) {
    if (account.type === 'credit') {
      out.credit.push(creditLiability(seed, account, data, todayN));
      continue;
    }
    if (account.type !== 'loan') continue;
    const kind = account.subtype === 'student' ? 'student' : account.subtype === 'auto' ? 'auto' : account.subtype === 'mortgage' ? 'mortgage' : null;
    if (!kind) continue;
    const t = loanTerms(seed, account, kind, data, todayN);
    const common = {
      account_id: account.account_id,
      interest_rate_percentage: t.ratePercentage,
      origination_date: isoDate(t.originationDate),
      origination_principal_amount: money(t.originationPrincipalCents),
    };
    if (kind === 'student') {
      const entry: StudentLiability = {
        ...common,
        loan_name: new Rng(`${seed}|loan-name|${account.account_id}`).pick(STUDENT_LOAN_NAMES),
        minimum_payment_amount: money(t.paymentCents),
        next_payment_due_date: isoDate(t.nextDue),
        expected_payoff_date: isoDate(t.maturity),
      };
      out.student.push(entry);
    } else if (kind === 'auto') {
      const entry: AutoLiability = {
        ...common,
        minimum_payment_amount: money(t.paymentCents),
        next_payment_due_date: isoDate(t.nextDue),
        maturity_date: isoDate(t.maturity),
      };
      out.auto.push(entry);
    } else {
      const mr = new Rng(`${seed}|mortgage|${account.account_id}`);
      const entry: MortgageLiability = {
        ...common,
        interest_rate_type: mr.chance(0.8) ? 'fixed' : 'variable',
        maturity_date: isoDate(t.maturity),
        next_monthly_payment: money(t.paymentCents),
        next_payment_due_date: isoDate(t.nextDue),
        escrow_balance: mr.chance(0.7) ? mr.int(800, 6000) + mr.int(0, 99) / 100 : null,
      };
      out.mortgage.push(entry);
    }
  }
  return out;
}
