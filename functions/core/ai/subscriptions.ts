// /v1/ai/subscriptions, rules answer: the active paid subscriptions among the recurring streams,
// their cost a month and a year at the current price, signals that one is likely unused, and
// savings notes. Pure: no I/O, no clock. Rules: docs/ai.md, "Rules answers".
import type { SubscriptionsResult } from '../../contracts/ai-schemas';
import type { TransactionRecord } from '../../contracts/schemas';
import { SUBSCRIPTION_CATEGORIES, type RecurringStream } from '../recurring';
import { recurringOf, type AiInput } from './input';
import { cmp, dayIndex, dayOf, groupBy, isoDate, merchantLabel, money, PER_YEAR, round2, streamLabel } from './ledger';

type Subscription = SubscriptionsResult['subscriptions'][number];
type Signal = Subscription['signals'][number];
type SavingsNote = SubscriptionsResult['savings_notes'][number];

/** Days without a purchase at a membership's merchant after which the membership counts as unused. */
export const RELATED_ACTIVITY_DAYS = 90;
/** Two amounts within this (major units) are the same price. */
const SAME_PRICE = 0.01;

/** Subscription categories whose services substitute for each other, and what to call several of them. */
const OVERLAP_NOUNS: ReadonlyMap<string, string> = new Map([
  ['entertainment_streaming', 'streaming services'],
  ['entertainment_video_games', 'gaming subscriptions'],
  ['shopping_books_and_news', 'news and reading subscriptions'],
  ['health_and_personal_care_fitness', 'fitness memberships'],
]);
const OVERLAPPING_CATEGORIES: ReadonlySet<string> = new Set(OVERLAP_NOUNS.keys());
const nounOf = (detailed: string) => OVERLAP_NOUNS.get(detailed) ?? 'subscriptions';

/** The latest price change: the current price against the run of equal charges before it (at least two). */
function priceChange(charges: TransactionRecord[]): Subscription['price_change'] {
  if (charges.length < 3) return null;
  const amounts = charges.map((t) => Math.abs(t.amount));
  const current = amounts[amounts.length - 1];
  let i = amounts.length - 1;
  while (i > 0 && Math.abs(amounts[i - 1] - current) <= SAME_PRICE) i--;
  if (i === 0) return null; // one price all along
  const previous = amounts[i - 1];
  let runStart = i - 1;
  while (runStart > 0 && Math.abs(amounts[runStart - 1] - previous) <= SAME_PRICE) runStart--;
  if (i - runStart < 2) return null; // the earlier amount was not a held price
  return { from: round2(previous), to: round2(current), change_pct: round2(((current - previous) / previous) * 100), date: charges[i].date };
}

/**
 * Active paid subscriptions (outflow recurring streams of kind `subscription`) with likely-unused
 * signals and savings notes. Recurring streams come from `input.recurring`, else are detected.
 */
