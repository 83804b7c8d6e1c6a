// /v1/ai/fraud-risk, rules answer: signals on the last 30 days of charges, measured against the
// history before them: duplicate charges, amounts unusual for the merchant (robust z-score on the
// median absolute deviation), large first purchases at a new merchant, card-testing bursts of tiny
// charges, and spending in a currency never seen before. Pure: no I/O, no clock. Rules and
// thresholds: docs/ai.md, "Rules answers".
import type { FraudRiskResult } from '../../contracts/ai-schemas';
import type { TransactionRecord } from '../../contracts/schemas';
import type { AiInput } from './input';
import { cmp, dayIndex, dayOf, flowOf, groupBy, homeCurrency, isoDate, median, merchantLabel, money, plural, round2 } from './ledger';

type Signal = FraudRiskResult['signals'][number];
type Severity = Signal['severity'];

export const REVIEW_DAYS = 30;
/** Two charges of one amount at one merchant this many days apart or closer are duplicates. */
export const DUPLICATE_WINDOW_DAYS = 2;
/** Charges of at most this amount are "tiny" (card testing). */
export const CARD_TESTING_MAX_AMOUNT = 2;
/** Tiny charges within two consecutive days that make a card-testing burst. */
export const CARD_TESTING_MIN_CHARGES = 3;
/** Robust z-score above which an amount is unusual for its merchant (Iglewicz and Hoaglin's 3.5). */
export const UNUSUAL_Z = 3.5;
/** Earlier charges at a merchant needed before its amounts have a baseline. */
export const UNUSUAL_MIN_HISTORY = 5;
/** Days of history before the review period needed to call a merchant or currency new. */
export const NEW_HISTORY_DAYS = 60;
/** A first purchase is large from this amount (and the 95th percentile of earlier purchases). */
export const LARGE_FLOOR = 250;

const POINTS: Readonly<Record<Severity, number>> = { high: 40, medium: 20, low: 5 };
const RANK: Readonly<Record<Severity, number>> = { high: 0, medium: 1, low: 2 };

/** Where repeating the same small purchase within a day or two is ordinary (a second coffee, a return fare). */
const REPEAT_PURCHASE_CATEGORIES: ReadonlySet<string> = new Set([
  'food_and_drink_coffee',
  'food_and_drink_fast_food',
  'transportation_public_transit',
  'transportation_parking',
  'transportation_tolls',
]);

/** Obligations paid to a known payee: never a "new merchant" signal. */
const isBill = (d: string | null) =>
  d !== null && (d.startsWith('rent_and_utilities_') || d.startsWith('loan_payments_') || d === 'services_and_government_taxes' || d === 'services_and_government_insurance');

interface Row {
  t: TransactionRecord;
  n: number;
  merchant: string;
  key: string;
  cents: number;
}

const byDayThenId = (a: Row, b: Row) => a.n - b.n || cmp(a.t.transaction_id, b.t.transaction_id);

function percentile95(values: number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
}

