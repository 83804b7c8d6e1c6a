// Sandbox data generator: 24 months of accounts and raw-descriptor transactions for one sandbox
// login. Pure and deterministic: no I/O, no clock, no Math.random. Everything derives from seeded
// PRNGs keyed by (institutionId, username) and, for each day's activity, by that day's date.
//
// Determinism rules (docs/sandbox-data.md):
// - Same (institutionId, username, today) -> identical output. Different usernames -> a different
//   persona (employer, pay cadence, rent, providers, subscriptions, favourite merchants, masks, ids).
// - Each calendar day's activity is a function of (login, day) only, never of `today`. `today` only
//   decides the 24-month window, which recent card purchases are still pending, and the balances.
//   So a transaction keeps its id, name and amount from one day to the next, and keeps its id from
//   pending to posted (date moves from authorization date to posted date).
// - transaction_id = txn_ + hash(login seed, account, authorization day, ordinal within that day).
//   account_id = acct_ + hash(login seed, account key).
// The generator fills no merchant_name or category: ingestion runs enrichDescriptor on `name`.
import type { AccountRecord } from '../../contracts/schemas';
import type { SourceTransaction } from '../connector-port';
import { hashHex, Rng, weightedPick } from './random';
import { addMonths, civilFromDays, daysFromCivil, daysInMonth, pad2, parseDate, prevWeekday, weekday } from '../calendar';
import { findInstitution } from '../institutions';
import type { InstitutionType } from '../connectors';
import {
  FOREIGN_DESTINATIONS,
  REGIONS,
  convertCents,
  currencyOf,
  regionOf,
  type PoolItem,
  type RegionCode,
  type RegionPools,
  type SpendKind,
  type Subscription,
} from './pools';

export interface SandboxLogin {
  institutionId: string;
  username: string;
}

/** A sandbox account has exactly the contract's Account shape. */
export type SandboxAccount = AccountRecord;

/** A transaction as the simulator reports it: the port's SourceTransaction (ingestion enriches it). */
export type RawTransaction = SourceTransaction;

export interface SandboxItemData {
  accounts: SandboxAccount[];
  transactions: RawTransaction[];
}

/** Months of history in a sandbox item. */
export const SANDBOX_HISTORY_MONTHS = 24;

// ---------------------------------------------------------------------------------------------
// A day's calendar parts, as the daily streams read them
// ---------------------------------------------------------------------------------------------

interface DayParts {
  n: number;
  iso: string;
  y: number;
  m: number;
  d: number;
  /** 0 = Sunday. */
  dow: number;
  dim: number;
}

function partsOf(n: number): DayParts {
  const { y, m, d } = civilFromDays(n);
  return { n, iso: `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`, y, m, d, dow: weekday(n), dim: daysInMonth(y, m) };
}

/** The given day of month (clamped to the month's end), moved back to Friday when it falls on a weekend. */
const businessDay = (y: number, m: number, d: number) => prevWeekday(daysFromCivil(y, m, Math.min(d, daysInMonth(y, m))));

// ---------------------------------------------------------------------------------------------
// Login profile
// ---------------------------------------------------------------------------------------------

type Profile = 'bank' | 'credit_union' | 'business' | 'brokerage' | 'crypto_exchange' | 'crypto_wallet' | 'payment_app';

function profileOf(type: InstitutionType | undefined): Profile {
  switch (type) {
    case 'credit_union': return 'credit_union';
    case 'business': return 'business';
    case 'investment': return 'brokerage';
    case 'crypto_exchange': return 'crypto_exchange';
    case 'crypto_wallet': return 'crypto_wallet';
    case 'payment_app': return 'payment_app';
    default: return 'bank';
  }
}

type AccountKey = 'checking' | 'savings' | 'credit' | 'brokerage' | 'crypto' | 'loan' | 'cash';

interface UtilityBill {
  item: PoolItem;
  day: number;
  onCard: boolean;
  base: number;
  seasonal: number;
  /** Day number from which a fixed bill costs `bump` more. */
  changeDay: number;
  bump: number;
}

interface SubPlan {
  sub: Subscription;
  day: number;
  month: number;
  changeDay: number;
  bump: number;
}

interface Trip {
  start: number;
  end: number;
  flightDay: number;
  city: string;
  currency: string;
  region: RegionCode;
  foreign: boolean;
  hotel: PoolItem;
  flight: PoolItem;
  rentalCar: PoolItem | null;
}

interface Persona {
  seed: string;
  profile: Profile;
  region: RegionCode;
  pools: RegionPools;
  currency: string;
  instName: string;
  bank: string;
  truncLen: number;
  debitFormat: string;
  homeCity: string;
  personName: string;
  landlord: string;
  employer: string;
  payrollTemplate: string;
  cadence: 'biweekly' | 'semimonthly' | 'monthly';
  biweeklyAnchor: number;
  monthlyPayDay: number;
  payCents: number;
  housingTemplate: string;
  housingCents: number;
  housingDay: number;
  bills: UtilityBill[];
  subs: SubPlan[];
  favorites: Record<SpendKind, PoolItem[]>;
  spendScale: number;
  debitShare: number;
  hasCar: boolean;
  hasPet: boolean;
  savingsDay: number;
  savingsCents: number;
  savingsBase: number;
  apy: number;
  cardPayDay: number;
  creditLimit: number;
  loan: { kind: 'auto' | 'student'; principal: number; monthlyRate: number; term: number; firstPayment: number; day: number; payment: number } | null;
  investDay: number;
  investCents: number;
  cryptoDay: number;
  cryptoCents: number;
  fxFee: boolean;
  taxMode: 'refund' | 'payment' | 'none';
  checkingBase: number;
  brokerageBase: number;
  cryptoBase: number;
  tickers: string[];
  masks: Record<AccountKey, string>;
}

const LANDLORDS = ['PINE RIDGE', 'HARBOR VIEW', 'OAKWOOD', 'MAPLE COURT', 'RIVERSIDE', 'PARK PLACE', 'CEDAR HILL', 'LAKESHORE'];
const TICKERS = ['VTI', 'VOO', 'AAPL', 'MSFT', 'SCHD', 'VXUS', 'JNJ', 'KO', 'PG', 'BND'];
const SPEND_KINDS: SpendKind[] = [
  'groceries', 'superstore', 'online', 'restaurant', 'fastfood', 'coffee', 'delivery', 'bars', 'fuel', 'rideshare', 'transit', 'parking',
  'pharmacy', 'clothing', 'electronics', 'home', 'beauty', 'events', 'books', 'pets', 'convenience', 'shipping', 'office', 'fitness_dropin',
];

