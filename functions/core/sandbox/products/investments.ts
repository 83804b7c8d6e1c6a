// Investments of a sandbox login: a 24-month buy/sell/dividend/deposit/withdrawal/fee ledger per
// investment and crypto account, mirroring the transfers the generator books, whose replay gives
// the holdings, and whose holdings (cash line included) add up to the account's balances.current
// to the cent.
import type { z } from 'zod';
import type {
  Holding as HoldingSchema,
  InvestmentTransaction as InvestmentTransactionSchema,
  Security as SecuritySchema,
} from '../../../contracts/schemas';
import { addMonths, civilFromDays, isoDate, monthDay, nextWeekday, parseDate, prevWeekday } from '../../calendar';
import type { RawTransaction, SandboxAccount, SandboxItemData, SandboxLogin } from '../generator';
import { USD_PER_UNIT } from '../pools';
import { hashHex, Rng, unitHash as unit } from '../random';
import { ALL_TEXT, cents, money, mulDivRound, seedOf, settled, templateRegex } from './shared';

export type Holding = z.infer<typeof HoldingSchema>;
export type Security = z.infer<typeof SecuritySchema>;
export type InvestmentTransaction = z.infer<typeof InvestmentTransactionSchema>;

export interface SandboxInvestments {
  holdings: Holding[];
  securities: Security[];
  /** Newest first; rows of one day in reverse execution order (reverse the array to replay). */
  investment_transactions: InvestmentTransaction[];
}

// ---------------------------------------------------------------------------------------------
// Security universe and prices
// ---------------------------------------------------------------------------------------------

type SecurityType = Security['type'];

interface Asset {
  ticker: string;
  name: string;
  type: Exclude<SecurityType, 'cash'>;
  /** USD price on 2024-01-01. */
  base: number;
  /** Annual log drift. */
  drift: number;
  /** Amplitude and period (days) of a slow cycle in log price. */
  amp: number;
  period: number;
  /** Day-to-day noise (fraction). */
  noise: number;
  /** Annual cash yield, paid quarterly. */
  yield: number;
}

const ASSETS: Asset[] = [
  { ticker: 'VTI', name: 'Vanguard Total Stock Market ETF', type: 'etf', base: 237.22, drift: 0.1, amp: 0.05, period: 410, noise: 0.006, yield: 0.014 },
  { ticker: 'VOO', name: 'Vanguard S&P 500 ETF', type: 'etf', base: 436.8, drift: 0.11, amp: 0.05, period: 380, noise: 0.006, yield: 0.013 },
  { ticker: 'SCHD', name: 'Schwab U.S. Dividend Equity ETF', type: 'etf', base: 25.52, drift: 0.05, amp: 0.04, period: 450, noise: 0.005, yield: 0.035 },
  { ticker: 'VXUS', name: 'Vanguard Total International Stock ETF', type: 'etf', base: 58.14, drift: 0.06, amp: 0.05, period: 500, noise: 0.006, yield: 0.03 },
  { ticker: 'BND', name: 'Vanguard Total Bond Market ETF', type: 'etf', base: 73.55, drift: 0.01, amp: 0.02, period: 600, noise: 0.002, yield: 0.035 },
  { ticker: 'AAPL', name: 'Apple Inc.', type: 'equity', base: 192.53, drift: 0.12, amp: 0.08, period: 300, noise: 0.012, yield: 0.005 },
  { ticker: 'MSFT', name: 'Microsoft Corporation', type: 'equity', base: 376.04, drift: 0.13, amp: 0.07, period: 340, noise: 0.011, yield: 0.008 },
  { ticker: 'JNJ', name: 'Johnson & Johnson', type: 'equity', base: 156.74, drift: 0.03, amp: 0.05, period: 420, noise: 0.008, yield: 0.03 },
  { ticker: 'KO', name: 'The Coca-Cola Company', type: 'equity', base: 58.93, drift: 0.05, amp: 0.04, period: 390, noise: 0.007, yield: 0.031 },
  { ticker: 'PG', name: 'The Procter & Gamble Company', type: 'equity', base: 146.54, drift: 0.05, amp: 0.04, period: 360, noise: 0.007, yield: 0.025 },
  { ticker: 'UST34', name: 'U.S. Treasury Note 4.375% 05/15/2034', type: 'bond', base: 98.9, drift: 0, amp: 0.03, period: 700, noise: 0.002, yield: 0.04375 },
  { ticker: 'BTC', name: 'Bitcoin', type: 'crypto', base: 42_265, drift: 0.35, amp: 0.2, period: 290, noise: 0.025, yield: 0 },
  { ticker: 'ETH', name: 'Ethereum', type: 'crypto', base: 2_282.5, drift: 0.2, amp: 0.25, period: 260, noise: 0.03, yield: 0 },
  { ticker: 'SOL', name: 'Solana', type: 'crypto', base: 101.4, drift: 0.3, amp: 0.3, period: 240, noise: 0.04, yield: 0 },
  { ticker: 'USDC', name: 'USD Coin', type: 'crypto', base: 1, drift: 0, amp: 0, period: 1, noise: 0, yield: 0 },
];
const ASSET_BY_TICKER = new Map(ASSETS.map((a) => [a.ticker, a]));
const BROKERAGE_TICKERS = ASSETS.filter((a) => a.type !== 'crypto' && a.type !== 'bond').map((a) => a.ticker);
const CRYPTO_TICKERS = ['BTC', 'ETH', 'SOL', 'USDC'];
const PRICE_EPOCH = parseDate('2024-01-01');

