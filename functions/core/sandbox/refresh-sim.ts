// Sandbox refresh simulator: the source data of a sandbox item after `refreshCount` on-demand
// refreshes on the same day. Pure and deterministic: no I/O, no clock, no Math.random.
//
// State 0 is generateSandboxItem(login, today) unchanged (the initial connect). State k applies
// refresh steps 1..k to it (docs/sandbox-data.md, "Refreshes within a day"). Step k:
// - every transaction that is pending in state k-1 posts: same id and account, pending false, the
//   date becomes `today`, restaurant and bar tabs may grow by a tip;
// - except, when k is odd, ONE of those pendings (chosen by a hash) is dropped from the source;
// - 1 to 3 new card purchases at known merchants appear, pending and dated `today`, on the credit
//   card or checking account (2 or 3 on even steps, so that every odd step can both post and drop).
//   Their ids are txn_ + hash(login seed, "refresh", today, k, ordinal), a key space the generator
//   never uses, so they never collide with generated ids.
// Balances follow the generator's own balance model for each account (see balancesAt).
// Logins with no card account (crypto exchange, crypto wallet) have no purchases: their state k
// equals state 0.
import { pad2 } from '../calendar';
import { hashHex, Rng, weightedPick } from './random';
import { enrichDescriptor } from '../enrichment/rules';
import { findInstitution } from '../institutions';
import { REGIONS, convertCents, regionOf, type PoolItem, type RegionPools, type SpendKind } from './pools';
import { generateSandboxItem, type RawTransaction, type SandboxAccount, type SandboxItemData, type SandboxLogin } from './generator';

// ---------------------------------------------------------------------------------------------
// Login context
// ---------------------------------------------------------------------------------------------

type CardKey = 'credit' | 'checking' | 'cash';

interface SimContext {
  seed: string;
  today: string;
  pools: RegionPools;
  homeCity: string;
  truncLen: number;
  debitFormat: string;
  /** Home currency of the login (every account's). */
  currency: string;
  cards: Partial<Record<CardKey, SandboxAccount>>;
  weights: Array<[SpendKind, number]>;
  /** Tips are customary on card tabs in North America, occasional elsewhere. */
  tipChance: number;
  tipRange: [number, number];
}

const PERSONAL_WEIGHTS: Array<[SpendKind, number]> = [
  ['coffee', 5], ['fastfood', 4], ['restaurant', 4], ['groceries', 3], ['delivery', 2], ['bars', 2], ['convenience', 1], ['pharmacy', 1], ['superstore', 1],
];
const BUSINESS_WEIGHTS: Array<[SpendKind, number]> = [['coffee', 5], ['restaurant', 4], ['office', 3], ['fastfood', 2], ['rideshare', 2], ['shipping', 1]];
const PAYMENT_APP_WEIGHTS: Array<[SpendKind, number]> = [['online', 3], ['delivery', 3], ['rideshare', 2], ['events', 1], ['clothing', 1]];

/** Categories whose card authorizations post with a tip added. */
const TIPPED = new Set(['food_and_drink_restaurants', 'food_and_drink_bars_and_alcohol']);

function cardKeyOf(a: SandboxAccount): CardKey | null {
  if (a.type === 'credit') return 'credit';
  if (a.type === 'depository' && a.subtype === 'checking') return 'checking';
  if (a.type === 'depository' && (a.subtype === 'cash management' || a.subtype === 'paypal')) return 'cash';
  return null;
}

function contextOf(login: SandboxLogin, today: string, accounts: readonly SandboxAccount[]): SimContext {
  // The same derivations as the generator's persona: the home city is the persona's first draw,
  // the truncation width and debit format the institution's first two.
  const seed = `${login.institutionId}|${login.username}`;
  const inst = findInstitution(login.institutionId);
  const region = regionOf(inst?.country_codes[0] ?? 'US');
  const pools = REGIONS[region];
  const homeCity = new Rng(`${seed}|persona`).pick(pools.cities);
  const instRng = new Rng(`${login.institutionId}|format`);
  const truncLen = instRng.pick([22, 23, 25]);
  const debitFormat = instRng.pick(pools.debitFormats);
  const cards: SimContext['cards'] = {};
  for (const a of accounts) {
    const key = cardKeyOf(a);
    if (key && !cards[key]) cards[key] = a;
  }
  const weights = inst?.type === 'business' ? BUSINESS_WEIGHTS : inst?.type === 'payment_app' ? PAYMENT_APP_WEIGHTS : PERSONAL_WEIGHTS;
  const northAmerica = region === 'US' || region === 'CA';
  return {
    seed,
    today,
    pools,
    homeCity,
    truncLen,
    debitFormat,
    currency: accounts[0]?.balances.iso_currency_code ?? pools.currency,
    cards,
    weights,
    tipChance: northAmerica ? 0.85 : 0.3,
    tipRange: northAmerica ? [0.15, 0.22] : [0.05, 0.1],
  };
}