function makePersona(login: SandboxLogin): Persona {
  const seed = `${login.institutionId}|${login.username}`;
  const inst = findInstitution(login.institutionId);
  const country = inst?.country_codes[0] ?? 'US';
  const region = regionOf(country);
  const pools = REGIONS[region];
  const profile = profileOf(inst?.type);
  const r = new Rng(`${seed}|persona`);
  const instName = inst?.name ?? 'Sandbox Bank';
  const bank = instName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  // Statement truncation is a property of the bank, not of the user.
  const instRng = new Rng(`${login.institutionId}|format`);
  const truncLen = instRng.pick([22, 23, 25]);
  const debitFormat = instRng.pick(pools.debitFormats);

  const homeCity = r.pick(pools.cities);
  const cadence: Persona['cadence'] = region === 'US' || region === 'CA' ? (r.chance(0.55) ? 'biweekly' : 'semimonthly') : 'monthly';
  const annualNet = r.int(42, 135) * 1000;
  const periods = cadence === 'biweekly' ? 26 : cadence === 'semimonthly' ? 24 : 12;
  const payCents = Math.round((annualNet / periods) * 100);
  const mortgage = r.chance(0.25);
  const housingCents = Math.round(annualNet * (mortgage ? 0.22 : 0.26) / 12 / 5) * 500; // whole tens
  const hasCar = r.chance(0.7);

  const billOf = (items: PoolItem[], seasonal: number, cardShare: number): UtilityBill => {
    const item = r.pick(items);
    return {
      item,
      day: r.int(3, 27),
      onCard: r.chance(cardShare),
      base: item.lo + (item.hi - item.lo) * (0.25 + 0.5 * r.next()),
      seasonal,
      changeDay: daysFromCivil(2023, 1, 1) + r.int(0, 1400),
      bump: r.pick([0, 5, 10]),
    };
  };
  const bills = [billOf(pools.electric, 0.22, 0.15), billOf(pools.water, 0.12, 0.05), billOf(pools.internet, 0, 0.45), billOf(pools.phone, 0, 0.55)];
  if (hasCar || r.chance(0.4)) bills.push(billOf(pools.insurance, 0, 0.3));

  const subPool = profile === 'business' ? pools.businessSubscriptions : pools.subscriptions;
  const monthlySubs = r.shuffled(subPool.filter((s) => !s.annual)).slice(0, r.int(4, 7));
  const annualSubs = r.shuffled(subPool.filter((s) => s.annual)).slice(0, r.int(1, 2));
  const subs: SubPlan[] = [...monthlySubs, ...annualSubs].map((sub) => ({
    sub,
    day: r.int(1, 28),
    month: r.int(1, 12),
    changeDay: daysFromCivil(2023, 1, 1) + r.int(0, 1500),
    bump: sub.annual ? Math.round(sub.price * 0.1) : r.pick([0, 0, 1, 2, 3]),
  }));

  const favorites = {} as Record<SpendKind, PoolItem[]>;
  for (const kind of SPEND_KINDS) {
    const pool = pools.spend[kind];
    favorites[kind] = r.shuffled(pool).slice(0, Math.max(1, Math.min(pool.length, r.int(2, 4))));
  }

  const loanKind: 'auto' | 'student' = hasCar && r.chance(0.6) ? 'auto' : 'student';
  const principal = loanKind === 'auto' ? r.int(18, 42) * 1000 : r.int(22, 65) * 1000;
  const monthlyRate = (loanKind === 'auto' ? 0.045 + r.next() * 0.04 : 0.04 + r.next() * 0.03) / 12;
  const term = loanKind === 'auto' ? r.pick([60, 72]) : 120;
  const firstPayment = loanKind === 'auto' ? daysFromCivil(2022, 1, 1) + r.int(0, 900) : daysFromCivil(2019, 1, 1) + r.int(0, 1400);
  const payment = Math.round(((principal * monthlyRate) / (1 - Math.pow(1 + monthlyRate, -term))) * 100);

  const mask = () => r.digits(4);
  return {
    seed,
    profile,
    region,
    pools,
    currency: currencyOf(country),
    instName,
    bank,
    truncLen,
    debitFormat,
    homeCity,
    personName: r.pick(pools.peers),
    landlord: r.pick(LANDLORDS),
    employer: r.pick(pools.employers),
    payrollTemplate: r.pick(pools.payroll),
    cadence,
    biweeklyAnchor: daysFromCivil(2024, 1, 5) + (r.chance(0.5) ? 7 : 0),
    monthlyPayDay: region === 'GB' ? 25 : 28,
    payCents,
    housingTemplate: mortgage ? r.pick(pools.mortgage) : r.pick(pools.rent),
    housingCents,
    housingDay: 1,
    bills,
    subs,
    favorites,
    spendScale: 0.75 + r.next() * 0.6,
    debitShare: 0.15 + r.next() * 0.3,
    hasCar,
    hasPet: r.chance(0.4),
    savingsDay: r.int(2, 27),
    savingsCents: r.int(4, 60) * 2500,
    savingsBase: r.int(2, 40) * 500,
    apy: 0.005 + r.next() * 0.04,
    cardPayDay: r.int(18, 27),
    creditLimit: r.int(6, 50) * 500,
    loan: { kind: loanKind, principal, monthlyRate, term, firstPayment, day: r.int(5, 25), payment },
    investDay: r.int(2, 27),
    investCents: r.chance(0.75) ? r.int(2, 40) * 2500 : 0,
    cryptoDay: r.int(2, 27),
    cryptoCents: r.chance(0.5) ? r.int(2, 20) * 2500 : 0,
    fxFee: r.chance(0.6),
    taxMode: r.chance(0.65) ? 'refund' : r.chance(0.6) ? 'payment' : 'none',
    checkingBase: r.int(15, 120) * 100,
    brokerageBase: r.int(8, 260) * 1000,
    cryptoBase: r.int(5, 250) * 100,
    tickers: r.shuffled(TICKERS).slice(0, r.int(3, 6)),
    masks: { checking: mask(), savings: mask(), credit: mask(), brokerage: mask(), crypto: mask(), loan: mask(), cash: mask() },
  };
}

/** Remaining principal (cents) after `k` payments. */
function loanBalance(loan: NonNullable<Persona['loan']>, k: number): number {
  const i = loan.monthlyRate;
  const p = loan.principal * 100;
  const g = Math.pow(1 + i, k);
  return Math.max(0, Math.round(p * g - (loan.payment * (g - 1)) / i));
}