const CURRENCY_NAMES: Record<string, string> = {
  USD: 'US Dollar', EUR: 'Euro', GBP: 'British Pound', CAD: 'Canadian Dollar', CHF: 'Swiss Franc', SEK: 'Swedish Krona', DKK: 'Danish Krone',
  NOK: 'Norwegian Krone', PLN: 'Polish Zloty', AUD: 'Australian Dollar', NZD: 'New Zealand Dollar', MXN: 'Mexican Peso', BRL: 'Brazilian Real',
};
const cashTicker = (currency: string) => `CUR:${currency}`;

/** Units of quantity per share/coin: quantities are integers of 1e-8. */
const QTY = 100_000_000;
/** Quantity step: 6 decimals for securities, 8 for crypto. */
const stepOf = (ticker: string) => (ASSET_BY_TICKER.get(ticker)?.type === 'crypto' ? 1 : 100);
/** Exchanges close at weekends: a security's price on Saturday or Sunday is Friday's close. */
const tradesDaily = (ticker: string) => ASSET_BY_TICKER.get(ticker)?.type === 'crypto';

const priceCache = new Map<string, number>();

/** Close price of a ticker on day `n`, in cents of `currency` (the sandbox's fixed USD rates). */
function priceCents(ticker: string, n: number, currency: string): number {
  const asset = ASSET_BY_TICKER.get(ticker)!;
  const day = tradesDaily(ticker) ? n : prevWeekday(n);
  const key = `${ticker}|${day}|${currency}`;
  let p = priceCache.get(key);
  if (p !== undefined) return p;
  const t = day - PRICE_EPOCH;
  const phase = unit(`phase|${ticker}`) * 2 * Math.PI;
  const noise = (unit(`noise|${ticker}|${day}`) - 0.5) * 2 * asset.noise;
  const usd = asset.base * Math.exp((asset.drift * t) / 365 + asset.amp * Math.sin((2 * Math.PI * t) / asset.period + phase)) * (1 + noise);
  p = Math.max(1, Math.round((usd * 100) / (USD_PER_UNIT[currency] ?? 1)));
  if (priceCache.size > 50_000) priceCache.clear();
  priceCache.set(key, p);
  return p;
}

// ---------------------------------------------------------------------------------------------
// Investments: the ledger of one account
// ---------------------------------------------------------------------------------------------

type EventKind = 'open' | 'deposit' | 'invest' | 'withdrawal' | 'fee' | 'dividend' | 'sweep' | 'rebalance';

