// Recurring-stream detection (POST /v1/recurring/get): subscriptions, bills, payroll and other
// regular flows found in an item's transaction history. Pure and deterministic: no I/O and no clock
// (`today` is an argument), and the output depends only on the set of transactions, not on their order.
// Rules, tolerances and the confidence formula: docs/recurring-income.md.
//
// Outline:
//   1. Posted, non-zero transactions are grouped by account + direction + currency + merchant key
//      (merchant_name when present, otherwise the descriptor without digits, masks and references).
//   2. Each group is fitted to a cadence: every interval between consecutive dates is classed as
//      regular, a gap (exactly one missed period) or bad, per cadence window; a cadence is accepted
//      when enough intervals are regular. Semi-monthly also needs two fixed days of the month.
//   3. Amounts must be consistent (coefficient of variation within a per-category limit, or one
//      price change between two consistent runs).
//   4. A group that fails as a whole (a subscription mixed with one-off purchases at the same
//      merchant) is retried per distinct descriptor, then on clusters of repeated exact amounts.
//   5. The schedule (a weekday phase, one day of the month, or two) gives the next date; a weekend
//      rule (moved to Friday or to Monday) is learned from the history and applied to it.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Cadence as CadenceSchema, RecurringStream as RecurringStreamSchema } from '../contracts/product-schemas';
import type { TransactionRecord } from '../contracts/schemas';
import { dayInMonthIndex, dayNumber, isoDate, monthIndexOf, parseDate, weekday } from './calendar';

export type Cadence = z.infer<typeof CadenceSchema>;
export type RecurringStream = z.infer<typeof RecurringStreamSchema>;
export type RecurringKind = RecurringStream['kind'];
export type Direction = RecurringStream['direction'];

// Bound once: inside a test runner's VM context every global lookup (Math.floor ...) is slow, and
// the fitting below runs on every occurrence.
const { abs, floor, min, max, sqrt, round, sign } = Math;

// ---------------------------------------------------------------------------------------------
// Cadences
// ---------------------------------------------------------------------------------------------

interface CadenceSpec {
  cadence: Cadence;
  /** Window (days, inclusive) of a regular interval. */
  lo: number;
  hi: number;
  /** Window of an interval that skipped exactly one occurrence. */
  gapLo: number;
  gapHi: number;
  /** Nominal period in days: the activity grace and the half-period step of the prediction. */
  period: number;
  /** Occurrences needed. */
  minCount: number;
  /** Intervals at which the count part of the confidence is full. */
  countTarget: number;
  /** Occurrences a year (annualizing income). */
  perYear: number;
}

export const CADENCE_SPECS: readonly CadenceSpec[] = [
  { cadence: 'weekly', lo: 5, hi: 9, gapLo: 12, gapHi: 16, period: 7, minCount: 3, countTarget: 8, perYear: 52 },
  { cadence: 'biweekly', lo: 11, hi: 17, gapLo: 25, gapHi: 31, period: 14, minCount: 3, countTarget: 6, perYear: 26 },
  { cadence: 'semi_monthly', lo: 10, hi: 20, gapLo: 26, gapHi: 35, period: 15, minCount: 3, countTarget: 6, perYear: 24 },
  { cadence: 'monthly', lo: 26, hi: 34, gapLo: 56, gapHi: 65, period: 30, minCount: 3, countTarget: 5, perYear: 12 },
  { cadence: 'quarterly', lo: 85, hi: 97, gapLo: 176, gapHi: 190, period: 91, minCount: 3, countTarget: 3, perYear: 4 },
  { cadence: 'annual', lo: 350, hi: 380, gapLo: 715, gapHi: 745, period: 365, minCount: 2, countTarget: 2, perYear: 1 },
];

export const specOf = (c: Cadence): CadenceSpec => CADENCE_SPECS.find((s) => s.cadence === c)!;

/** How far (days) an occurrence may sit from its scheduled day and still count as on schedule. */
const ANCHOR_TOLERANCE = 3;
/** Occurrences on each side of a price change. */
const STEP_RUN = 3;
/** Occurrences that set a weekly, biweekly or day-of-month schedule: the most recent ones. */
const RECENT_OCCURRENCES = 6;

// ---------------------------------------------------------------------------------------------
// Categories and kinds
// ---------------------------------------------------------------------------------------------

/** Detailed categories whose recurring outflows are subscriptions. */
export const SUBSCRIPTION_CATEGORIES: ReadonlySet<string> = new Set([
  'entertainment_streaming',
  'entertainment_video_games',
  'services_and_government_software',
  'shopping_books_and_news',
  'health_and_personal_care_fitness',
]);