function render(ctx: SimContext, r: Rng, template: string, mask: string): string {
  const [, mm, dd] = ctx.today.split('-');
  return template.replace(/\{([A-Z/]+)(\d*)\}/g, (whole, tag: string, num: string) => {
    const n = num ? Number(num) : 0;
    switch (tag) {
      case 'S': {
        // the generator's per-login store number for this template (one of two stores)
        const variant = r.int(0, 1);
        return new Rng(`${ctx.seed}|store|${template}|${n}|${variant}`).digits(n);
      }
      case 'N': return r.digits(n);
      case 'C': return r.code(n);
      case 'CITY': return ctx.homeCity;
      case 'MMDD': return `${mm}${dd}`;
      case 'MM/DD': return `${mm}/${dd}`;
      case 'YYMMDD': return `${ctx.today.slice(2, 4)}${mm}${dd}`;
      case 'MASK': return mask;
      default: return whole;
    }
  });
}

const weightedKind = (r: Rng, weights: Array<[SpendKind, number]>): SpendKind => weightedPick(r, weights);

/** An amount in [lo, hi], skewed towards lo, in cents (the generator's draw). */
function drawCents(r: Rng, item: PoolItem): number {
  if (item.hi <= item.lo) return Math.round(item.lo * 100);
  return Math.max(1, Math.round((item.lo + (item.hi - item.lo) * Math.pow(r.next(), 1.7)) * 100));
}

function timeOf(r: Rng): string {
  const h = r.pick([7, 8, 9, 10, 11, 12, 12, 13, 13, 14, 15, 16, 17, 18, 18, 19, 19, 20, 21, 22]);
  return `${pad2(h)}:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))}`;
}

const centsOf = (amount: number) => Math.round(amount * 100);

// ---------------------------------------------------------------------------------------------
// One refresh step
// ---------------------------------------------------------------------------------------------