interface PlanEvent {
  day: number;
  /** Order among events of the same day. */
  rank: number;
  kind: EventKind;
  cents: number;
  name: string;
  ticker?: string;
  /** Trading fee rate charged on the buy an `invest` makes (bank-linked crypto). */
  feeRate?: number;
}

interface Row {
  day: number;
  type: InvestmentTransaction['type'];
  ticker: string;
  /** Signed quantity units (1e-8); cash rows: signed cents of cash moved. */
  qty: number;
  priceCents: number;
  /** Signed cents, positive = money out of the account. */
  amount: number;
  name: string;
}

interface SimResult {
  rows: Row[];
  units: Map<string, number>;
  cost: Map<string, number>;
  /** Cash from everything after the opening (the opening leaves exactly K). */
  laterCash: number;
  minLaterCash: number;
  openingCost: number;
}

interface AccountPlan {
  account: SandboxAccount;
  currency: string;
  tickers: string[];
  /** Target weights (sum 1), by ticker. */
  weights: Map<string, number>;
  events: PlanEvent[];
  openDay: number;
  todayN: number;
  names: { open: string; excess: string };
  costBasisReported: boolean;
}

function valueAt(plan: AccountPlan, units: Map<string, number>, day: number, ticker: string): number {
  const u = units.get(ticker) ?? 0;
  return u > 0 ? mulDivRound(u, priceCents(ticker, day, plan.currency), QTY) : 0;
}