/** Detailed categories (besides every rent_and_utilities_* and loan_payments_*) whose recurring outflows are bills. */
export const BILL_CATEGORIES: ReadonlySet<string> = new Set([
  'services_and_government_insurance',
  'services_and_government_childcare',
  'services_and_government_taxes',
]);

/** Descriptor words that make a recurring outflow in any other category a subscription (Amazon Prime, Costco renewal). */
const SUBSCRIPTION_WORDS = /\b(PRIME|MEMBERSHIP|SUBSCR|SUBSCRIPTION|RENEWAL|PREMIUM|PLUS)\b/;

/** Inflow categories that may form an annual stream without being payroll (a yearly bonus, dividend or pension). */
const ANNUAL_INCOME_CATEGORIES: ReadonlySet<string> = new Set([
  'income_wages', 'income_interest', 'income_dividends', 'income_retirement', 'income_benefits', 'income_other',
]);

/** Payroll descriptors, for inflows the rules engine did not label income_wages. */
export const PAYROLL_WORDS = /\b(PAYROLL|PAYRL|DIRECT DEP|DIRECT DEPOSIT|DIR DEP|DIRDEP|SALARY|SALAIRE|GEHALT|LOHN|PAYCHECK)\b/;

const plainWords = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]+/g, ' ');

/** Payroll-like descriptor (PAYROLL, DIRECT DEP, SALARY ...). */
export function isPayrollDescriptor(name: string): boolean {
  return PAYROLL_WORDS.test(plainWords(name));
}

/**
 * Everyday spending (and person-to-person money): a stream there needs near-fixed amounts, since a
 * few visits to the same shop can fall on a regular rhythm by chance.
 */
function isDiscretionary(detailed: string): boolean {
  if (detailed === 'shopping_books_and_news') return false;
  return (
    detailed.startsWith('food_and_drink_') ||
    detailed.startsWith('shopping_') ||
    detailed.startsWith('travel_') ||
    detailed.startsWith('home_') ||
    detailed.startsWith('transportation_') ||
    detailed === 'entertainment_events' ||
    detailed === 'entertainment_gambling' ||
    detailed === 'entertainment_other' ||
    detailed === 'health_and_personal_care_beauty' ||
    detailed === 'health_and_personal_care_pharmacy' ||
    detailed === 'services_and_government_other' ||
    detailed === 'transfer_out_cash_withdrawal' ||
    detailed === 'income_refunds' ||
    detailed.endsWith('_p2p')
  );
}

/** Amount-spread limit (coefficient of variation) for a detailed category: 0.5 variable bills and flows, 0.1 everyday spending, else 0.25. */
export function amountLimit(detailed: string | null): number {
  if (detailed === null) return 0.25;
  if (
    detailed === 'rent_and_utilities_gas_and_electricity' ||
    detailed === 'rent_and_utilities_water' ||
    detailed === 'rent_and_utilities_other' ||
    detailed === 'loan_payments_credit_card' ||
    detailed === 'bank_fees_interest_charge' ||
    detailed === 'income_interest' ||
    detailed === 'income_dividends' ||
    ((detailed.startsWith('transfer_in_') || detailed.startsWith('transfer_out_')) && !detailed.endsWith('_p2p') && detailed !== 'transfer_out_cash_withdrawal')
  ) {
    return 0.5;
  }
  if (isDiscretionary(detailed)) return 0.1;
  return 0.25;
}