/** Number of loan payments made on or before day `n`. */
function loanPaymentsBy(loan: NonNullable<Persona['loan']>, n: number): number {
  if (n < loan.firstPayment) return 0;
  const a = partsOf(loan.firstPayment);
  const b = partsOf(n);
  let k = (b.y - a.y) * 12 + (b.m - a.m) + 1;
  if (b.d < Math.min(loan.day, b.dim)) k -= 1;
  return Math.max(0, Math.min(loan.term, k));
}

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

interface AccountPlan {
  key: AccountKey;
  type: SandboxAccount['type'];
  subtype: string;
  name: string;
  official: string;
}

function accountPlans(p: Persona): AccountPlan[] {
  const n = p.instName;
  const gb = p.region === 'GB';
  const checking: AccountPlan = { key: 'checking', type: 'depository', subtype: 'checking', name: gb ? 'Current Account' : 'Everyday Checking', official: `${n} ${gb ? 'Current Account' : 'Everyday Checking'}` };
  const savings: AccountPlan = { key: 'savings', type: 'depository', subtype: 'savings', name: gb ? 'Easy Saver' : 'High-Yield Savings', official: `${n} ${gb ? 'Easy Saver' : 'High-Yield Savings'}` };
  const credit: AccountPlan = { key: 'credit', type: 'credit', subtype: 'credit card', name: 'Rewards Card', official: `${n} Rewards Visa Signature` };
  const brokerage: AccountPlan = { key: 'brokerage', type: 'investment', subtype: 'brokerage', name: 'Individual Brokerage', official: `${n} Individual Brokerage Account` };
  const crypto: AccountPlan = { key: 'crypto', type: 'crypto', subtype: 'crypto_exchange', name: 'Crypto', official: `${n} Crypto Trading Account` };
  const loanKind = p.loan?.kind ?? 'auto';
  const loan: AccountPlan = {
    key: 'loan',
    type: 'loan',
    subtype: loanKind,
    name: loanKind === 'auto' ? 'Auto Loan' : 'Student Loan',
    official: `${n} ${loanKind === 'auto' ? 'Auto Loan' : 'Student Loan'}`,
  };
  switch (p.profile) {
    case 'bank':
      return [checking, savings, credit, brokerage, crypto, loan];
    case 'credit_union':
      return [
        { ...checking, name: 'Share Draft Checking', official: `${n} Share Draft Checking` },
        { ...savings, name: 'Share Savings', official: `${n} Share Savings` },
        credit,
        { ...loan, subtype: 'auto', name: 'Auto Loan', official: `${n} Auto Loan` },
      ];
    case 'business':
      return [
        { ...checking, name: 'Business Checking', official: `${n} Business Checking` },
        { ...savings, name: 'Business Savings', official: `${n} Business Savings` },
        { ...credit, name: 'Business Card', official: `${n} Business Platinum Card` },
      ];
    case 'brokerage':
      return [brokerage, { key: 'cash', type: 'depository', subtype: 'cash management', name: 'Cash Management', official: `${n} Cash Management Account` }];
    case 'crypto_exchange':
      return [{ ...crypto, name: 'Crypto Wallet', official: `${n} Account` }];
    case 'crypto_wallet':
      return [{ key: 'crypto', type: 'crypto', subtype: 'wallet', name: 'Self-Custody Wallet', official: `${n} Address` }];
    case 'payment_app':
      return [{ key: 'cash', type: 'depository', subtype: 'paypal', name: `${n} Balance`, official: `${n} Balance` }];
  }
}

// ---------------------------------------------------------------------------------------------
// Event model
// ---------------------------------------------------------------------------------------------

interface Ev {
  acct: AccountKey;
  /** Authorization (or booking) day; the id derives from it. */
  day: number;
  /** Posting day, >= day. */
  post: number;
  /** Card authorization: has an authorized_datetime and is pending until `post`. */
  auth: boolean;
  time: string;
  name: string;
  /** Integer minor units, positive = money out of the account. */
  cents: number;
  currency: string;
  seq: number;
}

interface Ctx {
  p: Persona;
  accounts: Set<AccountKey>;
  events: Ev[];
  /** Card-account spending per month (origin month, home currency), for the statement payment. */
  cardByMonth: Map<number, number>;
  storeCache: Map<string, string>;
  tripCache: Map<number, Trip[]>;
  /** Ordinal within the day being generated. */
  seq: number;
}

const monthKey = (y: number, m: number) => y * 12 + (m - 1);

function toCents(x: number): number {
  return Math.round(x * 100);
}

/** An amount in [lo, hi], skewed towards lo, in cents. */
function drawCents(r: Rng, item: PoolItem, scale = 1): number {
  if (item.hi <= item.lo) return toCents(item.lo);
  return Math.max(1, toCents((item.lo + (item.hi - item.lo) * Math.pow(r.next(), 1.7)) * scale));
}

interface RenderVars {
  city?: string;
  mask?: string;
  peer?: string;
  ticker?: string;
}

function render(ctx: Ctx, r: Rng, template: string, dp: DayParts, vars: RenderVars = {}): string {
  const p = ctx.p;
  return template.replace(/\{([A-Z/]+)(\d*)\}/g, (whole, tag: string, num: string) => {
    const n = num ? Number(num) : 0;
    switch (tag) {
      case 'S': {
        const variant = r.int(0, 1);
        const key = `${template}|${n}|${variant}`;
        let v = ctx.storeCache.get(key);
        if (!v) {
          v = new Rng(`${p.seed}|store|${key}`).digits(n);
          ctx.storeCache.set(key, v);
        }
        return v;
      }
      case 'N': return r.digits(n);
      case 'C': return r.code(n);
      case 'CITY': return vars.city ?? p.homeCity;
      case 'MMDD': return `${pad2(dp.m)}${pad2(dp.d)}`;
      case 'MM/DD': return `${pad2(dp.m)}/${pad2(dp.d)}`;
      case 'YYMMDD': return `${String(dp.y).slice(2)}${pad2(dp.m)}${pad2(dp.d)}`;
      case 'EMP': return p.employer;
      case 'NAME': return p.personName;
      case 'LANDLORD': return p.landlord;
      case 'BANK': return p.bank;
      case 'MASK': return vars.mask ?? p.masks.checking;
      case 'PEER': return vars.peer ?? r.pick(p.pools.peers);
      case 'TICKER': return vars.ticker ?? p.tickers[0];
      default: return whole;
    }
  });
}

function timeOf(r: Rng): string {
  const h = r.pick([7, 8, 9, 10, 11, 12, 12, 13, 13, 14, 15, 16, 17, 18, 18, 19, 19, 20, 21, 22]);
  return `${pad2(h)}:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))}`;
}