export function fraudRiskRules(input: AiInput): FraudRiskResult {
  const todayN = dayIndex(input.today, 'today');
  const home = homeCurrency(input.accounts, input.transactions);
  const rows: Row[] = [];
  let latest = -Infinity;
  let firstDay = Infinity;
  for (const t of input.transactions) {
    const n = dayOf(t);
    if (n === null || n > todayN) continue;
    if (n > latest) latest = n;
    if (n < firstDay) firstDay = n;
    const merchant = merchantLabel(t);
    rows.push({ t, n, merchant, key: merchant.toLowerCase(), cents: Math.round(Math.abs(t.amount) * 100) });
  }
  rows.sort(byDayThenId);
  // The review period ends at the latest transaction (a raw export may be older than today).
  const end = latest === -Infinity ? todayN : latest;
  const start = end - REVIEW_DAYS + 1;
  const historyDays = firstDay < start ? start - firstDay : 0;
  const history = rows.filter((r) => r.n < start);
  const reviewed = rows.filter((r) => r.n >= start);
  const purchases = reviewed.filter((r) => flowOf(r.t) === 'spending');
  const signals: Signal[] = [];

  const signalOf = (type: Signal['type'], severity: Severity, involved: Row[], amount: number, explanation: string, baseline: Signal['baseline'] = null): Signal => {
    const sorted = [...involved].sort(byDayThenId);
    const merchants = new Set(sorted.map((r) => r.merchant));
    return {
      type,
      severity,
      transaction_ids: sorted.map((r) => r.t.transaction_id),
      merchant: merchants.size === 1 ? sorted[0].merchant : null,
      amount: round2(amount),
      iso_currency_code: sorted[0].t.iso_currency_code,
      first_date: isoDate(sorted[0].n),
      last_date: isoDate(sorted[sorted.length - 1].n),
      baseline,
      explanation,
    };
  };

  // Duplicate charges: one account, merchant and amount, each within DUPLICATE_WINDOW_DAYS of the
  // previous; a pending row beside its own posted copy is not counted (same status needed).
  const dupCandidates = purchases.filter((r) => r.cents >= 100 && !REPEAT_PURCHASE_CATEGORIES.has(r.t.category_detailed ?? ''));
  for (const group of groupBy(dupCandidates, (r) => `${r.t.account_id}|${r.t.iso_currency_code}|${r.key}|${r.cents}|${r.t.pending}`).values()) {
    let cluster: Row[] = [];
    const flush = () => {
      if (cluster.length >= 2) {
        const r = cluster[0];
        const amount = Math.abs(r.t.amount);
        const severity: Severity = amount >= 250 ? 'high' : amount >= 20 ? 'medium' : 'low';
        signals.push(
          signalOf('duplicate_charge', severity, cluster, amount,
            `${cluster.length} charges of ${money(amount, r.t.iso_currency_code)} at ${r.merchant} within ${DUPLICATE_WINDOW_DAYS} days (${isoDate(cluster[0].n)} to ${isoDate(cluster[cluster.length - 1].n)}).`),
        );
      }
      cluster = [];
    };
    for (const r of group) {
      if (cluster.length && r.n - cluster[cluster.length - 1].n > DUPLICATE_WINDOW_DAYS) flush();
      cluster.push(r);
    }
    flush();
  }

  // Unusual amount for the merchant: robust z = 0.6745 (x - median) / MAD against the history.
  const historyByMerchant = groupBy(
    history.filter((r) => r.t.amount > 0 && flowOf(r.t) === 'spending'),
    (r) => `${r.t.iso_currency_code}|${r.key}`,
  );
  for (const r of purchases) {
    const past = historyByMerchant.get(`${r.t.iso_currency_code}|${r.key}`);
    if (!past || past.length < UNUSUAL_MIN_HISTORY) continue;
    const amounts = past.map((p) => p.t.amount);
    const med = median(amounts);
    const mad = median(amounts.map((a) => Math.abs(a - med)));
    // a fixed price has no spread: measure against 5 % of it (at least 1.00) so a price rise is not "unusual"
    const scale = Math.max(mad, 0.05 * med, 1);
    const x = r.t.amount;
    const z = (0.6745 * (x - med)) / scale;
    if (z < UNUSUAL_Z || x < 2 * med || x - med < 20) continue;
    const severity: Severity = x >= 5 * med && x - med >= 200 ? 'high' : x - med >= 100 ? 'medium' : 'low';
    const currency = r.t.iso_currency_code;
    signals.push(
      signalOf('unusual_amount', severity, [r], x,
        `${money(x, currency)} at ${r.merchant} is ${round2(x / med)} times the usual ${money(med, currency)} (${plural(past.length, 'earlier charge')}).`,
        { median: round2(med), mad: round2(mad), robust_z: round2(z), history_count: past.length }),
    );
  }

  // First purchase at a merchant, and large: needs enough history to know the merchant is new.
  if (historyDays >= NEW_HISTORY_DAYS) {
    const seen = new Set(history.map((r) => r.key));
    const p95 = percentile95(history.filter((r) => r.t.amount > 0 && flowOf(r.t) === 'spending' && r.t.iso_currency_code === home).map((r) => r.t.amount));
    const large = Math.max(LARGE_FLOOR, p95);
    for (const r of reviewed) {
      const isNew = !seen.has(r.key);
      seen.add(r.key);
      if (!isNew || flowOf(r.t) !== 'spending' || isBill(r.t.category_detailed) || r.t.iso_currency_code !== home || r.t.amount < large) continue;
      const severity: Severity = r.t.amount >= Math.max(1000, 3 * p95) ? 'high' : 'medium';
      signals.push(
        signalOf('new_merchant_large_amount', severity, [r], r.t.amount,
          `First purchase ever at ${r.merchant}, for ${money(r.t.amount, home)}: above ${money(large, home)}, the usual ceiling of your purchases.`),
      );
    }
  }

  // Card testing: several tiny charges on one account within two consecutive days.
  const tiny = reviewed.filter(
    (r) => r.t.amount > 0 && r.t.amount <= CARD_TESTING_MAX_AMOUNT && !REPEAT_PURCHASE_CATEGORIES.has(r.t.category_detailed ?? '') && flowOf(r.t) === 'spending',
  );
  for (const group of groupBy(tiny, (r) => r.t.account_id).values()) {
    for (let i = 0; i < group.length; ) {
      let j = i;
      while (j < group.length && group[j].n <= group[i].n + 1) j++;
      if (j - i >= CARD_TESTING_MIN_CHARGES) {
        const burst = group.slice(i, j);
        const total = burst.reduce((sum, r) => sum + r.t.amount, 0);
        const merchants = new Set(burst.map((r) => r.merchant)).size;
        signals.push(
          signalOf('card_testing', burst.length >= 5 ? 'high' : 'medium', burst, total,
            `${burst.length} charges of ${money(CARD_TESTING_MAX_AMOUNT, burst[0].t.iso_currency_code)} or less at ${plural(merchants, 'merchant')} within two days: a pattern used to test stolen card numbers.`),
        );
        i = j;
      } else {
        i++;
      }
    }
  }

  // A currency never seen in the history (the transaction carries no country: the currency stands in for it).
  if (historyDays >= NEW_HISTORY_DAYS) {
    const known = new Set(history.map((r) => r.t.iso_currency_code));
    const foreign = purchases.filter((r) => !known.has(r.t.iso_currency_code));
    for (const [currency, group] of groupBy(foreign, (r) => r.t.iso_currency_code)) {
      const total = group.reduce((sum, r) => sum + r.t.amount, 0);
      signals.push(
        signalOf('new_currency', total >= 1000 ? 'medium' : 'low', group, total,
          `${plural(group.length, 'charge')} in ${currency} (${money(total, currency)}), a currency not seen in the ${historyDays} days before: expected if you are travelling.`),
      );
    }
  }

  signals.sort((a, b) => RANK[a.severity] - RANK[b.severity] || cmp(b.last_date, a.last_date) || cmp(a.transaction_ids[0], b.transaction_ids[0]) || cmp(a.type, b.type));
  const score = Math.min(100, signals.reduce((sum, s) => sum + POINTS[s.severity], 0));
  const grade: Severity =
    signals.some((s) => s.severity === 'high') || score >= 60 ? 'high' : signals.some((s) => s.severity === 'medium') || score >= 20 ? 'medium' : 'low';
  const span = `from ${isoDate(start)} to ${isoDate(end)}`;
  const summary = signals.length
    ? `Risk is ${grade}: ${plural(signals.length, 'signal')} in ${plural(reviewed.length, 'transaction')} ${span}. The first: ${signals[0].explanation}`
    : `Risk is low: nothing unusual in ${plural(reviewed.length, 'transaction')} ${span}.`;

  return {
    grade,
    score,
    review_period: { start: isoDate(start), end: isoDate(end), days: REVIEW_DAYS },
    transactions_reviewed: reviewed.length,
    history_days: historyDays,
    signals,
    summary,
  };
}
