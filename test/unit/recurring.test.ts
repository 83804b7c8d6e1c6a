// Recurring-stream detection on hand-built histories with known answers, plus one real sandbox
// history. Rules: docs/recurring-income.md.
import fc from 'fast-check';
import { enrich } from '../../functions/app/item-source';
import { Cadence, RecurringStream } from '../../functions/contracts/product-schemas';
import {
  descriptorKey,
  detectRecurring,
  detectStreams,
  kindOf,
  merchantKey,
  type RecurringStream as Stream,
} from '../../functions/core/recurring';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import type { StoredTransaction } from '../../functions/data/feed-repo';
import { CARD, CHECKING, SAVINGS, addDays, dow, fridayBefore, ids, lastDay, months, transactionBuilder, ymd } from '../support/histories';

const txn = transactionBuilder(CARD);

/** Moved on to Monday when on a weekend (card billing convention in these tests). */
const mondayAfter = (date: string) => (dow(date) === 6 ? addDays(date, 2) : dow(date) === 0 ? addDays(date, 1) : date);


/** Deterministic LCG in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function randomGroceries(start: string, days: number, seed: number): StoredTransaction[] {
  const r = lcg(seed);
  const out: StoredTransaction[] = [];
  for (let d = 0; d < days; d += 1 + Math.floor(r() * 4)) {
    const cents = 2000 + Math.floor(r() * 13000);
    out.push(txn(addDays(start, d), cents / 100, `WEGMANS #${100 + Math.floor(r() * 3)}`, { merchant: 'Wegmans', detailed: 'food_and_drink_groceries' }));
  }
  return out;
}

const only = (streams: Stream[]) => {
  expect(streams).toHaveLength(1);
  return streams[0];
};

// ---------------------------------------------------------------------------------------------
// Hand-built histories
// ---------------------------------------------------------------------------------------------

describe('detectRecurring: hand-built histories', () => {
  test('monthly Netflix with weekend shifts and one missed month: one subscription, exact next date', () => {
    // the 15th, moved to Monday when on a weekend (2025-03-15 Sat, 2025-06-15 Sun, 2025-11-15 Sat); May 2025 missed
    const charges = months(2025, 1, 13)
      .filter(([y, m]) => !(y === 2025 && m === 5))
      .map(([y, m]) => txn(mondayAfter(ymd(y, m, 15)), 15.49, 'NETFLIX.COM 866-579-7172 CA', { merchant: 'Netflix', detailed: 'entertainment_streaming' }));
    expect(charges.map((t) => t.date)).toContain('2025-03-17');
    expect(charges.map((t) => t.date)).toContain('2025-06-16');
    const noise = randomGroceries('2025-01-02', 380, 7);
    const s = only(detectRecurring([...noise, ...charges], '2026-01-20'));
    expect(s).toMatchObject({
      kind: 'subscription',
      direction: 'outflow',
      account_id: CARD,
      merchant_name: 'Netflix',
      description: 'NETFLIX.COM 866-579-7172 CA',
      category: 'entertainment',
      category_detailed: 'entertainment_streaming',
      cadence: 'monthly',
      average_amount: 15.49,
      last_amount: 15.49,
      iso_currency_code: 'USD',
      first_date: '2025-01-15',
      last_date: '2026-01-15',
      // 2026-02-15 is a Sunday: the history shows weekend charges moving to Monday
      predicted_next_date: '2026-02-16',
      is_active: true,
      // 11 intervals: 10 regular, 1 gap (half credit) -> 0.4 + 0.35 * 10.5 / 11 + 0.25
      confidence: 0.98,
    });
    expect(s.transaction_ids).toEqual(ids(charges));
    expect(s.stream_id).toMatch(/^rec_[0-9a-f]{20}$/);
  });

  test('biweekly payroll: one payroll stream, next date 14 days on', () => {
    const deposits = Array.from({ length: 13 }, (_, i) =>
      txn(addDays('2025-01-03', 14 * i), -2000, `PAYROLL ACME CORP PPD ID: ${9876000 + i}`, { account: CHECKING, detailed: 'income_wages' }),
    );
    const s = only(detectRecurring(deposits, '2025-06-25'));
    expect(s).toMatchObject({
      kind: 'payroll',
      direction: 'inflow',
      account_id: CHECKING,
      merchant_name: null,
      cadence: 'biweekly',
      average_amount: 2000,
      last_amount: 2000,
      first_date: '2025-01-03',
      last_date: '2025-06-20',
      predicted_next_date: '2025-07-04',
      is_active: true,
      confidence: 1,
    });
    expect(s.transaction_ids).toEqual(ids(deposits));
  });

  test('semi-monthly payroll on the 15th and the last day, moved back to Friday on weekends', () => {
    const deposits = months(2025, 1, 8).flatMap(([y, m]) => [ymd(y, m, 15), ymd(y, m, lastDay(y, m))]).slice(0, 15)
      .map((d) => txn(fridayBefore(d), -3000, 'GLOBEX INC DES:PAYROLL ID:123456789 INDN:JANE DOE CO ID:9876543210 PPD', { account: CHECKING, detailed: 'income_wages' }));
    expect(deposits.map((t) => t.date)).toEqual(expect.arrayContaining(['2025-02-14', '2025-05-30', '2025-06-13']));
    expect(deposits[deposits.length - 1].date).toBe('2025-08-15');
    const s = only(detectRecurring(deposits, '2025-08-20'));
    expect(s).toMatchObject({
      kind: 'payroll',
      cadence: 'semi_monthly',
      last_date: '2025-08-15',
      // next is the last day, 2025-08-31, a Sunday: paid the Friday before
      predicted_next_date: '2025-08-29',
      is_active: true,
      confidence: 1,
    });
    expect(s.transaction_ids).toEqual(ids(deposits));
  });

  test('semi-monthly on the 1st and 15th is not mistaken for biweekly', () => {
    const deposits = months(2025, 1, 6).flatMap(([y, m]) => [ymd(y, m, 1), ymd(y, m, 15)])
      .map((d) => txn(d, -1500, 'INITECH LLC DIRECT DEP', { account: CHECKING, detailed: 'income_wages' }));
    const s = only(detectRecurring(deposits, '2025-06-20'));
    expect(s.cadence).toBe('semi_monthly');
    expect(s.predicted_next_date).toBe('2025-07-01');
  });

  test('utilities drifting by up to 15% month to month stay one monthly bill', () => {
    const amounts = [100, 115, 92, 85, 108, 112, 95, 88, 104, 115];
    const bills = months(2024, 9, 10).map(([y, m], i) =>
      txn(ymd(y, m, 20), amounts[i], 'PUGET SOUND ENERGY BILLPAY', { account: CHECKING, merchant: 'Puget Sound Energy', detailed: 'rent_and_utilities_gas_and_electricity' }),
    );
    const s = only(detectRecurring(bills, '2025-06-25'));
    expect(s).toMatchObject({ kind: 'bill', cadence: 'monthly', average_amount: 101.4, last_amount: 115, last_date: '2025-06-20', predicted_next_date: '2025-07-20' });
    expect(s.transaction_ids).toEqual(ids(bills));
    expect(s.confidence).toBeGreaterThan(0.8);
    expect(s.confidence).toBeLessThan(1);
  });

  test('amounts that are not consistent (a 25% limit for non-utility bills) give no stream', () => {
    const amounts = [100, 180, 60, 150, 70, 200];
    const txns = months(2025, 1, 6).map(([y, m], i) => txn(ymd(y, m, 3), amounts[i], 'GEICO *AUTO', { merchant: 'GEICO', detailed: 'services_and_government_insurance' }));
    expect(detectRecurring(txns, '2025-06-10')).toEqual([]);
  });

  test('annual subscription: two charges a year apart', () => {
    const charges = [
      txn('2024-03-10', 139, 'AMAZON PRIME*K2J3L4', { merchant: 'Amazon Prime', detailed: 'shopping_online_marketplaces' }),
      txn('2025-03-10', 139, 'AMAZON PRIME*Q8W7E6', { merchant: 'Amazon Prime', detailed: 'shopping_online_marketplaces' }),
    ];
    const s = only(detectRecurring(charges, '2025-06-01'));
    // not a subscription category (online marketplaces): the PRIME descriptor word decides
    expect(s).toMatchObject({ kind: 'subscription', cadence: 'annual', average_amount: 139, predicted_next_date: '2026-03-10', is_active: true });
    expect(s.transaction_ids).toEqual(ids(charges));
  });

  test('two ordinary purchases a year apart are not an annual stream', () => {
    const txns = [
      txn('2024-05-02', 43.0, 'OLD NAVY US 6542', { merchant: 'Old Navy', detailed: 'shopping_clothing' }),
      txn('2025-05-04', 43.07, 'OLD NAVY US 6542', { merchant: 'Old Navy', detailed: 'shopping_clothing' }),
    ];
    expect(detectRecurring(txns, '2025-06-01')).toEqual([]);
  });

  test('weekly class', () => {
    const classes = Array.from({ length: 10 }, (_, i) =>
      txn(addDays('2025-03-04', 7 * i), 20, 'SQ *RISE YOGA STUDIO', { merchant: 'Rise Yoga Studio', detailed: 'health_and_personal_care_fitness' }),
    );
    const s = only(detectRecurring(classes, '2025-05-08'));
    expect(s).toMatchObject({ kind: 'subscription', cadence: 'weekly', last_date: '2025-05-06', predicted_next_date: '2025-05-13', is_active: true });
  });

  test('quarterly insurance premium, weekend dates kept as they are', () => {
    const dates = ['2024-01-05', '2024-04-05', '2024-07-05', '2024-10-05', '2025-01-05'];
    const premiums = dates.map((d) => txn(d, 310, 'STATE FARM RO 27 SFPP', { account: CHECKING, merchant: 'State Farm', detailed: 'services_and_government_insurance' }));
    const s = only(detectRecurring(premiums, '2025-02-01'));
    // 2025-04-05 is a Saturday, but 2024-10-05 (a Saturday) was charged on the day: no shift
    expect(s).toMatchObject({ kind: 'bill', cadence: 'quarterly', average_amount: 310, predicted_next_date: '2025-04-05', is_active: true });
    expect(s.transaction_ids).toEqual(ids(premiums));
  });

  test('a one-off purchase and random groceries give no stream', () => {
    const txns = [
      ...randomGroceries('2025-01-01', 200, 42),
      ...randomGroceries('2025-01-01', 200, 43).map((t) => ({ ...t, account_id: CHECKING, merchant_name: 'Safeway', name: 'SAFEWAY #1234' })),
      txn('2025-03-14', 499.99, 'BEST BUY 00012345', { merchant: 'Best Buy', detailed: 'shopping_electronics' }),
    ];
    expect(txns.length).toBeGreaterThan(150);
    expect(detectRecurring(txns, '2025-07-20')).toEqual([]);
  });

  test('a cancelled subscription (last charge four months ago) is inactive', () => {
    const charges = months(2024, 6, 9).map(([y, m]) => txn(ymd(y, m, 3), 11.99, 'Spotify USA', { merchant: 'Spotify', detailed: 'entertainment_streaming' }));
    const s = only(detectRecurring(charges, '2025-06-10'));
    expect(s).toMatchObject({ last_date: '2025-02-03', predicted_next_date: '2025-03-03', is_active: false });
    // still active up to half a period plus a week after the expected date
    expect(only(detectRecurring(charges, '2025-03-25')).is_active).toBe(true);
    expect(only(detectRecurring(charges, '2025-03-26')).is_active).toBe(false);
  });

  test('pending rows are ignored', () => {
    const posted = months(2025, 1, 5).map(([y, m]) => txn(ymd(y, m, 8), 9.99, 'HULU 877-8244858 CA', { merchant: 'Hulu', detailed: 'entertainment_streaming' }));
    const pending = txn('2025-06-08', 9.99, 'HULU 877-8244858 CA', { merchant: 'Hulu', detailed: 'entertainment_streaming', pending: true });
    const pendingOnly = [1, 2, 3, 4].map((m) => txn(ymd(2025, m, 20), 5, 'DROPBOX*ABCDEFGH', { merchant: 'Dropbox', detailed: 'services_and_government_software', pending: true }));
    const s = only(detectRecurring([...posted, pending, ...pendingOnly], '2025-06-09'));
    expect(s.transaction_ids).toEqual(ids(posted));
    expect(s.last_date).toBe('2025-05-08');
  });

  test('a subscription among one-off purchases at the same merchant keeps only the subscription charges', () => {
    const plan = months(2024, 7, 12).map(([y, m]) => txn(ymd(y, m, 12), 14.95, 'AUDIBLE*K2J3L4', { merchant: 'Audible', detailed: 'shopping_books_and_news' }));
    const books = [
      ['2024-07-30', 9.99], ['2024-09-02', 21.5], ['2024-11-19', 7.49], ['2024-12-24', 18.0], ['2025-02-03', 12.99], ['2025-04-27', 24.95],
    ].map(([d, a]) => txn(d as string, a as number, 'AUDIBLE*Q1W2E3', { merchant: 'Audible', detailed: 'shopping_books_and_news' }));
    const s = only(detectRecurring([...plan, ...books], '2025-07-01'));
    expect(s).toMatchObject({ kind: 'subscription', cadence: 'monthly', average_amount: 14.95 });
    expect(s.transaction_ids).toEqual(ids(plan));
  });

  test('an annual renewal among warehouse purchases at the same merchant is found by its descriptor', () => {
    const renewal = [
      txn('2024-11-06', 65, 'COSTCO *ANNUAL RENEWAL', { merchant: 'Costco', detailed: 'shopping_superstores' }),
      txn('2025-11-06', 65, 'COSTCO *ANNUAL RENEWAL', { merchant: 'Costco', detailed: 'shopping_superstores' }),
    ];
    const shopping = randomGroceries('2024-10-01', 420, 5)
      .filter((_, i) => i % 6 === 0)
      .map((t) => ({ ...t, merchant_name: 'Costco', name: 'COSTCO WHSE #0123', category: 'shopping', category_detailed: 'shopping_superstores' }));
    const s = only(detectRecurring([...shopping, ...renewal], '2025-12-01'));
    expect(s).toMatchObject({ kind: 'subscription', cadence: 'annual', predicted_next_date: '2026-11-06' });
    expect(s.transaction_ids).toEqual(ids(renewal));
  });

  test('a price change keeps one stream: both runs consistent, last amount the new price', () => {
    const bills = months(2024, 7, 12).map(([y, m], i) =>
      txn(ymd(y, m, 18), i < 6 ? 13.71 : 23.71, 'GIFFGAFF', { merchant: 'giffgaff', detailed: 'rent_and_utilities_phone' }),
    );
    const s = only(detectRecurring(bills, '2025-07-01'));
    expect(s).toMatchObject({ kind: 'bill', cadence: 'monthly', average_amount: 18.71, last_amount: 23.71, predicted_next_date: '2025-07-18' });
    expect(s.transaction_ids).toEqual(ids(bills));
    // 0.4 + 0.35 + 0.25 * 0.9: a price change costs a tenth of the amount part
    expect(s.confidence).toBe(0.98);
  });

  test('the first charge at a new price is kept with a subscription found among one-off purchases', () => {
    const plan = months(2024, 7, 12).map(([y, m], i) => txn(ymd(y, m, 2), i < 11 ? 14.95 : 17.95, 'AUDIBLE*K2J3L4', { merchant: 'Audible', detailed: 'shopping_books_and_news' }));
    const books = [['2024-08-20', 9.82], ['2024-12-01', 11.5], ['2025-03-15', 24.0], ['2025-05-09', 6.99]]
      .map(([d, a]) => txn(d as string, a as number, 'AUDIBLE*Q1W2E3', { merchant: 'Audible', detailed: 'shopping_books_and_news' }));
    const s = only(detectRecurring([...plan, ...books], '2025-06-20'));
    expect(s.transaction_ids).toEqual(ids(plan));
    expect(s).toMatchObject({ last_amount: 17.95, is_active: true, predicted_next_date: '2025-07-02' });
  });

  test('three visits to a shop a month apart are not a stream; a fixed monthly charge there is', () => {
    const visits = [['2025-01-07', 12.73], ['2025-02-02', 13.37], ['2025-03-01', 13.9]]
      .map(([d, a]) => txn(d as string, a as number, 'UBER *TRIP 7TSRLF', { merchant: 'Uber', detailed: 'transportation_rideshare' }));
    expect(detectRecurring(visits, '2025-03-10')).toEqual([]);
    const permit = months(2025, 1, 4).map(([y, m]) => txn(ymd(y, m, 1), 120, 'LAZ PARKING 123456', { merchant: 'LAZ Parking', detailed: 'transportation_parking' }));
    expect(only(detectRecurring(permit, '2025-04-10'))).toMatchObject({ kind: 'other', cadence: 'monthly', average_amount: 120 });
  });

  test('transfers between own accounts are streams of kind other', () => {
    const sweeps = months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 2), 250, `ONLINE TRANSFER TO SAV XXXXXX5242 REF #IB0${y}${m}X`, { account: CHECKING, detailed: 'transfer_out_savings' }));
    const s = only(detectRecurring(sweeps, '2025-06-10'));
    expect(s).toMatchObject({ kind: 'other', direction: 'outflow', merchant_name: null, cadence: 'monthly' });
  });

  test('streams are sorted by kind, then average amount descending', () => {
    const mk = (name: string, merchant: string, detailed: string, amount: number, day: number, account = CARD) =>
      months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, day), amount, name, { merchant, detailed, account }));
    const txns = [
      ...mk('Spotify USA', 'Spotify', 'entertainment_streaming', 11.99, 5),
      ...mk('NETFLIX.COM', 'Netflix', 'entertainment_streaming', 15.49, 9),
      ...mk('BILT RENT 466188', 'Bilt Rewards', 'rent_and_utilities_rent', 1800, 1, CHECKING),
      ...mk('VERIZON FIOS', 'Verizon Fios', 'rent_and_utilities_internet_and_cable', 84.99, 18),
      ...mk('ACME CORP DIRECT DEP', 'Acme Corp', 'income_wages', -4000, 28, CHECKING),
      ...mk('ONLINE TRANSFER TO BROKERAGE XXXXXX2684', 'Brokerage', 'transfer_out_investment', 500, 23, CHECKING),
    ];
    const streams = detectRecurring(txns, '2025-06-30');
    expect(streams.map((s) => [s.kind, s.merchant_name])).toEqual([
      ['subscription', 'Netflix'],
      ['subscription', 'Spotify'],
      ['bill', 'Bilt Rewards'],
      ['bill', 'Verizon Fios'],
      ['payroll', 'Acme Corp'],
      ['other', 'Brokerage'],
    ]);
  });

  test('each transaction is in at most one stream, and every output parses with the schema', () => {
    const txns = [
      ...months(2024, 1, 18).map(([y, m]) => txn(ymd(y, m, 15), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming' })),
      ...Array.from({ length: 30 }, (_, i) => txn(addDays('2024-01-05', 14 * i), -2500, 'PAYROLL ACME CORP', { account: CHECKING, detailed: 'income_wages' })),
      ...randomGroceries('2024-01-01', 500, 11),
    ];
    const streams = detectRecurring(txns, '2025-07-01');
    expect(streams).toHaveLength(2);
    const seen = new Set<string>();
    for (const s of streams) {
      expect(RecurringStream.parse(s)).toEqual(s);
      expect(Cadence.options).toContain(s.cadence);
      for (const id of s.transaction_ids) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
  });
});

describe('detectRecurring: determinism and input handling', () => {
  const history = () => {
    // A fresh builder per call: the same ids every time.
    const txn = transactionBuilder(CARD);
    return [
      ...months(2024, 1, 18).map(([y, m]) => txn(mondayAfter(ymd(y, m, 15)), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming' })),
      ...Array.from({ length: 30 }, (_, i) => txn(addDays('2024-01-05', 14 * i), -2500, 'PAYROLL ACME CORP', { account: CHECKING, detailed: 'income_wages' })),
      ...months(2024, 1, 18).map(([y, m]) => txn(ymd(y, m, 28), 95 + ((m * 7) % 13), 'CITY LIGHT', { account: CHECKING, merchant: 'City Light', detailed: 'rent_and_utilities_gas_and_electricity' })),
      ...months(2024, 1, 18).map(([y, m]) => txn(ymd(y, m, 1), -42.17 - m / 100, 'INTEREST PAYMENT', { account: SAVINGS, detailed: 'income_interest' })),
      ...randomGroceries('2024-01-01', 540, 3),
    ];
  };

  test('same input, same output; the order of the input does not matter', () => {
    const txns = history();
    const a = detectRecurring(txns, '2025-07-01');
    expect(a).toHaveLength(4);
    expect(detectRecurring(txns, '2025-07-01')).toEqual(a);
    fc.assert(
      fc.property(fc.shuffledSubarray(txns, { minLength: txns.length, maxLength: txns.length }), (shuffled) => {
        expect(detectRecurring(shuffled, '2025-07-01')).toEqual(a);
      }),
      { numRuns: 25, seed: 20260701 },
    );
  });

  test('stream ids are stable as history grows and depend on account, direction and merchant', () => {
    const txns = history();
    const before = detectRecurring(txns.filter((t) => t.date < '2025-01-01'), '2025-01-01');
    const after = detectRecurring(txns, '2025-07-01');
    const idOf = (streams: Stream[], merchant: string | null, kind: string) => streams.find((s) => s.merchant_name === merchant && s.kind === kind)?.stream_id;
    expect(idOf(before, 'Netflix', 'subscription')).toBeDefined();
    expect(idOf(before, 'Netflix', 'subscription')).toBe(idOf(after, 'Netflix', 'subscription'));
    expect(idOf(before, null, 'payroll')).toBe(idOf(after, null, 'payroll'));
    expect(new Set(after.map((s) => s.stream_id)).size).toBe(after.length);
  });

  test('rejects a malformed today', () => {
    expect(() => detectRecurring([], '2025-13-01')).toThrow(RangeError);
    expect(() => detectRecurring([], 'yesterday')).toThrow(RangeError);
    expect(detectRecurring([], '2025-07-01')).toEqual([]);
  });

  test('merchant keys: merchant name when present, else the descriptor without digits, masks and references', () => {
    expect(merchantKey({ merchant_name: 'Netflix ', name: 'NETFLIX.COM 866-579-7172' })).toBe('m:netflix');
    expect(descriptorKey('ONLINE TRANSFER TO SAV XXXXXX5242 REF #IBJLSYZVQ')).toBe('ONLINE TRANSFER TO SAV');
    expect(descriptorKey('CHECKCARD 0612 SQ *LITTLE WREN 355965485898068')).toBe('CHECKCARD SQ LITTLE WREN');
    expect(descriptorKey('PAYROLL ACME CORP PPD ID: 9876')).toBe('PAYROLL ACME CORP PPD');
    expect(merchantKey({ merchant_name: null, name: '0042 1234' })).toBe('');
  });

  test('kinds follow the taxonomy', () => {
    expect(kindOf('inflow', 'income_wages', 'ANYTHING')).toBe('payroll');
    expect(kindOf('inflow', null, 'ACME DIRECT DEP')).toBe('payroll');
    expect(kindOf('inflow', 'transfer_in_account_transfer', 'PAYROLL TRANSFER')).toBe('other');
    expect(kindOf('outflow', 'services_and_government_software', 'DROPBOX')).toBe('subscription');
    expect(kindOf('outflow', 'health_and_personal_care_fitness', 'PLANET FITNESS')).toBe('subscription');
    expect(kindOf('outflow', 'rent_and_utilities_rent', 'RENT')).toBe('bill');
    expect(kindOf('outflow', 'loan_payments_auto_loan', 'AUTO LN PMT')).toBe('bill');
    expect(kindOf('outflow', 'services_and_government_insurance', 'GEICO')).toBe('bill');
    expect(kindOf('outflow', 'shopping_superstores', 'COSTCO *ANNUAL RENEWAL')).toBe('subscription');
    expect(kindOf('outflow', 'transfer_out_investment', 'TRANSFER TO BROKERAGE')).toBe('other');
  });

  test('detectStreams exposes the same streams with their transactions', () => {
    const txns = history();
    const streams = detectStreams(txns, '2025-07-01');
    expect(streams.map((s) => `rec_${s.hash}`).sort()).toEqual(detectRecurring(txns, '2025-07-01').map((s) => s.stream_id).sort());
  });
});

// ---------------------------------------------------------------------------------------------
// A real sandbox history
// ---------------------------------------------------------------------------------------------

describe('detectRecurring: sandbox history', () => {
  const TODAY = '2026-07-01';
  const data = generateSandboxItem({ institutionId: 'ins_sandbox_first_bank', username: 'user_good' }, TODAY);
  const txns = data.transactions.map(enrich);
  const streams = detectRecurring(txns, TODAY);

  test('finds payroll, rent and at least three subscriptions, all active', () => {
    const payroll = streams.filter((s) => s.kind === 'payroll');
    expect(payroll).toHaveLength(1);
    const rent = streams.filter((s) => s.category_detailed === 'rent_and_utilities_rent');
    expect(rent).toHaveLength(1);
    expect(rent[0]).toMatchObject({ kind: 'bill', cadence: 'monthly', direction: 'outflow' });
    const subscriptions = streams.filter((s) => s.kind === 'subscription');
    expect(subscriptions.length).toBeGreaterThanOrEqual(3);
    for (const s of [...payroll, ...rent, ...subscriptions]) expect(s.is_active).toBe(true);
    for (const s of streams) expect(RecurringStream.parse(s)).toEqual(s);
  });

  test("the payroll stream's transactions are exactly the payroll deposits", () => {
    const payroll = streams.find((s) => s.kind === 'payroll')!;
    const deposits = txns.filter((t) => t.category_detailed === 'income_wages' && t.amount < 0 && !t.pending);
    expect(deposits.length).toBeGreaterThan(40);
    expect([...payroll.transaction_ids].sort()).toEqual(ids(deposits).sort());
    expect(['biweekly', 'semi_monthly']).toContain(payroll.cadence);
    expect(payroll.confidence).toBeGreaterThanOrEqual(0.95);
  });

  test('no everyday spending merchant becomes a stream', () => {
    const everyday = /^(food_and_drink|transportation_(rideshare|public_transit|fuel)|shopping_(clothing|superstores|pets|convenience))/;
    expect(streams.filter((s) => everyday.test(s.category_detailed ?? ''))).toEqual([]);
  });
});