export function subscriptionsRules(input: AiInput): SubscriptionsResult {
  const todayN = dayIndex(input.today, 'today');
  const streams = recurringOf(input).filter((s) => s.kind === 'subscription' && s.direction === 'outflow' && s.is_active);
  const byId = new Map<string, TransactionRecord>();
  let firstDay = Infinity;
  for (const t of input.transactions) {
    byId.set(t.transaction_id, t);
    const n = dayOf(t);
    if (n !== null && n < firstDay) firstDay = n;
  }

  const subs: Array<Subscription & { merchantKey: string }> = streams.map((s) => {
    const charges = s.transaction_ids
      .map((id) => byId.get(id))
      .filter((t): t is TransactionRecord => t !== undefined)
      .sort((a, b) => cmp(a.date, b.date) || cmp(a.transaction_id, b.transaction_id));
    const annual = round2(Math.abs(s.last_amount) * PER_YEAR[s.cadence]);
    const merchant = streamLabel(s);
    return {
      stream_id: s.stream_id,
      merchant,
      description: s.description,
      category_detailed: s.category_detailed,
      account_id: s.account_id,
      cadence: s.cadence,
      average_amount: round2(Math.abs(s.average_amount)),
      last_amount: round2(Math.abs(s.last_amount)),
      monthly_cost: round2(annual / 12),
      annual_cost: annual,
      iso_currency_code: s.iso_currency_code,
      first_date: s.first_date,
      last_date: s.last_date,
      next_date: s.predicted_next_date,
      charge_count: s.transaction_ids.length,
      transaction_ids: [...s.transaction_ids],
      price_change: priceChange(charges),
      likely_unused: false,
      reason: null,
      signals: [],
      merchantKey: merchant.toLowerCase(),
    };
  });
  const streamOf = new Map<string, RecurringStream>(streams.map((s) => [s.stream_id, s]));
  const notes: SavingsNote[] = [];
  const signal = (sub: Subscription, code: Signal['code'], countsAsUnused: boolean, reason: string) =>
    sub.signals.push({ code, counts_as_unused: countsAsUnused, reason });

  // The same service paid twice (two streams at one merchant): the newer ones are the spare copies.
  const byMerchant = groupBy(subs, (s) => `${s.iso_currency_code}|${s.merchantKey}`);
  for (const group of byMerchant.values()) {
    if (group.length < 2) continue;
    const [kept, ...spare] = [...group].sort((a, b) => cmp(a.first_date, b.first_date) || cmp(a.stream_id, b.stream_id));
    for (const s of spare) {
      signal(s, 'duplicate_subscription', true,
        `${s.merchant} is charged twice: this ${s.cadence} charge of ${money(s.last_amount, s.iso_currency_code)} started ${s.first_date}, besides the one since ${kept.first_date}.`);
    }
    const savings = round2(spare.reduce((sum, s) => sum + s.annual_cost, 0));
    notes.push({
      code: 'cancel_duplicate',
      stream_ids: spare.map((s) => s.stream_id).sort(),
      potential_annual_savings: savings,
      iso_currency_code: kept.iso_currency_code,
      note: `You pay for ${kept.merchant} more than once; cancelling the duplicate saves ${money(savings, kept.iso_currency_code)} a year.`,
    });
  }

  // A membership that buys perks at a merchant (Prime, DashPass, a warehouse club), not content:
  // no purchase there for RELATED_ACTIVITY_DAYS, with at least that much history, means it goes unused.
  const windowStart = todayN - RELATED_ACTIVITY_DAYS + 1;
  if (firstDay <= windowStart) {
    for (const s of subs) {
      if (s.category_detailed !== null && SUBSCRIPTION_CATEGORIES.has(s.category_detailed)) continue;
      const own = new Set(s.transaction_ids);
      let lastPurchase: number | null = null;
      let everPurchased = false;
      for (const t of input.transactions) {
        if (t.amount <= 0 || own.has(t.transaction_id) || merchantLabel(t).toLowerCase() !== s.merchantKey) continue;
        everPurchased = true;
        const n = dayOf(t);
        if (n !== null && n <= todayN && (lastPurchase === null || n > lastPurchase)) lastPurchase = n;
      }
      if (lastPurchase !== null && lastPurchase >= windowStart) continue;
      const since = everPurchased && lastPurchase !== null ? `since ${isoDate(lastPurchase)}` : 'at all';
      signal(s, 'no_related_activity', true,
        `${s.merchant} is a membership for purchases there, and there has been no other purchase at ${s.merchant} ${since} (${RELATED_ACTIVITY_DAYS} days or more).`);
      notes.push({
        code: 'cancel_unused',
        stream_ids: [s.stream_id],
        potential_annual_savings: s.annual_cost,
        iso_currency_code: s.iso_currency_code,
        note: `Cancelling the unused ${s.merchant} membership saves ${money(s.annual_cost, s.iso_currency_code)} a year.`,
      });
    }
  }

  // Several services of one kind (three streaming services): overlap, not proof of non-use.
  // Software is left out: two tools rarely replace each other.
  const byCategory = groupBy(
    subs.filter((s) => s.category_detailed !== null && OVERLAPPING_CATEGORIES.has(s.category_detailed)),
    (s) => `${s.iso_currency_code}|${s.category_detailed}`,
  );
  for (const group of byCategory.values()) {
    const merchants = [...new Set(group.map((s) => s.merchant))].sort(cmp);
    if (merchants.length < 2) continue;
    const currency = group[0].iso_currency_code;
    const noun = nounOf(group[0].category_detailed!);
    const annual = group.reduce((sum, s) => sum + s.annual_cost, 0);
    const dearest = Math.max(...group.map((s) => s.annual_cost));
    const savings = round2(annual - dearest);
    for (const s of group) {
      signal(s, 'overlapping_services', false,
        `One of ${merchants.length} ${noun} (${merchants.join(', ')}) costing ${money(annual / 12, currency)} a month together.`);
    }
    notes.push({
      code: 'consolidate_overlap',
      stream_ids: group.map((s) => s.stream_id).sort(),
      potential_annual_savings: savings,
      iso_currency_code: currency,
      note: `You pay for ${merchants.length} ${noun} (${merchants.join(', ')}): ${money(annual / 12, currency)} a month. Keeping only the one you use most would save up to ${money(savings, currency)} a year.`,
    });
  }

  // A price rise: what it costs a year, and a nudge to check the plan.
  for (const s of subs) {
    const change = s.price_change;
    if (!change || change.to <= change.from) continue;
    const stream = streamOf.get(s.stream_id)!;
    const extra = round2((change.to - change.from) * PER_YEAR[stream.cadence]);
    signal(s, 'price_increase', false,
      `${s.merchant} went up from ${money(change.from, s.iso_currency_code)} to ${money(change.to, s.iso_currency_code)} (+${change.change_pct} %) on ${change.date}.`);
    notes.push({
      code: 'price_increase',
      stream_ids: [s.stream_id],
      potential_annual_savings: extra,
      iso_currency_code: s.iso_currency_code,
      note: `${s.merchant} now costs ${money(extra, s.iso_currency_code)} more a year than at its earlier price; a cheaper plan may be worth a look.`,
    });
  }

  for (const s of subs) {
    s.signals.sort((a, b) => Number(b.counts_as_unused) - Number(a.counts_as_unused) || cmp(a.code, b.code));
    const unused = s.signals.find((x) => x.counts_as_unused);
    s.likely_unused = unused !== undefined;
    s.reason = unused?.reason ?? null;
  }

  const totals = [...groupBy(subs, (s) => s.iso_currency_code)].map(([currency, group]) => {
    const annual = group.reduce((sum, s) => sum + s.annual_cost, 0);
    return {
      iso_currency_code: currency,
      count: group.length,
      monthly_cost: round2(annual / 12),
      annual_cost: round2(annual),
      likely_unused_annual_cost: round2(group.filter((s) => s.likely_unused).reduce((sum, s) => sum + s.annual_cost, 0)),
    };
  });

  return {
    subscriptions: subs
      .sort((a, b) => b.annual_cost - a.annual_cost || cmp(a.stream_id, b.stream_id))
      .map(({ merchantKey: _key, ...sub }) => sub),
    totals: totals.sort((a, b) => b.annual_cost - a.annual_cost || cmp(a.iso_currency_code, b.iso_currency_code)),
    savings_notes: notes.sort(
      (a, b) => b.potential_annual_savings - a.potential_annual_savings || cmp(a.code, b.code) || cmp(a.stream_ids[0], b.stream_ids[0]),
    ),
  };
}