function simulate(plan: AccountPlan, openingBudget: number, extra: PlanEvent[]): SimResult {
  const { currency } = plan;
  const units = new Map<string, number>();
  const cost = new Map<string, number>();
  const rows: Row[] = [];
  const cash = cashTicker(currency);
  let laterCash = 0;
  let minLaterCash = 0;
  let openingCost = 0;

  const buy = (day: number, ticker: string, budget: number, name: string): number => {
    if (budget < 100) return 0;
    const p = priceCents(ticker, day, currency);
    const step = stepOf(ticker);
    const u = Math.floor(Math.floor((budget * QTY) / p) / step) * step;
    if (u <= 0) return 0;
    const amount = mulDivRound(u, p, QTY);
    units.set(ticker, (units.get(ticker) ?? 0) + u);
    cost.set(ticker, (cost.get(ticker) ?? 0) + amount);
    rows.push({ day, type: 'buy', ticker, qty: u, priceCents: p, amount, name });
    return amount;
  };
  const sellUnits = (day: number, ticker: string, u: number, name: string): number => {
    const held = units.get(ticker) ?? 0;
    u = Math.min(u, held);
    if (u <= 0) return 0;
    const p = priceCents(ticker, day, currency);
    const amount = mulDivRound(u, p, QTY);
    const c = cost.get(ticker) ?? 0;
    const removed = u === held ? c : mulDivRound(c, u, held);
    units.set(ticker, held - u);
    cost.set(ticker, c - removed);
    rows.push({ day, type: 'sell', ticker, qty: -u, priceCents: p, amount: -amount, name });
    return amount;
  };
  /** Sells, largest position first, until `need` cents are raised (or nothing is left). */
  const raise = (day: number, need: number): number => {
    let raised = 0;
    const order = plan.tickers
      .map((t) => ({ t, v: valueAt(plan, units, day, t) }))
      .filter((x) => x.v > 0)
      .sort((a, b) => b.v - a.v || (a.t < b.t ? -1 : 1));
    for (const { t } of order) {
      if (raised >= need) break;
      const p = priceCents(t, day, currency);
      const step = stepOf(t);
      const u = Math.ceil(Math.ceil(((need - raised) * QTY) / p) / step) * step;
      raised += sellUnits(day, t, u, `SELL ${t}`);
    }
    return raised;
  };
  /** The ticker furthest below its target weight after adding `budget`. */
  const underweight = (day: number, budget: number, except?: string): string => {
    const values = plan.tickers.map((t) => valueAt(plan, units, day, t));
    const total = values.reduce((s, v) => s + v, 0) + budget;
    let best = plan.tickers[0];
    let gap = -Infinity;
    plan.tickers.forEach((t, i) => {
      if (t === except) return;
      const g = plan.weights.get(t)! * total - values[i];
      if (g > gap) {
        gap = g;
        best = t;
      }
    });
    return best;
  };
  const cashRow = (day: number, type: Row['type'], amount: number, name: string) => {
    rows.push({ day, type, ticker: cash, qty: -amount, priceCents: 100, amount, name });
    laterCash -= amount;
  };
  const outflow = (day: number, type: 'withdrawal' | 'fee', amount: number, name: string) => {
    if (amount <= 0) return;
    if (laterCash < amount) laterCash += raise(day, amount - laterCash);
    cashRow(day, type, amount, name);
  };

  const events = [...plan.events, ...extra].sort((a, b) => a.day - b.day || a.rank - b.rank);
  for (const e of events) {
    switch (e.kind) {
      case 'open': {
        // the opening deposit row is written once the closing cash is known (it equals K + cost)
        for (const t of plan.tickers) openingCost += buy(e.day, t, Math.floor(openingBudget * plan.weights.get(t)!), `BUY ${t}`);
        break;
      }
      case 'deposit':
        cashRow(e.day, 'deposit', -e.cents, e.name);
        break;
      case 'invest': {
        const fee = e.feeRate ? Math.max(1, Math.round(e.cents * e.feeRate)) : 0;
        const budget = Math.min(e.cents, laterCash) - fee;
        if (budget < 100) break;
        const t = underweight(e.day, budget);
        const spent = buy(e.day, t, budget, `BUY ${t}`);
        laterCash -= spent;
        if (spent > 0 && fee > 0) cashRow(e.day, 'fee', fee, 'TRADING FEE');
        break;
      }
      case 'withdrawal':
      case 'fee':
        outflow(e.day, e.kind, e.cents, e.name);
        break;
      case 'sweep':
        outflow(e.day, 'withdrawal', e.cents, e.name);
        break;
      case 'dividend': {
        const ticker = e.ticker!;
        let amount = e.cents;
        if (amount === 0) {
          // our own dividend: the quarter's yield on the units held that day
          const asset = ASSET_BY_TICKER.get(ticker)!;
          const u = units.get(ticker) ?? 0;
          amount = Math.floor((u / QTY) * priceCents(ticker, e.day, currency) * (asset.yield / 4));
        }
        if (amount <= 0) break;
        rows.push({ day: e.day, type: 'dividend', ticker, qty: 0, priceCents: 0, amount: -amount, name: e.name });
        laterCash += amount;
        break;
      }
      case 'rebalance': {
        const held = plan.tickers.map((t) => ({ t, v: valueAt(plan, units, e.day, t) })).filter((x) => x.v > 0);
        if (held.length === 0 || plan.tickers.length < 2) break;
        held.sort((a, b) => b.v - a.v || (a.t < b.t ? -1 : 1));
        const from = held[0].t;
        const step = stepOf(from);
        const u = Math.floor(((units.get(from) ?? 0) * e.cents) / 10_000 / step) * step;
        const proceeds = sellUnits(e.day, from, u, `SELL ${from}`);
        laterCash += proceeds;
        if (proceeds > 0) {
          const to = underweight(e.day, 0, from);
          laterCash -= buy(e.day, to, proceeds, `BUY ${to}`);
        }
        break;
      }
    }
    if (laterCash < minLaterCash) minLaterCash = laterCash;
  }
  return { rows, units, cost, laterCash, minLaterCash, openingCost };
}

/** Sum of position values at the close of `today`. */
function closingValue(plan: AccountPlan, units: Map<string, number>): number {
  return plan.tickers.reduce((s, t) => s + valueAt(plan, units, plan.todayN, t), 0);
}

interface Ledger {
  sim: SimResult;
  /** Cash left after the opening deposit and buys. */
  openingCash: number;
}