/** A new card purchase at a known merchant, printed the way the generator prints it. */
function newPurchase(ctx: SimContext, r: Rng, k: number, ordinal: number): RawTransaction {
  const { credit, checking, cash } = ctx.cards;
  const account = credit && checking ? (r.chance(0.3) ? checking : credit) : (credit ?? checking ?? cash)!;
  const kind = weightedKind(r, ctx.weights);
  const item = r.pick(ctx.pools.spend[kind]);
  let merchant = render(ctx, r, item.t, account.mask);
  if (merchant.length > ctx.truncLen) merchant = merchant.slice(0, ctx.truncLen).trimEnd();
  const name =
    account === checking ? render(ctx, r, ctx.debitFormat.replace('{M}', () => merchant.replace(/\{/g, '(')), checking.mask) : merchant;
  const cents = drawCents(r, item);
  return {
    transaction_id: `txn_${hashHex(`${ctx.seed}|refresh|${ctx.today}|${k}|${ordinal}`, 24)}`,
    account_id: account.account_id,
    date: ctx.today,
    authorized_datetime: `${ctx.today}T${timeOf(r)}Z`,
    name,
    amount: cents / 100,
    iso_currency_code: ctx.currency,
    pending: true,
  };
}

/** The amount a pending authorization posts for: a tab (restaurant, bar) may grow by a tip. */
function postedAmount(ctx: SimContext, t: RawTransaction): number {
  if (t.amount <= 0) return t.amount;
  const category = enrichDescriptor(t.name, t.amount).category_detailed;
  if (!category || !TIPPED.has(category)) return t.amount;
  const r = new Rng(`${ctx.seed}|tip|${t.transaction_id}`);
  if (!r.chance(ctx.tipChance)) return t.amount;
  const [lo, hi] = ctx.tipRange;
  const cents = centsOf(t.amount);
  return (cents + Math.max(1, Math.round(cents * (lo + (hi - lo) * r.next())))) / 100;
}

function step(ctx: SimContext, state: RawTransaction[], k: number): RawTransaction[] {
  const r = new Rng(`${ctx.seed}|refresh|${ctx.today}|${k}`);
  const pendingIds = state.filter((t) => t.pending).map((t) => t.transaction_id).sort();
  const dropped = k % 2 === 1 && pendingIds.length > 0 ? pendingIds[r.int(0, pendingIds.length - 1)] : null;

  const rest: RawTransaction[] = [];
  for (const t of state) {
    if (!t.pending) rest.push(t);
    else if (t.transaction_id !== dropped) rest.push({ ...t, date: ctx.today, amount: postedAmount(ctx, t), pending: false });
  }

  if (!ctx.cards.credit && !ctx.cards.checking && !ctx.cards.cash) return rest;
  const count = r.int(k % 2 === 0 ? 2 : 1, 3);
  const added: RawTransaction[] = [];
  for (let i = 0; i < count; i++) added.push(newPurchase(ctx, r, k, i));
  added.sort((a, b) => (a.authorized_datetime! < b.authorized_datetime! ? 1 : a.authorized_datetime! > b.authorized_datetime! ? -1 : 0));
  return [...added, ...rest];
}

// ---------------------------------------------------------------------------------------------
// Balances
// ---------------------------------------------------------------------------------------------

/**
 * Balances of state k, moved from state 0's by what changed, in the generator's model per account:
 * - credit card: `current` is what is owed including pending authorizations; `available` is the
 *   limit minus that (never below 0);
 * - checking: `current` counts posted rows only; `available` is current minus pending outflows;
 * - cash (brokerage cash, payment app balance): `current` = `available`, pendings included.
 * Amounts in another currency count at the generator's fixed rate.
 */
function balancesAt(ctx: SimContext, base: SandboxItemData, rows: readonly RawTransaction[]): SandboxAccount[] {
  const sums = (list: readonly RawTransaction[], accountId: string) => {
    let all = 0;
    let posted = 0;
    let pendingOut = 0;
    for (const t of list) {
      if (t.account_id !== accountId) continue;
      const cents = convertCents(centsOf(t.amount), t.iso_currency_code, ctx.currency);
      all += cents;
      if (t.pending) {
        if (cents > 0) pendingOut += cents;
      } else posted += cents;
    }
    return { all, posted, pendingOut };
  };
  return base.accounts.map((a) => {
    const key = cardKeyOf(a);
    if (!key || ctx.cards[key] !== a) return a;
    const before = sums(base.transactions, a.account_id);
    const after = sums(rows, a.account_id);
    const current0 = centsOf(a.balances.current);
    let current: number;
    let available: number | null;
    switch (key) {
      case 'credit':
        current = current0 + (after.all - before.all);
        available = a.balances.limit === null ? a.balances.available : Math.max(0, centsOf(a.balances.limit) - current) / 100;
        break;
      case 'checking':
        current = current0 - (after.posted - before.posted);
        available = Math.max(0, current - after.pendingOut) / 100;
        break;
      case 'cash':
        current = current0 - (after.all - before.all);
        available = current / 100;
        break;
    }
    return { ...a, balances: { ...a.balances, current: current / 100, available } };
  });
}

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

/**
 * The sandbox source for `login` on `today` after `refreshCount` on-demand refreshes that day.
 * `refreshCount` 0 is exactly generateSandboxItem(login, today); each further count applies one
 * refresh step (new pending purchases, pendings posting, on odd counts one pending dropped).
 * Same (login, today, refreshCount) -> identical output.
 */
export function sandboxSourceAt(login: SandboxLogin, today: string, refreshCount: number): SandboxItemData {
  if (!Number.isInteger(refreshCount) || refreshCount < 0) throw new RangeError(`refreshCount must be a non-negative integer, got ${refreshCount}`);
  const base = generateSandboxItem(login, today);
  if (refreshCount === 0) return base;
  const ctx = contextOf(login, today, base.accounts);
  let rows = base.transactions;
  for (let k = 1; k <= refreshCount; k++) rows = step(ctx, rows, k);
  // newest first by date; within a date, the order the steps left them in (stable sort)
  const transactions = [...rows].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return { accounts: balancesAt(ctx, base, transactions), transactions };
}