export function kindOf(direction: Direction, detailed: string | null, descriptor: string): RecurringKind {
  if (direction === 'inflow') {
    if (detailed === 'income_wages') return 'payroll';
    if ((detailed === null || detailed === 'income_other') && isPayrollDescriptor(descriptor)) return 'payroll';
    return 'other';
  }
  if (detailed !== null) {
    if (SUBSCRIPTION_CATEGORIES.has(detailed)) return 'subscription';
    if (detailed.startsWith('rent_and_utilities_') || detailed.startsWith('loan_payments_') || BILL_CATEGORIES.has(detailed)) return 'bill';
  }
  if (SUBSCRIPTION_WORDS.test(plainWords(descriptor))) return 'subscription';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// Merchant key
// ---------------------------------------------------------------------------------------------

const TOKEN_SEPARATOR = /[^A-Z0-9&']+/;
const HAS_DIGIT = /\d/;
const ONLY_X = /^X+$/;
const WHITESPACE = /\s+/g;

/** Words after which the next token is a reference number or code. */
const REFERENCE_WORDS = new Set(['REF', 'REFERENCE', 'CONF', 'CONFIRMATION', 'TRACE', 'TXN', 'AUTH', 'ID']);

/**
 * The descriptor reduced to what repeats from one occurrence to the next: upper case, split on
 * anything but letters, digits, `&` and `'`; tokens with a digit (dates, store numbers, amounts,
 * ids), card masks (XXXX), single letters and the token after REF/CONF/TRACE/ID/... are dropped;
 * the first six remaining words are kept.
 */
export function descriptorKey(name: string): string {
  const tokens = name.toUpperCase().split(TOKEN_SEPARATOR);
  const kept: string[] = [];
  let skipNext = false;
  for (const t of tokens) {
    if (!t) continue;
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (REFERENCE_WORDS.has(t)) {
      skipNext = true;
      continue;
    }
    if (t.length < 2 || HAS_DIGIT.test(t) || ONLY_X.test(t)) continue;
    kept.push(t);
    if (kept.length === 6) break;
  }
  return kept.join(' ');
}

/** Grouping key of a transaction's counterparty: `m:` merchant name or `d:` descriptor key ('' when nothing is left). */
export function merchantKey(t: Pick<TransactionRecord, 'merchant_name' | 'name'>): string {
  const m = t.merchant_name?.trim().toLowerCase().replace(WHITESPACE, ' ');
  if (m) return `m:${m}`;
  const d = descriptorKey(t.name);
  return d ? `d:${d}` : '';
}

/** 20 hex characters of SHA-256. */
export function hash20(input: string): string {
  return createHash('sha256').update(input).digest('hex').slice(0, 20);
}

// ---------------------------------------------------------------------------------------------
// Schedules: where an occurrence is expected, and the next one
// ---------------------------------------------------------------------------------------------

export interface Schedule {
  /** The scheduled day closest to day `n`. */
  nearest(n: number): number;
  /** The scheduled day after scheduled day `a`. */
  next(a: number): number;
}

/** Weekly or biweekly: a fixed phase (day number modulo the step). */
function phaseSchedule(days: number[], step: number): Schedule {
  let best = 0;
  let bestScore = -1;
  for (let r = 0; r < step; r++) {
    let score = 0;
    for (const n of days) {
      const dist = abs(circular(n - r, step));
      if (dist === 0) score += 1000;
      else if (dist <= 2) score += 1;
    }
    // ties: the phase of the latest occurrence
    if (score > bestScore || (score === bestScore && circular(days[days.length - 1] - r, step) === 0)) {
      best = r;
      bestScore = score;
    }
  }
  return {
    nearest: (n) => n - circular(n - best, step),
    next: (a) => a + step,
  };
}

/** `x` modulo `step`, in (-step/2, step/2]. */
function circular(x: number, step: number): number {
  let r = ((x % step) + step) % step;
  if (r > step / 2) r -= step;
  return r;
}

/** The candidate in `candidates` closest to `n` (ties: the earlier). */
function closest(n: number, candidates: number[]): number {
  let best = candidates[0];
  for (const c of candidates) if (abs(c - n) < abs(best - n) || (abs(c - n) === abs(best - n) && c < best)) best = c;
  return best;
}

/**
 * For each occurrence and each day of the month D (1..31, clamped to short months), the distance in
 * days to the closest D in the occurrence's month or the months either side. Index i * 32 + D.
 * Plain arithmetic over a flat array: the day-of-month searches below only read it.
 */
function dayOfMonthDistances(days: number[]): Int32Array {
  const table = new Int32Array(days.length * 32);
  for (let i = 0; i < days.length; i++) {
    const n = days[i];
    const mi = monthIndexOf(n);
    const first = dayInMonthIndex(mi, 1);
    const dd = n - first + 1;
    const len = dayInMonthIndex(mi + 1, 1) - first;
    const prevLen = first - dayInMonthIndex(mi - 1, 1);
    const nextLen = dayInMonthIndex(mi + 2, 1) - dayInMonthIndex(mi + 1, 1);
    for (let d = 1; d <= 31; d++) {
      const cur = d < len ? d : len;
      let best = dd > cur ? dd - cur : cur - dd;
      const prev = dd + prevLen - (d < prevLen ? d : prevLen);
      if (prev < best) best = prev;
      const next = len - dd + (d < nextLen ? d : nextLen);
      if (next < best) best = next;
      table[i * 32 + d] = best;
    }
  }
  return table;
}

/** Fit score of a distance: an exact match outweighs any number of near ones. */
const fitScore = (dist: number) => (dist === 0 ? 1000 : dist <= ANCHOR_TOLERANCE ? 1 : 0);

/** Monthly, quarterly, annual: one day of the month (clamped to short months), every `months` months. */
function dayOfMonthSchedule(days: number[], months: number): Schedule {
  const table = dayOfMonthDistances(days);
  let best = 1;
  let bestScore = -1;
  for (let day = 1; day <= 31; day++) {
    let score = 0;
    for (let i = 0; i < days.length; i++) score += fitScore(table[i * 32 + day]);
    if (score > bestScore) {
      best = day;
      bestScore = score;
    }
  }
  const near = (n: number) => {
    const mi = monthIndexOf(n);
    return closest(n, [dayInMonthIndex(mi - 1, best), dayInMonthIndex(mi, best), dayInMonthIndex(mi + 1, best)]);
  };
  return {
    nearest: near,
    next: (a) => dayInMonthIndex(monthIndexOf(a) + months, best),
  };
}

interface SemiMonthlyFit {
  schedule: Schedule;
  /** Share of occurrences within the tolerance of one of the two days. */
  fit: number;
  /** Share of on-schedule occurrences on the less used day. */
  balance: number;
}

/** Semi-monthly: two days of the month 10 to 20 days apart (the second may be the last day: 31, clamped). */
function semiMonthlySchedule(days: number[]): SemiMonthlyFit {
  const table = dayOfMonthDistances(days);
  let bestA = 1;
  let bestB = 16;
  let bestScore = -1;
  for (let a = 1; a <= 21; a++) {
    for (let b = a + 10; b <= min(31, a + 20); b++) {
      let score = 0;
      for (let i = 0; i < days.length; i++) score += fitScore(min(table[i * 32 + a], table[i * 32 + b]));
      if (score > bestScore) {
        bestA = a;
        bestB = b;
        bestScore = score;
      }
    }
  }
  const schedule: Schedule = {
    nearest: (n) => {
      const mi = monthIndexOf(n);
      return closest(n, [dayInMonthIndex(mi - 1, bestB), dayInMonthIndex(mi, bestA), dayInMonthIndex(mi, bestB), dayInMonthIndex(mi + 1, bestA)]);
    },
    next: (s) => {
      const mi = monthIndexOf(s);
      return s === dayInMonthIndex(mi, bestA) ? dayInMonthIndex(mi, bestB) : dayInMonthIndex(mi + 1, bestA);
    },
  };
  let onA = 0;
  let onB = 0;
  for (const n of days) {
    const s = schedule.nearest(n);
    if (abs(n - s) > ANCHOR_TOLERANCE) continue;
    if (s === dayInMonthIndex(monthIndexOf(s), bestA)) onA++;
    else onB++;
  }
  return { schedule, fit: (onA + onB) / days.length, balance: min(onA, onB) / max(1, onA + onB) };
}

/** The same schedule, remembering `nearest` (asked several times per occurrence). */
function memoized(schedule: Schedule): Schedule {
  const cache = new Map<number, number>();
  return {
    nearest: (n) => {
      let s = cache.get(n);
      if (s === undefined) cache.set(n, (s = schedule.nearest(n)));
      return s;
    },
    next: schedule.next,
  };
}

export type WeekendRule = 'before' | 'after' | 'none';

/**
 * How the payer handles a scheduled day on a weekend, learned from the history: 'before' when every
 * weekend-scheduled occurrence came earlier (Friday), 'after' when every one came later (Monday).
 */
function learnWeekendRule(days: number[], schedule: Schedule): WeekendRule {
  let before = 0;
  let after = 0;
  let same = 0;
  for (const n of days) {
    const s = schedule.nearest(n);
    const off = n - s;
    if (abs(off) > ANCHOR_TOLERANCE) continue;
    const wd = weekday(s);
    if (wd !== 0 && wd !== 6) continue;
    if (off < 0) before++;
    else if (off > 0) after++;
    else same++;
  }
  if (same > 0) return 'none';
  if (before > 0 && after === 0) return 'before';
  if (after > 0 && before === 0) return 'after';
  return 'none';
}

function applyWeekendRule(n: number, rule: WeekendRule): number {
  const wd = weekday(n);
  if (rule === 'before') return wd === 6 ? n - 1 : wd === 0 ? n - 2 : n;
  if (rule === 'after') return wd === 6 ? n + 2 : wd === 0 ? n + 1 : n;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Fitting a group
// ---------------------------------------------------------------------------------------------

interface IntervalCounts {
  regular: number;
  gaps: number;
  bad: number;
}

function countIntervals(intervals: number[], spec: CadenceSpec): IntervalCounts {
  let regular = 0;
  let gaps = 0;
  let bad = 0;
  for (const d of intervals) {
    if (d >= spec.lo && d <= spec.hi) regular++;
    else if (d >= spec.gapLo && d <= spec.gapHi) gaps++;
    else bad++;
  }
  return { regular, gaps, bad };
}

/** Acceptance: enough regular intervals, at most one gap per six intervals (at least one allowed), at most one bad interval per ten. */
function accepted(c: IntervalCounts, count: number, spec: CadenceSpec): boolean {
  const k = count - 1;
  if (count < spec.minCount) return false;
  if (c.regular < (spec.cadence === 'annual' ? 1 : 2)) return false;
  if (c.gaps > max(1, floor(k / 6))) return false;
  if (c.gaps * 2 > c.regular) return false;
  return c.bad <= floor(k / 10);
}

interface CadenceFit {
  spec: CadenceSpec;
  counts: IntervalCounts;
  schedule: Schedule;
}

function fitCadence(days: number[]): CadenceFit | null {
  const intervals: number[] = [];
  for (let i = 1; i < days.length; i++) intervals.push(days[i] - days[i - 1]);
  const ok = new Map<Cadence, IntervalCounts>();
  for (const spec of CADENCE_SPECS) {
    const c = countIntervals(intervals, spec);
    if (accepted(c, days.length, spec)) ok.set(spec.cadence, c);
  }
  if (ok.size === 0) return null;

  // semi-monthly needs two fixed days of the month; it wins over biweekly when it fits and some
  // regular interval is not a fortnight (13-15 days)
  if (ok.has('semi_monthly')) {
    const semi = semiMonthlySchedule(days);
    const fits = semi.fit >= 0.9 && semi.balance >= 0.25;
    const notFortnight = intervals.some((d) => d >= 10 && d <= 20 && (d < 13 || d > 15));
    if (fits && (!ok.has('biweekly') || notFortnight)) {
      return { spec: specOf('semi_monthly'), counts: ok.get('semi_monthly')!, schedule: memoized(semi.schedule) };
    }
    ok.delete('semi_monthly');
  }
  // otherwise the accepted cadence with the most regular intervals (gaps count half); ties: the
  // cadence whose window holds the median interval, then the shorter one
  const mid = median(intervals);
  let best: CadenceSpec | null = null;
  let bestScore = -1;
  for (const spec of CADENCE_SPECS) {
    const c = ok.get(spec.cadence);
    if (!c) continue;
    const score = (c.regular + 0.5 * c.gaps) * 2 + (mid >= spec.lo && mid <= spec.hi ? 1 : 0);
    if (score > bestScore) {
      best = spec;
      bestScore = score;
    }
  }
  if (!best) return null;
  // the schedule follows the recent occurrences, so a changed billing day moves the prediction
  const recent = days.slice(-RECENT_OCCURRENCES);
  const schedule =
    best.cadence === 'weekly' ? phaseSchedule(recent, 7)
    : best.cadence === 'biweekly' ? phaseSchedule(recent, 14)
    : dayOfMonthSchedule(recent, best.cadence === 'monthly' ? 1 : best.cadence === 'quarterly' ? 3 : 12);
  return { spec: best, counts: ok.get(best.cadence)!, schedule: memoized(schedule) };
}

// ---------------------------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------------------------

/** A detected stream with the details both products need (recurring and income). */
export interface DetectedStream {
  /** 20 hex characters, stable per account + direction + merchant key (+ currency, + amount cluster). */
  hash: string;
  account_id: string;
  direction: Direction;
  iso_currency_code: string;
  merchantKey: string;
  /** Chronological (date, then transaction_id). */
  transactions: TransactionRecord[];
  /** The latest transaction whose category_detailed is the stream's most frequent one. */
  representative: TransactionRecord;
  latest: TransactionRecord;
  cadence: Cadence;
  spec: CadenceSpec;
  average_amount: number;
  last_amount: number;
  first_date: string;
  last_date: string;
  predicted_next_date: string;
  is_active: boolean;
  confidence: number;
  /** Coefficient of variation of the absolute amounts (after a price change: the larger of the two runs'). */
  amountCv: number;
  /** The amounts hold one step (a price change) between two consistent runs. */
  priceChange: boolean;
  weekendRule: WeekendRule;
  /** Where occurrences are expected. */
  schedule: Schedule;
}

export const round2 = (x: number) => round((x + sign(x) * Number.EPSILON) * 100) / 100;

interface Dated {
  t: TransactionRecord;
  n: number;
}

const byDateThenId = (a: Dated, b: Dated) => a.n - b.n || (a.t.transaction_id < b.t.transaction_id ? -1 : a.t.transaction_id > b.t.transaction_id ? 1 : 0);

function meanAndCv(values: number[]): { mean: number; cv: number } {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  const sd = sqrt(ss / values.length);
  return { mean, cv: mean > 0 ? sd / mean : 0 };
}

/**
 * Amount consistency: the coefficient of variation within `limit`, or one price change: a split
 * into two runs of at least three occurrences, each within the limit. Null when inconsistent.
 */
function amountSpread(amounts: number[], limit: number): { cv: number; step: boolean } | null {
  const whole = meanAndCv(amounts).cv;
  if (whole <= limit) return { cv: whole, step: false };
  let best = Infinity;
  for (let k = STEP_RUN; k <= amounts.length - STEP_RUN; k++) {
    best = min(best, max(meanAndCv(amounts.slice(0, k)).cv, meanAndCv(amounts.slice(k)).cv));
  }
  return best <= limit ? { cv: best, step: true } : null;
}

/** The latest transaction carrying the most frequent category_detailed (null counts as a value). */
function representativeOf(items: Dated[]): TransactionRecord {
  const counts = new Map<string | null, number>();
  for (const { t } of items) counts.set(t.category_detailed, (counts.get(t.category_detailed) ?? 0) + 1);
  let bestCount = 0;
  for (const c of counts.values()) bestCount = max(bestCount, c);
  for (let i = items.length - 1; i >= 0; i--) if (counts.get(items[i].t.category_detailed) === bestCount) return items[i].t;
  return items[items.length - 1].t;
}

interface GroupInfo {
  account_id: string;
  direction: Direction;
  currency: string;
  key: string;
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/** Occurrences more than the tolerance away from their scheduled day, and all but the closest-in-amount one of several on the same day. */
function extrasOf(items: Dated[], schedule: Schedule): Set<Dated> {
  const mid = median(items.map((x) => abs(x.t.amount)));
  const extras = new Set<Dated>();
  const bySlot = new Map<number, Dated>();
  for (const x of items) {
    const slot = schedule.nearest(x.n);
    if (abs(x.n - slot) > ANCHOR_TOLERANCE) {
      extras.add(x);
      continue;
    }
    const other = bySlot.get(slot);
    if (!other) {
      bySlot.set(slot, x);
      continue;
    }
    const keepNew = abs(abs(x.t.amount) - mid) < abs(abs(other.t.amount) - mid);
    extras.add(keepNew ? other : x);
    if (keepNew) bySlot.set(slot, x);
  }
  return extras;
}

/**
 * Fits one set of transactions (chronological) as a stream, or null. `extra`: occurrences needed
 * beyond the cadence's minimum (1 for an amount cluster cut out of a busier merchant, where a few
 * similar amounts on a rhythm are often chance).
 */
function fitStream(items: Dated[], info: GroupInfo, hashInput: string, todayN: number, extra = 0, clean = true): DetectedStream | null {
  if (items.length < 2 + extra) return null;
  const days = items.map((x) => x.n);
  const fit = fitCadence(days);
  if (!fit) return null;

  if (clean) {
    // extras: occurrences off the schedule, or a second one on the same scheduled day with the
    // amount further from the median (a one-off purchase at a subscription merchant). Left out
    // when they are few (at most one in ten, at least one) and the rest still fits.
    const extras = extrasOf(items, fit.schedule);
    if (extras.size > 0 && extras.size <= max(1, floor(items.length / 10))) {
      const cleaned = fitStream(items.filter((x) => !extras.has(x)), info, hashInput, todayN, extra, false);
      if (cleaned) return cleaned;
    }
  }

  const representative = representativeOf(items);
  const latest = items[items.length - 1].t;
  const kind = kindOf(info.direction, representative.category_detailed, latest.name);
  // everyday spending that is not a subscription needs one more occurrence: three visits to a shop
  // can fall a month apart by chance
  const everyday = kind === 'other' && representative.category_detailed !== null && isDiscretionary(representative.category_detailed);
  if (items.length < fit.spec.minCount + extra + (everyday ? 1 : 0)) return null;
  // two purchases a year apart at the same shop are common: an annual stream must be a
  // subscription, bill or payroll, or income
  if (fit.spec.cadence === 'annual' && kind === 'other' && !ANNUAL_INCOME_CATEGORIES.has(representative.category_detailed ?? '')) return null;
  const amounts = items.map((x) => abs(x.t.amount));
  const { mean } = meanAndCv(amounts);
  const limit = amountLimit(representative.category_detailed);
  const spread = amountSpread(amounts, limit);
  if (!spread) return null;

  const rule = learnWeekendRule(days, fit.schedule);
  const last = days[days.length - 1];
  const predicted = applyWeekendRule(fit.schedule.next(fit.schedule.nearest(last)), rule);
  const isActive = todayN <= predicted + floor(fit.spec.period / 2) + 7;

  // confidence: 0.40 count + 0.35 timing + 0.25 amount stability (docs/recurring-income.md)
  const k = days.length - 1;
  const countScore = min(1, k / fit.spec.countTarget);
  let jitter = 0;
  for (const n of days) jitter += min(ANCHOR_TOLERANCE, abs(n - applyWeekendRule(fit.schedule.nearest(n), rule)));
  jitter /= days.length;
  const timing = ((fit.counts.regular + 0.5 * fit.counts.gaps) / k) * (1 - jitter / (2 * ANCHOR_TOLERANCE));
  const amountScore = max(0, 1 - spread.cv / (2 * limit)) * (spread.step ? 0.9 : 1);
  const confidence = min(1, max(0, round2(0.4 * countScore + 0.35 * timing + 0.25 * amountScore)));

  return {
    hash: hash20(hashInput),
    account_id: info.account_id,
    direction: info.direction,
    iso_currency_code: info.currency,
    merchantKey: info.key,
    transactions: items.map((x) => x.t),
    representative,
    latest,
    cadence: fit.spec.cadence,
    spec: fit.spec,
    average_amount: round2(mean),
    last_amount: round2(abs(latest.amount)),
    first_date: isoDate(days[0]),
    last_date: isoDate(last),
    predicted_next_date: isoDate(predicted),
    is_active: isActive,
    confidence,
    amountCv: spread.cv,
    priceChange: spread.step,
    weekendRule: rule,
    schedule: fit.schedule,
  };
}

/** Candidates on a scheduled day no member occupies, within 25% of the members' median amount. */
function onSchedule(candidates: Dated[], members: Dated[], schedule: Schedule): Dated[] {
  const taken = new Set(members.map((x) => schedule.nearest(x.n)));
  const mid = median(members.map((x) => abs(x.t.amount)));
  const out: Dated[] = [];
  for (const x of candidates) {
    const slot = schedule.nearest(x.n);
    if (abs(x.n - slot) > ANCHOR_TOLERANCE || taken.has(slot)) continue;
    if (abs(abs(x.t.amount) - mid) > 0.25 * mid) continue;
    taken.add(slot);
    out.push(x);
  }
  return out;
}

/**
 * Clusters of repeated exact amounts, for a group that fails as a whole: the most repeated amount
 * seeds a cluster that takes every other repeated amount within 25% (or 3.00) of it; then the next.
 */
function amountClusters(items: Dated[]): Array<{ anchorCents: number; items: Dated[] }> {
  const byCents = new Map<number, Dated[]>();
  for (const x of items) {
    const c = round(abs(x.t.amount) * 100);
    let list = byCents.get(c);
    if (!list) byCents.set(c, (list = []));
    list.push(x);
  }
  const repeated = [...byCents].filter(([, xs]) => xs.length >= 2).sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  const used = new Set<number>();
  const out: Array<{ anchorCents: number; items: Dated[] }> = [];
  for (const [cents] of repeated) {
    if (used.has(cents)) continue;
    const members: Dated[] = [];
    for (const [c, xs] of repeated) {
      if (used.has(c) || abs(c - cents) > max(0.25 * cents, 300)) continue;
      used.add(c);
      members.push(...xs);
    }
    members.sort(byDateThenId);
    out.push({ anchorCents: cents, items: members });
    if (out.length === 3) break;
  }
  return out;
}

/**
 * Every recurring stream in `txns` (any order), with internal details. Pending rows, zero amounts,
 * unparseable dates and rows with no usable counterparty key are ignored.
 */
export function detectStreams(txns: readonly TransactionRecord[], today: string): DetectedStream[] {
  const todayN = parseDate(today, 'today');
  const dayCache = new Map<string, number | null>();
  const groups = new Map<string, { info: GroupInfo; items: Dated[] }>();
  for (const t of txns) {
    if (t.pending || t.amount === 0 || !Number.isFinite(t.amount)) continue;
    let n = dayCache.get(t.date);
    if (n === undefined) dayCache.set(t.date, (n = dayNumber(t.date)));
    if (n === null) continue;
    const key = merchantKey(t);
    if (!key) continue;
    const direction: Direction = t.amount > 0 ? 'outflow' : 'inflow';
    const gk = `${t.account_id}|${direction}|${key}|${t.iso_currency_code}`;
    let g = groups.get(gk);
    if (!g) groups.set(gk, (g = { info: { account_id: t.account_id, direction, currency: t.iso_currency_code, key }, items: [] }));
    g.items.push({ t, n });
  }

  const out: DetectedStream[] = [];
  for (const [gk, g] of groups) {
    if (g.items.length < 2) continue;
    g.items.sort(byDateThenId);
    const whole = fitStream(g.items, g.info, gk, todayN);
    if (whole) {
      out.push(whole);
      continue;
    }
    // The group fails as a whole: a stream may hide among other activity at the same merchant
    // (Costco's renewal among warehouse purchases, an Audible plan among book purchases). Try
    // each distinct descriptor, then clusters of repeated exact amounts in what is left.
    let rest = g.items;
    const byDescriptor = new Map<string, Dated[]>();
    for (const x of rest) {
      const dk = descriptorKey(x.t.name);
      let list = byDescriptor.get(dk);
      if (!list) byDescriptor.set(dk, (list = []));
      list.push(x);
    }
    if (byDescriptor.size > 1) {
      const taken = new Set<Dated>();
      for (const dk of [...byDescriptor.keys()].sort()) {
        const s = fitStream(byDescriptor.get(dk)!, g.info, `${gk}|d:${dk}`, todayN);
        if (!s) continue;
        out.push(s);
        for (const x of byDescriptor.get(dk)!) taken.add(x);
      }
      if (taken.size) rest = rest.filter((x) => !taken.has(x));
    }
    if (rest.length < 3) continue;
    const claimed = new Set<Dated>();
    for (const cluster of amountClusters(rest)) {
      const hashInput = `${gk}|${cluster.anchorCents}`;
      const items = cluster.items.filter((x) => !claimed.has(x));
      const s = fitStream(items, g.info, hashInput, todayN, 1);
      if (!s) continue;
      // a cluster holds repeated amounts only: take back the stream's one-off amounts (the first
      // charge at a new price) when they sit on a free scheduled day within 25% of its median
      const members = new Set(items);
      const extension = onSchedule(rest.filter((x) => !members.has(x) && !claimed.has(x)), items, s.schedule);
      const extended = extension.length ? fitStream([...items, ...extension].sort(byDateThenId), g.info, hashInput, todayN, 1) : null;
      const stream = extended ?? s;
      out.push(stream);
      for (const t of stream.transactions) claimed.add(rest.find((x) => x.t === t)!);
    }
  }
  return out;
}

const KIND_ORDER: readonly RecurringKind[] = ['subscription', 'bill', 'payroll', 'other'];

export function toRecurringStream(s: DetectedStream): RecurringStream {
  return {
    stream_id: `rec_${s.hash}`,
    kind: kindOf(s.direction, s.representative.category_detailed, s.latest.name),
    direction: s.direction,
    account_id: s.account_id,
    merchant_name: s.latest.merchant_name,
    description: s.latest.name,
    category: s.representative.category,
    category_detailed: s.representative.category_detailed,
    cadence: s.cadence,
    average_amount: s.average_amount,
    last_amount: s.last_amount,
    iso_currency_code: s.iso_currency_code,
    first_date: s.first_date,
    last_date: s.last_date,
    predicted_next_date: s.predicted_next_date,
    is_active: s.is_active,
    transaction_ids: s.transactions.map((t) => t.transaction_id),
    confidence: s.confidence,
  };
}

/**
 * Recurring streams (subscriptions, bills, payroll, other) in a transaction history, as of `today`
 * (YYYY-MM-DD). Sorted by kind (subscription, bill, payroll, other), then average_amount descending,
 * then stream_id.
 */
export function detectRecurring(txns: readonly TransactionRecord[], today: string): RecurringStream[] {
  const streams = detectStreams(txns, today).map(toRecurringStream);
  return streams.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      b.average_amount - a.average_amount ||
      (a.stream_id < b.stream_id ? -1 : a.stream_id > b.stream_id ? 1 : 0),
  );
}