/**
 * Solves the ledger so that positions at today's close plus cash equal balances.current to the
 * cent. The opening deposit (at the start of the window) is the free variable: its buys are sized so
 * that the account ends with a small cash line (1-4% of the balance), and its cash part is exactly
 * what makes the sum land on the balance. When the transfers the item books put more into the
 * account than the balance holds, a withdrawal on the last trading day takes the excess out.
 */
function solveLedger(plan: AccountPlan, balance: number): Ledger {
  const target = Math.round(balance * (0.01 + 0.03 * unit(`cash|${plan.account.account_id}`)));
  const closingCash = (sim: SimResult) => balance - closingValue(plan, sim.units) - sim.laterCash;
  const feasible = (sim: SimResult) => sim.minLaterCash >= 0;

  // Smallest opening that keeps every later outflow covered by cash or sales.
  let lo = 0;
  let sim = simulate(plan, 0, []);
  if (!feasible(sim)) {
    let hi = Math.max(10_000, balance);
    for (let k = 0; k < 40 && !feasible(simulate(plan, hi, [])); k++) hi *= 2;
    for (let k = 0; k < 30 && hi - lo > Math.max(100, hi / 5000); k++) {
      const mid = Math.floor((lo + hi) / 2);
      if (feasible(simulate(plan, mid, []))) hi = mid;
      else lo = mid;
    }
    lo = hi;
    sim = simulate(plan, lo, []);
  }

  // Opening size: closing cash decreases as the opening grows; keep the best with cash >= target.
  let best: { budget: number; sim: SimResult; cash: number } | null = null;
  const consider = (budget: number, s: SimResult) => {
    const c = closingCash(s);
    if (c >= target && feasible(s) && (!best || c < best.cash)) best = { budget, sim: s, cash: c };
    return c;
  };
  let aB = lo;
  let fA = consider(lo, sim) - target;
  if (fA > 0) {
    let bB = lo + fA;
    let fB = consider(bB, simulate(plan, bB, [])) - target;
    for (let k = 0; k < 20 && fB > 0; k++) {
      aB = bB;
      fA = fB;
      bB = bB + Math.max(fB, 100) * 2;
      fB = consider(bB, simulate(plan, bB, [])) - target;
    }
    for (let k = 0; k < 12 && fB < 0 && fA > 0; k++) {
      const guess = Math.round(aB + (fA * (bB - aB)) / (fA - fB));
      const mid = guess > aB && guess < bB ? guess : Math.floor((aB + bB) / 2);
      if (mid === aB || mid === bB) break;
      const f = consider(mid, simulate(plan, mid, [])) - target;
      if (Math.abs(f) <= Math.max(100, target * 0.05) && f >= 0) break;
      if (f > 0) {
        aB = mid;
        fA = f;
      } else {
        bB = mid;
        fB = f;
      }
    }
  }
  if (best) {
    const b = best as { budget: number; sim: SimResult; cash: number };
    return { sim: b.sim, openingCash: b.cash };
  }

  // More came in than the balance holds: take the excess out on the last trading day.
  const excessDay = plan.tickers.every(tradesDaily) ? plan.todayN : prevWeekday(plan.todayN);
  let excess = target - closingCash(sim);
  for (let k = 0; k < 8; k++) {
    const extra: PlanEvent[] = [{ day: excessDay, rank: 9, kind: 'withdrawal', cents: excess, name: plan.names.excess }];
    const s = simulate(plan, lo, extra);
    const c = closingCash(s);
    if (c >= 0 && feasible(s)) return { sim: s, openingCash: c };
    excess += Math.max(100, target - c);
  }
  throw new Error(`sandbox investments: no ledger for ${plan.account.account_id}`);
}

// ---------------------------------------------------------------------------------------------
// Investments: plans from the item's accounts and transfers
// ---------------------------------------------------------------------------------------------

function pickWeights(r: Rng, tickers: string[]): Map<string, number> {
  const raw = tickers.map(() => r.int(1, 5));
  const sum = raw.reduce((s, x) => s + x, 0);
  return new Map(tickers.map((t, i) => [t, raw[i] / sum]));
}