/** Records an event; card-account activity also counts towards that month's statement unless `statement` is false (the payment itself). */
function emit(ctx: Ctx, e: Omit<Ev, 'seq'>, statement = true): void {
  if (!ctx.accounts.has(e.acct)) return;
  ctx.events.push({ acct: e.acct, day: e.day, post: e.post, auth: e.auth, time: e.time, name: e.name, cents: e.cents, currency: e.currency, seq: ctx.seq++ });
  if (statement && e.acct === 'credit' && e.cents !== 0) {
    const dp = partsOf(e.day);
    const key = monthKey(dp.y, dp.m);
    ctx.cardByMonth.set(key, (ctx.cardByMonth.get(key) ?? 0) + convertCents(e.cents, e.currency, ctx.p.currency));
  }
}

/** ACH / booked entry: no authorization, posts the same day. */
function ach(ctx: Ctx, acct: AccountKey, dp: DayParts, name: string, cents: number, statement = true): void {
  emit(ctx, { acct, day: dp.n, post: dp.n, auth: false, time: '', name, cents, currency: ctx.p.currency }, statement);
}

function cardAccount(ctx: Ctx, r: Rng): AccountKey {
  if (!ctx.accounts.has('credit')) return ctx.accounts.has('checking') ? 'checking' : 'cash';
  if (!ctx.accounts.has('checking')) return 'credit';
  return r.chance(ctx.p.debitShare) ? 'checking' : 'credit';
}

