import fc from 'fast-check';
import { ExcludedAccount } from '../../functions/contracts/product-schemas';
import { routeById } from '../../functions/contracts/routes';
import { computeAssets, reportingCurrency, type Account } from '../../functions/core/assets';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { sandboxInvestments } from '../../functions/core/sandbox/products';

const AT = '2026-07-01T12:00:00.000Z';
const TYPES = ['depository', 'investment', 'credit', 'loan', 'crypto'] as const;
const SUBTYPE: Record<(typeof TYPES)[number], string> = {
  depository: 'checking',
  investment: 'brokerage',
  credit: 'credit card',
  loan: 'student',
  crypto: 'crypto_exchange',
};
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD'];

function account(id: string, type: Account['type'], current: number, currency = 'USD'): Account {
  return {
    account_id: id,
    name: id,
    official_name: id,
    type,
    subtype: SUBTYPE[type],
    mask: '0000',
    balances: { current, available: null, limit: null, iso_currency_code: currency },
    verification_status: 'not_applicable',
  };
}

const cents = (x: number) => Math.round(x * 100);
const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
const isHeld = (a: Account) => a.type === 'investment' || a.type === 'crypto';

interface Spec {
  type: Account['type'];
  currency: string;
  /** balances.current in cents */
  balance: number;
  /** holdings value in cents, for investment and crypto accounts; null: none reported */
  holdings: number | null;
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  type: fc.constantFrom(...TYPES),
  currency: fc.constantFrom(...CURRENCIES),
  balance: fc.oneof(fc.integer({ min: -500_000, max: 50_000_000 }), fc.integer({ min: 0, max: 10_000 })),
  holdings: fc.option(fc.integer({ min: 0, max: 60_000_000 }), { nil: null }),
});

interface Item {
  accounts: Account[];
  holdings: Record<string, number>;
}

const itemArb: fc.Arbitrary<Item> = fc.array(specArb, { maxLength: 14 }).map((specs) => {
  const accounts = specs.map((s, i) => account(`acct_${i}`, s.type, s.balance / 100, s.currency));
  const holdings: Record<string, number> = {};
  specs.forEach((s, i) => {
    if (isHeld(accounts[i]) && s.holdings !== null) holdings[accounts[i].account_id] = s.holdings / 100;
  });
  return { accounts, holdings };
});

const currencyArb = fc.option(fc.constantFrom(...CURRENCIES), { nil: null });

/** The rules, written out in cents, over the accounts in `code`. */
function reference(item: Item, code: string) {
  const r = { depository: 0, investment: 0, crypto: 0, holdings: 0, credit: 0, loan: 0 };
  for (const a of item.accounts) {
    if (a.balances.iso_currency_code !== code) continue;
    const balance = cents(a.balances.current);
    const h = item.holdings[a.account_id];
    if (a.type === 'investment' || a.type === 'crypto') {
      r[a.type] += h === undefined ? balance : Math.max(balance, cents(h));
      if (h !== undefined) r.holdings += cents(h);
    } else r[a.type] += balance;
  }
  return { ...r, assets: r.depository + r.investment + r.crypto, liabilities: r.credit + r.loan };
}

const RUNS = { numRuns: 300 };

describe('assets: rule 1, one currency', () => {
  it('excludes exactly the accounts in another currency, and lists each of them', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, (item, currency) => {
        const out = computeAssets(item.accounts, item.holdings, currency, AT);
        const code = out.iso_currency_code;
        if (currency !== null) expect(code).toBe(currency);
        const excludedIds = out.excluded_accounts.map((e) => e.account_id);
        expect(excludedIds).toEqual(item.accounts.filter((a) => a.balances.iso_currency_code !== code).map((a) => a.account_id));
        expect(out.accounts.map((a) => a.account_id)).toEqual(item.accounts.filter((a) => a.balances.iso_currency_code === code).map((a) => a.account_id));
        for (const e of out.excluded_accounts) {
          expect(() => ExcludedAccount.parse(e)).not.toThrow();
          expect(e.iso_currency_code).not.toBe(code);
          expect(e.iso_currency_code).toBe(item.accounts.find((a) => a.account_id === e.account_id)!.balances.iso_currency_code);
        }
      }),
      RUNS,
    );
  });

  it('never lets an excluded account touch a total: changing its balance or holdings changes nothing', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, fc.integer({ min: -10_000_000, max: 10_000_000 }), (item, currency, delta) => {
        const before = computeAssets(item.accounts, item.holdings, currency, AT);
        const code = before.iso_currency_code;
        const holdings = { ...item.holdings };
        const changed = item.accounts.map((a) => {
          if (a.balances.iso_currency_code === code) return a;
          if (isHeld(a)) holdings[a.account_id] = Math.abs(delta) / 100;
          return { ...a, balances: { ...a.balances, current: (cents(a.balances.current) + delta) / 100 } };
        });
        const after = computeAssets(changed, holdings, code, AT);
        expect(after.summary).toEqual(before.summary);
        expect(after.breakdown).toEqual(before.breakdown);
      }),
      RUNS,
    );
  });

  it('never converts: the totals are the rules applied to the reporting currency alone', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, (item, currency) => {
        const out = computeAssets(item.accounts, item.holdings, currency, AT);
        const r = reference(item, out.iso_currency_code);
        expect(cents(out.total_assets)).toBe(r.assets);
        expect(cents(out.total_liabilities)).toBe(r.liabilities);
        expect(cents(out.breakdown.depository)).toBe(r.depository);
        expect(cents(out.breakdown.credit)).toBe(r.credit);
        expect(cents(out.breakdown.loan)).toBe(r.loan);
      }),
      RUNS,
    );
  });

  it('picks, when no currency is asked for, the one holding the largest absolute balance', () => {
    fc.assert(
      fc.property(itemArb, (item) => {
        const code = computeAssets(item.accounts, item.holdings, null, AT).iso_currency_code;
        expect(code).toBe(reportingCurrency(item.accounts));
        const weight = (c: string) => item.accounts.filter((a) => a.balances.iso_currency_code === c).reduce((s, a) => s + Math.abs(cents(a.balances.current)), 0);
        for (const c of CURRENCIES) expect(weight(code)).toBeGreaterThanOrEqual(weight(c));
      }),
      RUNS,
    );
  });
});