/** Transfers into `account` booked on the item's depository accounts (checking -> brokerage / crypto). */
function mirroredDeposits(data: SandboxItemData, account: SandboxAccount): RawTransaction[] {
  const templates = ALL_TEXT.map((t) => (account.type === 'crypto' ? t.toCrypto : t.toBrokerage));
  const regexes = [...new Set(templates)].map((t) => templateRegex(t, account.mask));
  const depository = new Set(data.accounts.filter((a) => a.type === 'depository').map((a) => a.account_id));
  return data.transactions.filter((t) => depository.has(t.account_id) && !t.pending && t.amount > 0 && regexes.some((re) => re.test(t.name)));
}

function accountPlan(seed: string, data: SandboxItemData, account: SandboxAccount, todayN: number): AccountPlan {
  const r = new Rng(`${seed}|invest|${account.account_id}`);
  const currency = account.balances.iso_currency_code;
  const isCrypto = account.type === 'crypto';
  const wallet = isCrypto && account.subtype === 'wallet';
  const windowStart = addMonths(todayN, -24);
  const openDay = isCrypto ? windowStart : nextWeekday(windowStart);
  const events: PlanEvent[] = [];
  const tradeDay = (n: number) => (isCrypto ? n : nextWeekday(n));

  const own = settled(data, account.account_id);
  // dividends the brokerage pays out to the item's cash-management account
  const cashAccounts = data.accounts.filter((a) => a.type === 'depository' && a.subtype === 'cash management');
  const paidOut = isCrypto
    ? []
    : cashAccounts.flatMap((c) =>
        settled(data, c.account_id)
          .map((t) => ({ t, m: /^DIVIDEND RECEIVED ([A-Z0-9.]+)$/.exec(t.name) }))
          .filter((x) => x.m && x.t.amount < 0 && ASSET_BY_TICKER.has(x.m[1]))
          .map((x) => ({ t: x.t, ticker: x.m![1], cashMask: c.mask })),
      );
  const stakingTickers = own.map((t) => /^STAKING REWARD ([A-Z0-9]+)$/.exec(t.name)?.[1]).filter((t): t is string => !!t && ASSET_BY_TICKER.has(t));

  let tickers: string[];
  if (isCrypto) {
    const base = r.shuffled(CRYPTO_TICKERS.filter((t) => t !== 'USDC')).slice(0, r.int(1, 3));
    tickers = CRYPTO_TICKERS.filter((t) => base.includes(t) || stakingTickers.includes(t) || (t === 'USDC' && r.chance(0.25)));
  } else if (paidOut.length) {
    tickers = BROKERAGE_TICKERS.filter((t) => paidOut.some((p) => p.ticker === t));
  } else {
    const chosen = r.shuffled(BROKERAGE_TICKERS).slice(0, r.int(3, 5));
    if (r.chance(0.25)) chosen.push('UST34');
    tickers = ASSETS.map((a) => a.ticker).filter((t) => chosen.includes(t));
  }
  const weights = pickWeights(r, tickers);

  events.push({ day: openDay, rank: 0, kind: 'open', cents: 0, name: '' });

  // the account's own statement rows (crypto exchanges and wallets book their activity there)
  for (const t of own) {
    const day = parseDate(t.date);
    if (day < openDay) continue;
    const c = Math.abs(cents(t.amount));
    if (c === 0) continue;
    const staking = /^STAKING REWARD ([A-Z0-9]+)$/.exec(t.name);
    if (t.amount < 0 && staking && ASSET_BY_TICKER.has(staking[1])) {
      events.push({ day, rank: 3, kind: 'dividend', cents: c, name: t.name, ticker: staking[1] });
    } else if (t.amount < 0) {
      events.push({ day, rank: 1, kind: 'deposit', cents: c, name: t.name });
      events.push({ day: tradeDay(day), rank: 2, kind: 'invest', cents: c, name: '' });
    } else if (/\bFEE\b/.test(t.name)) {
      events.push({ day, rank: 5, kind: 'fee', cents: c, name: t.name });
    } else {
      events.push({ day, rank: 4, kind: 'withdrawal', cents: c, name: t.name });
    }
  }

  // transfers from checking: a deposit, invested in the most underweight position
  for (const t of mirroredDeposits(data, account)) {
    const day = parseDate(t.date);
    if (day < openDay) continue;
    const c = cents(t.amount);
    events.push({ day, rank: 1, kind: 'deposit', cents: c, name: isCrypto ? 'TRANSFER FROM BANK' : 'ELECTRONIC FUNDS TRANSFER RECEIVED' });
    events.push({ day: tradeDay(day), rank: 2, kind: 'invest', cents: c, name: '', feeRate: isCrypto ? 0.005 : undefined });
  }

  // dividends paid out to the cash-management account: booked here, then swept out the same day
  for (const p of paidOut) {
    const day = parseDate(p.t.date);
    if (day < openDay) continue;
    const c = -cents(p.t.amount);
    events.push({ day, rank: 3, kind: 'dividend', cents: c, name: `DIVIDEND ${p.ticker}`, ticker: p.ticker });
    events.push({ day, rank: 4, kind: 'sweep', cents: c, name: `DIVIDEND SWEEP TO CASH MANAGEMENT XXXX${p.cashMask}` });
  }

  const ownDividends = !isCrypto && paidOut.length === 0;
  const schedule = (months: number[], dom: number, make: (day: number) => PlanEvent) => {
    for (let n = monthDay(openDay, 0, 1); n <= todayN; n = monthDay(n, 1, 1)) {
      const m = civilFromDays(n).m;
      if (!months.includes(m)) continue;
      const day = tradeDay(monthDay(n, 0, dom));
      if (day > openDay && day <= todayN) events.push(make(day));
    }
  };
  if (ownDividends) {
    tickers.forEach((t, i) => {
      if ((ASSET_BY_TICKER.get(t)?.yield ?? 0) > 0) schedule([3, 6, 9, 12], 12 + i * 2, (day) => ({ day, rank: 3, kind: 'dividend', cents: 0, name: `DIVIDEND ${t}`, ticker: t }));
    });
    schedule([1], 5, (day) => ({ day, rank: 5, kind: 'fee', cents: 2500, name: 'ANNUAL ACCOUNT FEE' }));
  }
  // twice a year: trim the largest position by 10-20% into the most underweight one
  const rebalanceDay = r.int(8, 20);
  schedule([5, 11], rebalanceDay, (day) => ({ day, rank: 6, kind: 'rebalance', cents: 1000 + Math.floor(unit(`${seed}|reb|${account.account_id}|${day}`) * 1000), name: '' }));

  return {
    account,
    currency,
    tickers,
    weights,
    events,
    openDay,
    todayN,
    names: {
      open: wallet ? 'RECEIVED FROM PREVIOUS ADDRESS' : isCrypto ? 'OPENING DEPOSIT' : 'ACCOUNT TRANSFER IN',
      excess: wallet ? 'SENT TO EXTERNAL ADDRESS' : isCrypto ? 'TRANSFER TO EXTERNAL WALLET' : 'TRANSFER TO EXTERNAL ACCOUNT',
    },
    costBasisReported: !wallet,
  };
}