/** A card purchase: truncated like the bank prints it, wrapped in the debit format on checking. */
function cardPurchase(
  ctx: Ctx,
  r: Rng,
  dp: DayParts,
  item: PoolItem,
  opts: { acct?: AccountKey; cents?: number; lag?: number; city?: string; currency?: string; scale?: number; foreignCity?: string },
): void {
  const p = ctx.p;
  const acct = opts.acct ?? cardAccount(ctx, r);
  let merchant: string;
  if (opts.foreignCity) {
    // card networks carry the merchant name (cut to the bank's width) and the city in separate fields
    const bare = render(ctx, r, item.t.replace(/\s*\{CITY\}/, ''), dp).slice(0, p.truncLen).trimEnd();
    merchant = `${bare} ${opts.foreignCity}`;
  } else {
    merchant = render(ctx, r, item.t, dp, { city: opts.city });
    if (merchant.length > p.truncLen) merchant = merchant.slice(0, p.truncLen).trimEnd();
  }
  const name = acct === 'checking' ? render(ctx, r, p.debitFormat.replace('{M}', () => merchant.replace(/\{/g, '(')), dp, { mask: p.masks.checking }) : merchant;
  const cents = opts.cents ?? drawCents(r, item, opts.scale ?? 1);
  const currency = opts.currency ?? p.currency;
  const lag = opts.lag ?? 1;
  emit(ctx, { acct, day: dp.n, post: dp.n + lag, auth: true, time: timeOf(r), name, cents, currency });
  if (currency !== p.currency && p.fxFee) {
    const fee = Math.max(1, Math.round(convertCents(cents, currency, p.currency) * 0.03));
    emit(ctx, { acct, day: dp.n, post: dp.n + lag, auth: false, time: '', name: p.pools.text.fxFee, cents: fee, currency: p.currency });
  }
}

// ---------------------------------------------------------------------------------------------
// Trips
// ---------------------------------------------------------------------------------------------

function tripsOf(ctx: Ctx, year: number): Trip[] {
  let trips = ctx.tripCache.get(year);
  if (trips) return trips;
  const p = ctx.p;
  const r = new Rng(`${p.seed}|trips|${year}`);
  const count = r.chance(0.4) ? 3 : 2;
  const jan1 = daysFromCivil(year, 1, 1);
  trips = [];
  for (let i = 0; i < count; i++) {
    const foreign = i === 0; // one trip abroad a year: every login has foreign-currency spending
    const start = jan1 + Math.floor(((i + 0.1 + 0.6 * r.next()) * 360) / count);
    const length = foreign ? r.int(5, 9) : r.int(2, 4);
    const dest = foreign ? r.pick(FOREIGN_DESTINATIONS[p.region]) : null;
    const city = dest ? dest.city : r.pick(p.pools.cities.filter((c) => c !== p.homeCity));
    trips.push({
      start,
      end: start + length,
      flightDay: start - r.int(18, 60),
      city,
      currency: dest ? dest.currency : p.currency,
      region: dest ? dest.region : p.region,
      foreign,
      hotel: r.pick(p.pools.hotels),
      flight: r.pick(p.pools.flights),
      rentalCar: r.chance(0.4) ? r.pick(p.pools.rentalCars) : null,
    });
  }
  ctx.tripCache.set(year, trips);
  return trips;
}

function tripOn(ctx: Ctx, dp: DayParts): Trip | null {
  for (const y of [dp.y, dp.y - 1]) for (const t of tripsOf(ctx, y)) if (dp.n >= t.start && dp.n <= t.end) return t;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Daily streams
// ---------------------------------------------------------------------------------------------

function isPayday(p: Persona, dp: DayParts): boolean {
  switch (p.cadence) {
    case 'biweekly':
      return (((dp.n - p.biweeklyAnchor) % 14) + 14) % 14 === 0;
    case 'semimonthly':
      return dp.n === businessDay(dp.y, dp.m, 15) || dp.n === businessDay(dp.y, dp.m, dp.dim);
    case 'monthly':
      return dp.n === businessDay(dp.y, dp.m, Math.min(p.monthlyPayDay, dp.dim));
  }
}

/** A PRNG fixed for the whole month of `dp` (same draws on every day of that month). */
function monthly(p: Persona, tag: string, dp: DayParts): Rng {
  return new Rng(`${p.seed}|${tag}|${dp.y}-${dp.m}`);
}

const clampDay = (day: number, dp: DayParts) => Math.min(day, dp.dim);

function personalBankDay(ctx: Ctx, dp: DayParts, r: Rng): void {
  const p = ctx.p;
  const t = p.pools.text;
  const year = dp.y;
  const raise = Math.pow(1.03, year - 2024);

  // payroll (inflow on checking)
  if (isPayday(p, dp)) {
    const jitter = 1 + (r.next() - 0.5) * 0.03;
    ach(ctx, 'checking', dp, render(ctx, r, p.payrollTemplate, dp), -Math.round(p.payCents * raise * jitter));
  }

  // rent or mortgage
  if (dp.d === p.housingDay) {
    const lease = Math.pow(1.035, Math.floor((dp.n - daysFromCivil(2023, 8, 1)) / 365));
    ach(ctx, 'checking', dp, render(ctx, r, p.housingTemplate, dp), Math.round((p.housingCents * lease) / 100) * 100);
  }

  // utilities: seasonal drift month to month
  for (const bill of p.bills) {
    if (dp.d !== clampDay(bill.day, dp)) continue;
    const mr = monthly(p, `bill|${bill.item.t}`, dp);
    const season = 1 + bill.seasonal * Math.cos(((dp.m - 1) / 12) * 2 * Math.PI);
    const drift = bill.seasonal > 0 ? 1 + (mr.next() - 0.5) * 0.16 : 1;
    const cents = toCents(bill.base * season * drift + (dp.n >= bill.changeDay ? bill.bump : 0));
    if (bill.onCard && ctx.accounts.has('credit')) cardPurchase(ctx, r, dp, bill.item, { acct: 'credit', cents });
    else ach(ctx, 'checking', dp, render(ctx, r, bill.item.t, dp), cents);
  }

  // savings: monthly sweep from checking, an occasional move back
  if (dp.d === clampDay(p.savingsDay, dp)) {
    const mr = monthly(p, 'save', dp);
    if (mr.next() > 0.1) {
      const cents = Math.round((p.savingsCents * (0.5 + mr.next())) / 2500) * 2500;
      ach(ctx, 'checking', dp, render(ctx, r, t.toSavings, dp, { mask: p.masks.savings }), cents);
      ach(ctx, 'savings', dp, render(ctx, r, t.fromChecking, dp, { mask: p.masks.checking }), -cents);
    }
  }
  if (dp.d === clampDay(((p.savingsDay + 13) % 28) + 1, dp)) {
    const mr = monthly(p, 'unsave', dp);
    if (mr.next() < 0.12) {
      const cents = mr.int(4, 30) * 2500;
      ach(ctx, 'savings', dp, render(ctx, r, t.toChecking, dp, { mask: p.masks.checking }), cents);
      ach(ctx, 'checking', dp, render(ctx, r, t.fromSavings, dp, { mask: p.masks.savings }), -cents);
    }
  }
  if (dp.d === dp.dim && ctx.accounts.has('savings')) {
    const cents = Math.max(1, Math.round(((p.savingsBase * 100 * p.apy) / 12) * (1 + (dp.n - daysFromCivil(2023, 1, 1)) / 1500)));
    ach(ctx, 'savings', dp, t.interest, -cents);
  }

  // credit card statement: the previous month's card activity, paid in full
  if (dp.d === clampDay(p.cardPayDay, dp) && ctx.accounts.has('credit')) {
    const prev = monthKey(dp.y, dp.m) - 1;
    const due = ctx.cardByMonth.get(prev) ?? 0;
    if (due > 0) {
      ach(ctx, 'checking', dp, render(ctx, r, t.cardPaymentChecking, dp), due);
      ach(ctx, 'credit', dp, render(ctx, r, t.cardPaymentCard, dp), -due, false);
    }
  }

  // loan installment
  const loan = p.loan;
  if (loan && ctx.accounts.has('loan') && dp.d === clampDay(loan.day, dp) && dp.n >= loan.firstPayment) {
    const k = loanPaymentsBy(loan, dp.n);
    const before = loanBalance(loan, k - 1);
    if (k >= 1 && before > 0) {
      const cents = Math.min(loan.payment, before + Math.round(before * loan.monthlyRate));
      ach(ctx, 'checking', dp, render(ctx, r, t.loanPaymentChecking[loan.kind], dp, { mask: p.masks.loan }), cents);
      ach(ctx, 'loan', dp, t.loanPaymentLoan[loan.kind], -cents);
    }
  }

  // investing and crypto funding
  if (p.investCents > 0 && ctx.accounts.has('brokerage') && dp.d === clampDay(p.investDay, dp)) {
    ach(ctx, 'checking', dp, render(ctx, r, t.toBrokerage, dp, { mask: p.masks.brokerage }), p.investCents);
  }
  if (p.cryptoCents > 0 && ctx.accounts.has('crypto') && dp.d === clampDay(p.cryptoDay, dp) && monthly(p, 'crypto', dp).chance(0.55)) {
    ach(ctx, 'checking', dp, render(ctx, r, t.toCrypto, dp, { mask: p.masks.crypto }), p.cryptoCents);
  }

  // taxes once a year
  if (p.taxMode === 'refund' && t.taxRefund) {
    const yr = new Rng(`${p.seed}|tax|${year}`);
    if (dp.n === daysFromCivil(year, 3, 1) + yr.int(0, 45)) ach(ctx, 'checking', dp, render(ctx, r, t.taxRefund, dp), -yr.int(250, 3200) * 100 - yr.int(0, 99));
  } else if (p.taxMode === 'payment' && t.taxPayment && dp.n === businessDay(year, 4, 15)) {
    const yr = new Rng(`${p.seed}|tax|${year}`);
    ach(ctx, 'checking', dp, render(ctx, r, t.taxPayment, dp), yr.int(400, 4200) * 100);
  }

  // people, cash
  if (r.chance(0.05)) {
    const peer = r.pick(p.pools.peers);
    const cents = r.chance(0.7) ? r.int(1, 30) * 1000 : r.int(500, 25000);
    if (r.chance(0.6)) ach(ctx, 'checking', dp, render(ctx, r, t.p2pOut, dp, { peer }), cents);
    else ach(ctx, 'checking', dp, render(ctx, r, t.p2pIn, dp, { peer }), -cents);
  }
  if (r.chance(0.03)) {
    ach(ctx, 'checking', dp, render(ctx, r, t.atm, dp), r.pick([40, 60, 80, 100, 120, 200]) * 100);
    if (r.chance(0.35)) ach(ctx, 'checking', dp, t.atmFee, r.pick([250, 300, 350]));
  }
}

function businessLoginDay(ctx: Ctx, dp: DayParts, r: Rng): void {
  const p = ctx.p;
  const t = p.pools.text;
  const weekday = dp.dow >= 1 && dp.dow <= 5;
  // customer payouts
  if (weekday && r.chance(0.45)) {
    const name = r.pick(['STRIPE TRANSFER ST-{C12}', 'SQUARE INC DEPOSIT {N10}', 'SHOPIFY PAYOUT {N8}']);
    ach(ctx, 'checking', dp, render(ctx, r, name, dp), -r.int(300, 6500) * 100 - r.int(0, 99));
  }
  // payroll run through a provider
  if (dp.n === businessDay(dp.y, dp.m, 15) || dp.n === businessDay(dp.y, dp.m, dp.dim)) {
    ach(ctx, 'checking', dp, render(ctx, r, 'GUSTO PAY {N9} CCD ID: {N10}', dp), Math.round(p.payCents * 2.6 * (1 + (r.next() - 0.5) * 0.04)));
  }
  if (dp.d === 1) ach(ctx, 'checking', dp, render(ctx, r, p.region === 'US' ? 'WEWORK {N8}' : 'REGUS MANAGEMENT', dp), Math.round(p.housingCents * 0.9));
  for (const bill of p.bills) {
    if (dp.d !== clampDay(bill.day, dp)) continue;
    const season = 1 + bill.seasonal * Math.cos(((dp.m - 1) / 12) * 2 * Math.PI);
    ach(ctx, 'checking', dp, render(ctx, r, bill.item.t, dp), toCents(bill.base * season * 1.4));
  }
  if (dp.d === clampDay(p.savingsDay, dp) && monthly(p, 'save', dp).chance(0.8)) {
    const cents = p.savingsCents * 2;
    ach(ctx, 'checking', dp, render(ctx, r, t.toSavings, dp, { mask: p.masks.savings }), cents);
    ach(ctx, 'savings', dp, render(ctx, r, t.fromChecking, dp, { mask: p.masks.checking }), -cents);
  }
  if (dp.d === dp.dim) ach(ctx, 'savings', dp, t.interest, -Math.max(1, Math.round((p.savingsBase * 300 * p.apy) / 12)));
  if (dp.d === clampDay(p.cardPayDay, dp)) {
    const due = ctx.cardByMonth.get(monthKey(dp.y, dp.m) - 1) ?? 0;
    if (due > 0) {
      ach(ctx, 'checking', dp, render(ctx, r, t.cardPaymentChecking, dp), due);
      ach(ctx, 'credit', dp, render(ctx, r, t.cardPaymentCard, dp), -due, false);
    }
  }
  if (t.taxPayment && [1, 4, 6, 9].includes(dp.m) && dp.n === businessDay(dp.y, dp.m, 15)) {
    ach(ctx, 'checking', dp, render(ctx, r, t.taxPayment, dp), new Rng(`${p.seed}|esttax|${dp.y}-${dp.m}`).int(1500, 9000) * 100);
  }
}

function subscriptionsDay(ctx: Ctx, dp: DayParts, r: Rng): number {
  let count = 0;
  for (const plan of ctx.p.subs) {
    if (plan.sub.annual ? dp.m !== plan.month || dp.d !== plan.day : dp.d !== clampDay(plan.day, dp)) continue;
    const cents = toCents(plan.sub.price + (dp.n >= plan.changeDay ? plan.bump : 0));
    const item = { t: plan.sub.t, lo: plan.sub.price, hi: plan.sub.price };
    cardPurchase(ctx, r, dp, item, { acct: ctx.accounts.has('credit') ? 'credit' : ctx.accounts.has('checking') ? 'checking' : 'cash', cents });
    count++;
  }
  return count;
}

/** Relative weights of spending kinds on an ordinary day at home. */
function homeWeights(p: Persona, dp: DayParts): Array<[SpendKind, number]> {
  const weekend = dp.dow === 0 || dp.dow === 6;
  if (p.profile === 'business') {
    return [
      ['office', 10], ['shipping', 6], ['online', 8], ['restaurant', 8], ['coffee', 10], ['fastfood', 6], ['rideshare', 5], ['electronics', 2],
      ['parking', 3], ['fuel', 3],
    ];
  }
  return [
    ['groceries', weekend ? 18 : 12], ['superstore', 7], ['online', 9], ['restaurant', weekend ? 15 : 9], ['fastfood', 9],
    ['coffee', weekend ? 9 : 15], ['delivery', 6], ['bars', weekend ? 9 : 3], ['fuel', p.hasCar ? 7 : 0], ['rideshare', p.hasCar ? 3 : 8],
    ['transit', p.hasCar ? 2 : 7], ['parking', p.hasCar ? 3 : 0], ['pharmacy', 4], ['clothing', 2.5], ['electronics', 1], ['home', 2],
    ['beauty', 2], ['events', weekend ? 3 : 1], ['books', 1], ['pets', p.hasPet ? 2.5 : 0], ['convenience', 2.5], ['shipping', 0.7],
    ['fitness_dropin', 0.8],
  ];
}

const TRIP_WEIGHTS: Array<[SpendKind, number]> = [
  ['restaurant', 16], ['coffee', 12], ['fastfood', 8], ['bars', 7], ['rideshare', 9], ['transit', 6], ['groceries', 3], ['convenience', 3], ['pharmacy', 1],
];

const weightedKind = (r: Rng, weights: Array<[SpendKind, number]>): SpendKind => weightedPick(r, weights);

function spendDay(ctx: Ctx, dp: DayParts, r: Rng, otherCardEvents: number): void {
  const p = ctx.p;
  const trip = p.profile === 'payment_app' ? null : tripOn(ctx, dp);

  // travel bookings and stays
  if (p.profile !== 'payment_app') {
    for (const y of [dp.y, dp.y + 1]) {
      for (const tr of tripsOf(ctx, y)) {
        if (tr.flightDay === dp.n) {
          cardPurchase(ctx, r, dp, tr.flight, { acct: ctx.accounts.has('credit') ? 'credit' : undefined, scale: tr.foreign ? 1.6 : 1 });
          otherCardEvents++;
        }
      }
    }
  }
  if (trip && dp.n === trip.end) {
    const nights = trip.end - trip.start;
    const hotelPools = trip.foreign ? REGIONS[trip.region].hotels : p.pools.hotels;
    const hotel = trip.foreign ? hotelPools[Math.floor(r.next() * hotelPools.length)] : trip.hotel;
    const perNight = drawCents(r, hotel);
    cardPurchase(ctx, r, dp, hotel, { acct: ctx.accounts.has('credit') ? 'credit' : undefined, cents: perNight * nights, city: trip.city, currency: trip.currency, foreignCity: trip.foreign ? trip.city : undefined });
    otherCardEvents++;
    if (trip.rentalCar) {
      const car = trip.foreign ? REGIONS[trip.region].rentalCars[0] : trip.rentalCar;
      cardPurchase(ctx, r, dp, car, { cents: drawCents(r, car) * nights, city: trip.city, currency: trip.currency, foreignCity: trip.foreign ? trip.city : undefined });
      otherCardEvents++;
    }
  }

  // refunds: a return credited by a merchant, booked without an authorization
  if (r.chance(0.03)) {
    const kind = r.pick<SpendKind>(['online', 'online', 'clothing', 'superstore', 'electronics', 'home']);
    const item = r.pick(p.favorites[kind]);
    const acct = cardAccount(ctx, r);
    let name = render(ctx, r, item.t, dp);
    if (name.length > p.truncLen) name = name.slice(0, p.truncLen).trimEnd();
    emit(ctx, { acct, day: dp.n, post: dp.n, auth: false, time: '', name, cents: -drawCents(r, item), currency: p.currency });
  }

  // everyday card purchases: 2-4 a day, at least 2, so recent days always hold pending ones
  const base = r.chance(0.12) ? 4 : r.chance(0.5) ? 3 : 2;
  const count = Math.max(2, base - otherCardEvents);
  const weights = trip ? TRIP_WEIGHTS : homeWeights(p, dp);
  const pools = trip?.foreign ? REGIONS[trip.region] : p.pools;
  for (let i = 0; i < count; i++) {
    const kind = weightedKind(r, weights);
    const favorites = trip?.foreign ? pools.spend[kind] : p.favorites[kind];
    const item = !trip && r.chance(0.015) ? r.pick(pools.unlisted) : r.next() < 0.55 ? favorites[0] : r.pick(favorites);
    const lag = i === 0 ? 2 : i === 1 && r.chance(0.5) ? 2 : 1;
    cardPurchase(ctx, r, dp, item, {
      lag,
      scale: p.spendScale,
      city: trip ? trip.city : undefined,
      currency: trip ? trip.currency : undefined,
      foreignCity: trip?.foreign ? trip.city : undefined,
      acct: trip?.foreign && ctx.accounts.has('credit') ? 'credit' : undefined,
    });
  }
  if (trip && dp.n === trip.start + 1 && r.chance(0.7)) {
    const sights = trip.foreign ? REGIONS[trip.region].sights : p.pools.sights;
    cardPurchase(ctx, r, dp, r.pick(sights), { city: trip.city, currency: trip.currency, foreignCity: trip.foreign ? trip.city : undefined });
  }
}

function brokerageDay(ctx: Ctx, dp: DayParts, r: Rng): void {
  const p = ctx.p;
  if (dp.d === clampDay(p.investDay, dp)) ach(ctx, 'cash', dp, render(ctx, r, 'ELECTRONIC FUNDS TRANSFER FROM BANK ACCT XXXX{N4}', dp), -Math.max(p.investCents, 50000));
  if ([3, 6, 9, 12].includes(dp.m)) {
    p.tickers.forEach((ticker, i) => {
      if (dp.d === 10 + i * 3) ach(ctx, 'cash', dp, `DIVIDEND RECEIVED ${ticker}`, -Math.round(p.brokerageBase * (0.003 + 0.002 * new Rng(`${p.seed}|div|${ticker}|${dp.y}-${dp.m}`).next()) * 100 / p.tickers.length));
    });
  }
  if (dp.d === dp.dim) ach(ctx, 'cash', dp, 'INTEREST ON CASH BALANCE', -Math.max(1, Math.round(p.checkingBase * 100 * p.apy / 12)));
  if (dp.d === 20 && monthly(p, 'wd', dp).chance(0.1)) ach(ctx, 'cash', dp, render(ctx, r, 'ELECTRONIC FUNDS TRANSFER TO BANK ACCT XXXX{N4}', dp), r.int(5, 40) * 10000);
  if (dp.d === 1 && [1, 4, 7, 10].includes(dp.m)) ach(ctx, 'cash', dp, 'ADVISORY FEE QUARTERLY', Math.round(p.brokerageBase * 100 * 0.0025 / 4));
}

function cryptoDay(ctx: Ctx, dp: DayParts, r: Rng): void {
  const p = ctx.p;
  const wallet = p.profile === 'crypto_wallet';
  if (wallet) {
    if (r.chance(0.08)) ach(ctx, 'crypto', dp, render(ctx, r, 'RECEIVED FROM 0X{C8}', dp), -r.int(20, 2500) * 100);
    if (r.chance(0.06)) {
      ach(ctx, 'crypto', dp, render(ctx, r, 'SENT TO 0X{C8}', dp), r.int(10, 1500) * 100);
      ach(ctx, 'crypto', dp, 'NETWORK FEE', r.int(30, 900));
    }
    return;
  }
  if (dp.d === clampDay(p.cryptoDay, dp)) ach(ctx, 'crypto', dp, render(ctx, r, 'TRANSFER FROM BANK ACCT XXXX{N4}', dp), -Math.max(p.cryptoCents, 10000));
  if (r.chance(0.05)) ach(ctx, 'crypto', dp, render(ctx, r, 'TRANSFER TO BANK ACCT XXXX{N4}', dp), r.int(5, 60) * 1000);
  if (dp.d === 5) ach(ctx, 'crypto', dp, r.pick(['STAKING REWARD ETH', 'STAKING REWARD SOL', 'STAKING REWARD USDC']), -r.int(50, 4000));
  if (r.chance(0.04)) ach(ctx, 'crypto', dp, 'NETWORK FEE', r.int(50, 1500));
}

function paymentAppDay(ctx: Ctx, dp: DayParts, r: Rng): void {
  const p = ctx.p;
  if (r.chance(0.22)) {
    const peer = r.pick(p.pools.peers);
    const cents = r.chance(0.6) ? r.int(1, 15) * 500 : r.int(300, 15000);
    if (r.chance(0.5)) ach(ctx, 'cash', dp, `P2P PAYMENT TO ${peer}`, cents);
    else ach(ctx, 'cash', dp, `P2P PAYMENT FROM ${peer}`, -cents);
  }
  if (r.chance(0.3)) {
    const kind = r.pick<SpendKind>(['online', 'delivery', 'rideshare', 'events', 'clothing']);
    cardPurchase(ctx, r, dp, r.pick(p.favorites[kind]), { acct: 'cash', lag: 1 });
  }
  for (const plan of p.subs.slice(0, 2)) {
    if (!plan.sub.annual && dp.d === clampDay(plan.day, dp)) cardPurchase(ctx, r, dp, { t: plan.sub.t, lo: plan.sub.price, hi: plan.sub.price }, { acct: 'cash' });
  }
  if (dp.dow === 1 && r.chance(0.5)) ach(ctx, 'cash', dp, render(ctx, r, 'ADD FUNDS FROM BANK XXXX{N4}', dp), -r.int(5, 30) * 1000);
  if (dp.dow === 5 && r.chance(0.35)) ach(ctx, 'cash', dp, render(ctx, r, 'INSTANT TRANSFER TO BANK XXXX{N4}', dp), r.int(5, 40) * 1000);
}

function generateDay(ctx: Ctx, n: number): void {
  const dp = partsOf(n);
  const p = ctx.p;
  const r = new Rng(`${p.seed}|day|${dp.iso}`);
  ctx.seq = 0;
  switch (p.profile) {
    case 'bank':
    case 'credit_union': {
      personalBankDay(ctx, dp, r);
      const subs = subscriptionsDay(ctx, dp, r);
      spendDay(ctx, dp, r, subs);
      return;
    }
    case 'business': {
      businessLoginDay(ctx, dp, r);
      const subs = subscriptionsDay(ctx, dp, r);
      spendDay(ctx, dp, r, subs);
      return;
    }
    case 'brokerage':
      brokerageDay(ctx, dp, r);
      return;
    case 'crypto_exchange':
    case 'crypto_wallet':
      cryptoDay(ctx, dp, r);
      return;
    case 'payment_app':
      paymentAppDay(ctx, dp, r);
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

/**
 * 24 months of deterministic sandbox data for one login, ending `today` (YYYY-MM-DD, UTC).
 * Transactions are newest first; amounts are positive for money out, negative for money in.
 */
export function generateSandboxItem(login: SandboxLogin, today: string): SandboxItemData {
  const todayN = parseDate(today, 'today');
  const p = makePersona(login);
  const plans = accountPlans(p);
  const ctx: Ctx = {
    p,
    accounts: new Set(plans.map((a) => a.key)),
    events: [],
    cardByMonth: new Map(),
    storeCache: new Map(),
    tripCache: new Map(),
    seq: 0,
  };
  const windowStart = addMonths(todayN, -SANDBOX_HISTORY_MONTHS);
  // Generation starts earlier than the window so that the first statement payments in the window
  // see a complete previous month; each day depends only on itself, so this changes nothing else.
  const genStart = windowStart - 70;
  for (let n = genStart; n <= todayN; n++) generateDay(ctx, n);

  const accountId = (key: AccountKey) => `acct_${hashHex(`${p.seed}|account|${key}`, 24)}`;
  const transactions: RawTransaction[] = [];
  const sortKeys: number[] = [];
  const isoCache = new Map<number, string>();
  const isoOf = (n: number) => {
    let iso = isoCache.get(n);
    if (!iso) isoCache.set(n, (iso = partsOf(n).iso));
    return iso;
  };
  const pendingOut = new Map<AccountKey, number>();
  const netFlow = new Map<AccountKey, number>();
  for (const e of ctx.events) {
    const pending = e.auth && e.post > todayN;
    if (!pending && e.post > todayN) continue;
    const dateN = pending ? e.day : e.post;
    if (dateN < windowStart) continue;
    const dayIso = isoOf(e.day);
    if (pending && e.cents > 0) pendingOut.set(e.acct, (pendingOut.get(e.acct) ?? 0) + convertCents(e.cents, e.currency, p.currency));
    netFlow.set(e.acct, (netFlow.get(e.acct) ?? 0) + convertCents(e.cents, e.currency, p.currency));
    transactions.push({
      transaction_id: `txn_${hashHex(`${p.seed}|${e.acct}|${dayIso}|${e.seq}`, 24)}`,
      account_id: accountId(e.acct),
      date: pending ? dayIso : isoOf(dateN),
      authorized_datetime: e.auth ? `${dayIso}T${e.time}Z` : null,
      name: e.name,
      amount: e.cents / 100,
      iso_currency_code: e.currency,
      pending,
    });
    sortKeys.push(dateN * 1000 + e.seq);
  }
  // newest first; ties (same posted date and ordinal from different days) by id
  const order = transactions.map((_, i) => i);
  order.sort((a, b) => sortKeys[b] - sortKeys[a] || (transactions[a].transaction_id < transactions[b].transaction_id ? -1 : 1));

  const accounts = plans.map((plan) => buildAccount(ctx, plan, todayN, accountId(plan.key), pendingOut, netFlow));
  return { accounts, transactions: order.map((i) => transactions[i]) };
}

function buildAccount(
  ctx: Ctx,
  plan: AccountPlan,
  todayN: number,
  account_id: string,
  pendingOut: Map<AccountKey, number>,
  netFlow: Map<AccountKey, number>,
): SandboxAccount {
  const p = ctx.p;
  const day = partsOf(todayN);
  const wave = new Rng(`${p.seed}|balance|${plan.key}|${day.iso}`).next();
  const money = (cents: number) => Math.round(cents) / 100;
  let current: number;
  let available: number | null = null;
  let limit: number | null = null;
  switch (plan.key) {
    case 'checking': {
      const cents = p.checkingBase * 100 * (0.75 + 0.5 * wave);
      current = money(cents);
      available = money(Math.max(0, cents - (pendingOut.get('checking') ?? 0)));
      break;
    }
    case 'savings': {
      // opening balance plus everything that moved in or out over the window
      const cents = Math.max(p.savingsBase * 100, p.savingsBase * 100 - (netFlow.get('savings') ?? 0));
      current = money(cents);
      available = current;
      break;
    }
    case 'credit': {
      const thisMonth = ctx.cardByMonth.get(monthKey(day.y, day.m)) ?? 0;
      const lastMonth = day.d >= Math.min(p.cardPayDay, day.dim) ? 0 : (ctx.cardByMonth.get(monthKey(day.y, day.m) - 1) ?? 0);
      const owed = Math.max(0, thisMonth + lastMonth);
      limit = p.creditLimit;
      current = money(owed);
      available = money(Math.max(0, p.creditLimit * 100 - owed));
      break;
    }
    case 'loan': {
      const loan = p.loan!;
      current = money(loanBalance(loan, loanPaymentsBy(loan, todayN)));
      break;
    }
    case 'brokerage': {
      const growth = 1 + (todayN - daysFromCivil(2024, 1, 1)) * 0.00018 + (wave - 0.5) * 0.04;
      current = money(p.brokerageBase * 100 * Math.max(0.5, growth));
      break;
    }
    case 'crypto': {
      const swing = 0.6 + 0.8 * wave;
      current = money(p.cryptoBase * 100 * swing);
      break;
    }
    case 'cash': {
      const cents = Math.max(2500, p.checkingBase * 100 * (0.3 + 0.4 * wave) - (pendingOut.get('cash') ?? 0));
      current = money(cents);
      available = current;
      break;
    }
  }
  return {
    account_id,
    name: plan.name,
    official_name: plan.official,
    type: plan.type,
    subtype: plan.subtype,
    mask: p.masks[plan.key],
    balances: { current, available, limit, iso_currency_code: p.currency },
    verification_status: plan.type === 'depository' ? 'automatically_verified' : 'not_applicable',
  };
}