describe('assets: rules 2 and 3, balances first, invested value counted once', () => {
  it('counts each investment and crypto account exactly once, at the larger of balance and holdings', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, (item, currency) => {
        const out = computeAssets(item.accounts, item.holdings, currency, AT);
        const r = reference(item, out.iso_currency_code);
        expect(cents(out.breakdown.investment)).toBe(r.investment);
        expect(cents(out.breakdown.crypto)).toBe(r.crypto);
        expect(cents(out.total_assets)).toBe(cents(out.breakdown.depository) + cents(out.breakdown.investment) + cents(out.breakdown.crypto));
        // duplicating an account's holdings into the balance would count it twice: never happens
        const included = item.accounts.filter((a) => a.balances.iso_currency_code === out.iso_currency_code && isHeld(a));
        const counted = included.reduce((s, a) => s + Math.max(cents(a.balances.current), cents(item.holdings[a.account_id] ?? a.balances.current)), 0);
        expect(cents(out.breakdown.investment) + cents(out.breakdown.crypto)).toBe(counted);
      }),
      RUNS,
    );
  });

  it('keeps breakdown.holdings informational: holdings at or below the balance change no total', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, fc.double({ min: 0, max: 1, noNaN: true }), (item, currency, fraction) => {
        const none = computeAssets(item.accounts, {}, currency, AT);
        const below: Record<string, number> = {};
        // market values are never negative: accounts with a balance at or below zero report none here
        for (const a of item.accounts) if (isHeld(a) && a.balances.current > 0) below[a.account_id] = Math.floor(cents(a.balances.current) * fraction) / 100;
        const out = computeAssets(item.accounts, below, currency, AT);
        expect(out.summary).toEqual(none.summary);
        expect(out.total_assets).toBe(none.total_assets);
        const inCode = item.accounts.filter((a) => isHeld(a) && a.balances.iso_currency_code === out.iso_currency_code);
        expect(cents(out.breakdown.holdings)).toBe(inCode.reduce((s, a) => s + cents(below[a.account_id] ?? 0), 0));
      }),
      RUNS,
    );
  });

  it('reports breakdown.holdings as the sum of the included accounts\u2019 holdings values', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, (item, currency) => {
        const out = computeAssets(item.accounts, item.holdings, currency, AT);
        expect(cents(out.breakdown.holdings)).toBe(reference(item, out.iso_currency_code).holdings);
      }),
      RUNS,
    );
  });

  it('has net_worth = total_assets - total_liabilities to the cent, a summary that mirrors the totals, and two decimals at most', () => {
    fc.assert(
      fc.property(itemArb, currencyArb, (item, currency) => {
        const out = computeAssets(item.accounts, item.holdings, currency, AT);
        expect(cents(out.net_worth)).toBe(cents(out.total_assets) - cents(out.total_liabilities));
        expect(out.summary).toEqual({
          total_assets: out.total_assets,
          total_liabilities: out.total_liabilities,
          net_worth: out.net_worth,
          iso_currency_code: out.iso_currency_code,
        });
        expect(cents(out.total_liabilities)).toBe(cents(out.breakdown.credit) + cents(out.breakdown.loan));
        for (const x of [out.total_assets, out.total_liabilities, out.net_worth, ...Object.values(out.breakdown)]) {
          expect(Number.isFinite(x)).toBe(true);
          expect(decimals(x)).toBeLessThanOrEqual(2);
          expect(Object.is(x, -0)).toBe(false);
        }
        expect(out.generated_at).toBe(AT);
      }),
      RUNS,
    );
  });

  it('matches the route\u2019s response schema', () => {
    const schema = routeById('assets.get').response;
    fc.assert(
      fc.property(itemArb, currencyArb, (item, currency) => {
        expect(schema.safeParse(computeAssets(item.accounts, item.holdings, currency, AT)).success).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

describe('assets: hand examples', () => {
  const accounts = [
    account('checking', 'depository', 1000.1),
    account('savings_eur', 'depository', 500, 'EUR'),
    account('brokerage', 'investment', 10_000),
    account('crypto', 'crypto', 200),
    account('card', 'credit', 300.05),
    account('loan', 'loan', 5000),
  ];
  const holdings = { brokerage: 9500.5, crypto: 250.25 };

  it('adds balances, takes the larger of balance and holdings, and leaves the euro account out', () => {
    const out = computeAssets(accounts, holdings, null, AT);
    expect(out.iso_currency_code).toBe('USD');
    expect(out.total_assets).toBe(11_250.35); // 1000.10 + 10000 (balance > holdings) + 250.25 (holdings > balance)
    expect(out.total_liabilities).toBe(5300.05);
    expect(out.net_worth).toBe(5950.3);
    expect(out.breakdown).toEqual({ depository: 1000.1, investment: 10_000, crypto: 250.25, holdings: 9750.75, credit: 300.05, loan: 5000 });
    expect(out.excluded_accounts).toEqual([{ account_id: 'savings_eur', iso_currency_code: 'EUR', reason: 'currency_mismatch' }]);
    expect(out.accounts.map((a) => a.account_id)).toEqual(['checking', 'brokerage', 'crypto', 'card', 'loan']);
  });

  it('reports in the currency asked for, excluding the rest without converting', () => {
    const out = computeAssets(accounts, holdings, 'EUR', AT);
    expect(out.summary).toEqual({ total_assets: 500, total_liabilities: 0, net_worth: 500, iso_currency_code: 'EUR' });
    expect(out.excluded_accounts.map((e) => e.account_id)).toEqual(['checking', 'brokerage', 'crypto', 'card', 'loan']);
    expect(out.breakdown.holdings).toBe(0);
  });

  it('never adds holdings on top of an investment balance', () => {
    const out = computeAssets([account('b', 'investment', 1000)], { b: 1000 }, null, AT);
    expect(out.total_assets).toBe(1000);
    expect(out.breakdown.holdings).toBe(1000);
  });

  it('counts the balance alone when no holdings are reported', () => {
    expect(computeAssets([account('b', 'crypto', 42.42)], {}, null, AT).total_assets).toBe(42.42);
  });

  it('sums in cents, without floating-point drift', () => {
    const many = Array.from({ length: 10 }, (_, i) => account(`a${i}`, 'depository', 0.1));
    expect(computeAssets(many, {}, null, AT).total_assets).toBe(1);
  });

  it('answers an item with no accounts with zeros in the default currency', () => {
    const out = computeAssets([], {}, null, AT);
    expect(out.summary).toEqual({ total_assets: 0, total_liabilities: 0, net_worth: 0, iso_currency_code: 'USD' });
    expect(out.excluded_accounts).toEqual([]);
  });

  it('breaks a tie between currencies alphabetically', () => {
    expect(reportingCurrency([account('u', 'depository', 100, 'USD'), account('e', 'loan', 100, 'EUR')])).toBe('EUR');
  });
});

describe('assets over a sandbox item', () => {
  it('counts brokerage and crypto at their balances, which their holdings reconcile with', () => {
    const login = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
    const data = generateSandboxItem(login, '2026-07-01');
    const value: Record<string, number> = {};
    for (const h of sandboxInvestments(login, data, '2026-07-01').holdings) value[h.account_id] = (value[h.account_id] ?? 0) + h.value;
    const out = computeAssets(data.accounts, value, null, AT);
    const sum = (type: string) => data.accounts.filter((a) => a.type === type).reduce((s, a) => s + cents(a.balances.current), 0);
    expect(cents(out.breakdown.investment)).toBe(sum('investment'));
    expect(cents(out.breakdown.crypto)).toBe(sum('crypto'));
    expect(cents(out.breakdown.holdings)).toBe(sum('investment') + sum('crypto'));
    expect(cents(out.total_assets)).toBe(sum('depository') + sum('investment') + sum('crypto'));
    expect(cents(out.total_liabilities)).toBe(sum('credit') + sum('loan'));
    expect(out.excluded_accounts).toEqual([]);
  });
});