const securityOf = (ticker: string, currency: string, todayN: number): Security => {
  const id = `sec_${hashHex(`security|${ticker}|${currency}`)}`;
  const asset = ASSET_BY_TICKER.get(ticker);
  if (!asset) return { security_id: id, ticker, name: CURRENCY_NAMES[currency] ?? currency, type: 'cash', close_price: 1 };
  return { security_id: id, ticker, name: asset.name, type: asset.type, close_price: money(priceCents(ticker, todayN, currency)) };
};

const roundQty = (units: number) => Number((units / QTY).toFixed(8));

/**
 * Holdings, securities and investment transactions of every investment and crypto account of a
 * sandbox login. For each account: sum(holdings.value) === balances.current to the cent; replaying
 * the transactions (buy/sell quantities per ticker, cash = -sum(amount)) gives the holdings; cost
 * basis is average cost, null for a self-custody wallet (it reports none).
 */
export function sandboxInvestments(login: SandboxLogin, data: SandboxItemData, today: string): SandboxInvestments {
  const seed = seedOf(login);
  const todayN = parseDate(today);
  const holdings: Holding[] = [];
  const txns: Array<InvestmentTransaction & { _day: number; _seq: number }> = [];
  const securities = new Map<string, Security>();
  let seq = 0;

  for (const account of data.accounts) {
    if (account.type !== 'investment' && account.type !== 'crypto') continue;
    const currency = account.balances.iso_currency_code;
    const cash = cashTicker(currency);
    const balance = cents(account.balances.current);
    const useSecurity = (ticker: string) => {
      if (!securities.has(`${ticker}|${currency}`)) securities.set(`${ticker}|${currency}`, securityOf(ticker, currency, todayN));
      return securities.get(`${ticker}|${currency}`)!;
    };

    let rows: Row[] = [];
    let units = new Map<string, number>();
    let cost = new Map<string, number>();
    let cashCents = balance;
    let tickers: string[] = [];
    let costBasisReported = true;
    if (balance > 0) {
      const plan = accountPlan(seed, data, account, todayN);
      const { sim, openingCash } = solveLedger(plan, balance);
      const opening: Row[] =
        sim.openingCost + openingCash > 0
          ? [{ day: plan.openDay, type: 'deposit', ticker: cash, qty: sim.openingCost + openingCash, priceCents: 100, amount: -(sim.openingCost + openingCash), name: plan.names.open }]
          : [];
      rows = [...opening, ...sim.rows];
      units = sim.units;
      cost = sim.cost;
      cashCents = openingCash + sim.laterCash;
      tickers = plan.tickers;
      costBasisReported = plan.costBasisReported;
    }

    // transactions: ids from (login, account, day, type, ticker, ordinal of that combination)
    const ordinals = new Map<string, number>();
    for (const row of rows) {
      const date = isoDate(row.day);
      const key = `${date}|${row.type}|${row.ticker}`;
      const k = ordinals.get(key) ?? 0;
      ordinals.set(key, k + 1);
      useSecurity(row.ticker);
      txns.push({
        investment_transaction_id: `invtxn_${hashHex(`${seed}|${account.account_id}|${key}|${k}`)}`,
        account_id: account.account_id,
        ticker: row.ticker,
        type: row.type,
        quantity: row.ticker === cash ? money(row.qty) : roundQty(row.qty),
        price: money(row.priceCents),
        amount: money(row.amount),
        date,
        name: row.name,
        _day: row.day,
        _seq: seq++,
      });
    }

    for (const t of tickers) {
      const u = units.get(t) ?? 0;
      if (u <= 0) continue;
      const security = useSecurity(t);
      holdings.push({
        holding_id: `hold_${hashHex(`${seed}|${account.account_id}|${t}`)}`,
        account_id: account.account_id,
        security,
        quantity: roundQty(u),
        cost_basis: costBasisReported ? money(cost.get(t) ?? 0) : null,
        value: money(mulDivRound(u, priceCents(t, todayN, currency), QTY)),
      });
    }
    holdings.push({
      holding_id: `hold_${hashHex(`${seed}|${account.account_id}|${cash}`)}`,
      account_id: account.account_id,
      security: useSecurity(cash),
      quantity: money(cashCents),
      cost_basis: money(cashCents),
      value: money(cashCents),
    });
  }

  txns.sort((a, b) => b._day - a._day || b._seq - a._seq);
  const order = [...ASSETS.map((a) => a.ticker)];
  const rank = (s: Security) => (s.type === 'cash' ? order.length : order.indexOf(s.ticker));
  return {
    holdings,
    securities: [...securities.values()].sort((a, b) => rank(a) - rank(b) || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0)),
    investment_transactions: txns.map(({ _day: _d, _seq: _s, ...t }) => t),
  };
}
