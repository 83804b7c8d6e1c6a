import { Account } from '../../functions/contracts/schemas';
import { generateSandboxItem, type RawTransaction, type SandboxItemData } from '../../functions/core/sandbox/generator';

const BANK = 'ins_sandbox_first_bank';
const TODAY = '2026-07-01';
const NEXT_DAY = '2026-07-02';

const byKey = new Map<string, SandboxItemData>();
function item(username: string, today = TODAY, institutionId = BANK): SandboxItemData {
  const key = `${institutionId}|${username}|${today}`;
  let data = byKey.get(key);
  if (!data) byKey.set(key, (data = generateSandboxItem({ institutionId, username }, today)));
  return data;
}

function account(data: SandboxItemData, subtype: string) {
  const a = data.accounts.find((x) => x.subtype === subtype);
  if (!a) throw new Error(`no ${subtype} account`);
  return a;
}

const txnsOf = (data: SandboxItemData, accountId: string) => data.transactions.filter((t) => t.account_id === accountId);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('sandbox generator', () => {
  test('the same login and day give identical output', () => {
    const a = generateSandboxItem({ institutionId: BANK, username: 'user_good' }, TODAY);
    const b = generateSandboxItem({ institutionId: BANK, username: 'user_good' }, TODAY);
    expect(a).toEqual(b);
  });

  test('different usernames give different data', () => {
    const a = item('user_good');
    const b = item('alice');
    expect(a.accounts.map((x) => x.account_id)).not.toEqual(b.accounts.map((x) => x.account_id));
    expect(a.accounts.map((x) => x.mask)).not.toEqual(b.accounts.map((x) => x.mask));
    const ids = new Set(a.transactions.map((t) => t.transaction_id));
    expect(b.transactions.some((t) => ids.has(t.transaction_id))).toBe(false);
    const sig = (d: SandboxItemData) => d.transactions.slice(0, 60).map((t) => `${t.name}|${t.amount}`).join('\n');
    expect(sig(a)).not.toEqual(sig(b));
  });

  test('transaction ids stay the same on the next day for every transaction in both windows', () => {
    const earlier = item('user_good', TODAY);
    const later = item('user_good', NEXT_DAY);
    const laterById = new Map(later.transactions.map((t) => [t.transaction_id, t]));
    const laterWindowStart = '2024-07-02';
    const carried = earlier.transactions.filter((t) => !t.pending && t.date >= laterWindowStart);
    expect(carried.length).toBeGreaterThan(1000);
    for (const t of carried) expect(laterById.get(t.transaction_id)).toEqual(t);
    // a pending transaction keeps its id once it posts
    for (const t of earlier.transactions.filter((x) => x.pending)) {
      const next = laterById.get(t.transaction_id);
      expect(next).toBeDefined();
      expect(next!.name).toBe(t.name);
      expect(next!.amount).toBe(t.amount);
      expect(next!.date >= t.date).toBe(true);
    }
  });

  test('ids also carry across a month end', () => {
    const earlier = item('bob', '2026-02-28');
    const later = item('bob', '2026-03-01');
    const laterIds = new Set(later.transactions.map((t) => t.transaction_id));
    const carried = earlier.transactions.filter((t) => !t.pending && t.date >= '2024-03-01');
    expect(carried.every((t) => laterIds.has(t.transaction_id))).toBe(true);
  });

  test('history spans 24 months ending today', () => {
    const dates = item('user_good').transactions.map((t) => t.date).sort();
    expect(dates[0] >= '2024-07-01').toBe(true);
    expect(dates[0] <= '2024-07-05').toBe(true);
    expect(dates[dates.length - 1] <= TODAY).toBe(true);
    expect(dates[dates.length - 1] >= addDays(TODAY, -1)).toBe(true);
  });

  test('a bank login has checking, savings, a credit card, a brokerage, a crypto account and a loan in the institution currency', () => {
    const data = item('user_good');
    const kinds = data.accounts.map((a) => `${a.type}/${a.subtype}`);
    expect(kinds).toEqual(
      expect.arrayContaining(['depository/checking', 'depository/savings', 'credit/credit card', 'investment/brokerage']),
    );
    expect(data.accounts.some((a) => a.type === 'crypto')).toBe(true);
    expect(data.accounts.some((a) => a.type === 'loan' && (a.subtype === 'auto' || a.subtype === 'student'))).toBe(true);
    expect(new Set(data.accounts.map((a) => a.balances.iso_currency_code))).toEqual(new Set(['USD']));
    expect(data.transactions.length).toBeGreaterThanOrEqual(1500);
    expect(data.transactions.length).toBeLessThanOrEqual(3000);
  });

  test('non-bank institutions get the plausible subset of accounts', () => {
    const kinds = (inst: string) => item('user_good', TODAY, inst).accounts.map((a) => `${a.type}/${a.subtype}`).sort();
    expect(kinds('ins_sandbox_brokerage')).toEqual(['depository/cash management', 'investment/brokerage']);
    expect(kinds('ins_sandbox_crypto_exchange')).toEqual(['crypto/crypto_exchange']);
    expect(kinds('ins_sandbox_pay')).toEqual(['depository/paypal']);
    expect(item('user_good', TODAY, 'ins_sandbox_thames_bank').accounts[0].balances.iso_currency_code).toBe('GBP');
    expect(item('user_good', TODAY, 'ins_sandbox_rhein_bank').accounts[0].balances.iso_currency_code).toBe('EUR');
    expect(item('user_good', TODAY, 'ins_sandbox_maple_bank').accounts[0].balances.iso_currency_code).toBe('CAD');
  });

  test('every account passes the Account schema and balances are plausible', () => {
    const data = item('user_good');
    for (const a of data.accounts) {
      expect(Account.safeParse(a).success).toBe(true);
      expect(a.account_id).toMatch(/^acct_[0-9a-f]{24}$/);
      expect(a.mask).toMatch(/^\d{4}$/);
    }
    const card = account(data, 'credit card');
    expect(card.balances.current).toBeGreaterThanOrEqual(0);
    expect(card.balances.limit).toBeGreaterThan(0);
    expect(card.balances.available).toBeCloseTo(card.balances.limit! - card.balances.current, 2);
    const loan = data.accounts.find((a) => a.type === 'loan')!;
    expect(loan.balances.current).toBeGreaterThan(0);
    expect(loan.balances.available).toBeNull();
    expect(loan.balances.limit).toBeNull();
    expect(account(data, 'checking').balances.current).toBeGreaterThan(0);
    expect(account(data, 'savings').balances.current).toBeGreaterThan(0);
  });

  test('transfers to savings appear on both accounts with the same date and opposite amounts', () => {
    const data = item('user_good');
    const savings = txnsOf(data, account(data, 'savings').account_id);
    const out = txnsOf(data, account(data, 'checking').account_id).filter((t) => /TRANSFER TO SAV/.test(t.name));
    expect(out.length).toBeGreaterThanOrEqual(18);
    for (const t of out) {
      expect(t.amount).toBeGreaterThan(0);
      expect(savings.some((s) => s.date === t.date && s.amount === -t.amount && /TRANSFER FROM CHK/.test(s.name))).toBe(true);
    }
  });

  test('credit card payments leave checking and arrive on the card on the same day', () => {
    const data = item('user_good');
    const card = txnsOf(data, account(data, 'credit card').account_id);
    const payments = txnsOf(data, account(data, 'checking').account_id).filter((t) => /CREDIT CRD AUTOPAY/.test(t.name));
    expect(payments.length).toBeGreaterThanOrEqual(22);
    for (const t of payments) {
      expect(card.some((c) => c.date === t.date && c.amount === -t.amount && /THANK YOU/.test(c.name))).toBe(true);
    }
  });

  test('pending transactions are 3 to 8 recent card authorizations', () => {
    for (const today of ['2026-07-01', '2026-03-15', '2025-12-31']) {
      const pending = item('user_good', today).transactions.filter((t) => t.pending);
      expect(pending.length).toBeGreaterThanOrEqual(3);
      expect(pending.length).toBeLessThanOrEqual(8);
      for (const t of pending) {
        expect(t.date >= addDays(today, -2) && t.date <= today).toBe(true);
        expect(t.authorized_datetime?.slice(0, 10)).toBe(t.date);
      }
    }
  });

  test('posted card transactions were authorized a day or two earlier and ACH entries have no authorization', () => {
    const data = item('user_good');
    const posted = data.transactions.filter((t) => !t.pending);
    const withAuth = posted.filter((t) => t.authorized_datetime !== null);
    expect(withAuth.length).toBeGreaterThan(1000);
    for (const t of withAuth) {
      const lag = (Date.parse(`${t.date}T00:00:00Z`) - Date.parse(`${t.authorized_datetime!.slice(0, 10)}T00:00:00Z`)) / 86_400_000;
      expect([1, 2]).toContain(lag);
      expect(t.authorized_datetime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(posted.filter((t) => /PAYROLL|DIRECT DEP/.test(t.name)).every((t) => t.authorized_datetime === null && t.amount < 0)).toBe(true);
  });

  test('some card spending is in a foreign currency and names the foreign city', () => {
    const data = item('user_good');
    const foreign = data.transactions.filter((t) => t.iso_currency_code !== 'USD');
    expect(foreign.length).toBeGreaterThanOrEqual(5);
    for (const t of foreign) expect(t.name).toMatch(/ (PARIS FR|LONDON GB|BERLIN DE|TORONTO ON)$/);
  });

  test('every amount has at most two decimals and every transaction id is unique', () => {
    for (const user of ['user_good', 'alice']) {
      const data = item(user);
      for (const t of data.transactions) {
        expect(String(t.amount)).toMatch(/^-?\d+(\.\d{1,2})?$/);
        expect(t.amount).not.toBe(0);
      }
      const ids = data.transactions.map((t) => t.transaction_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^txn_[0-9a-f]{24}$/);
    }
  });

  test('transactions carry raw descriptors only, no enrichment fields', () => {
    const data = item('user_good');
    const keys: Array<keyof RawTransaction> = ['transaction_id', 'account_id', 'date', 'authorized_datetime', 'name', 'amount', 'iso_currency_code', 'pending'];
    for (const t of data.transactions) expect(Object.keys(t).sort()).toEqual([...keys].sort());
    const names = data.transactions.map((t) => t.name);
    expect(names.some((n) => /^(SQ \*|TST\* )/.test(n))).toBe(true);
    expect(names.some((n) => /#\d{3,}/.test(n))).toBe(true);
    expect(names.some((n) => /PAYROLL|DIRECT DEP/.test(n))).toBe(true);
    const accountIds = new Set(data.accounts.map((a) => a.account_id));
    expect(data.transactions.every((t) => accountIds.has(t.account_id))).toBe(true);
  });

  test('a date that is not a calendar date is rejected', () => {
    expect(() => generateSandboxItem({ institutionId: BANK, username: 'x' }, '2026-02-30')).toThrow(RangeError);
    expect(() => generateSandboxItem({ institutionId: BANK, username: 'x' }, 'yesterday')).toThrow(RangeError);
  });
});
