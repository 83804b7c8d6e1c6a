import { diffAgainstSource, enrich } from '../../functions/app/item-source';
import { enrichDescriptor } from '../../functions/core/enrichment/rules';
import { generateSandboxItem, type RawTransaction, type SandboxItemData, type SandboxLogin } from '../../functions/core/sandbox/generator';
import { sandboxSourceAt } from '../../functions/core/sandbox/refresh-sim';

const TODAY = '2026-07-01';
const BANK: SandboxLogin = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
const LOGINS: SandboxLogin[] = [
  BANK,
  { institutionId: 'ins_sandbox_first_bank', username: 'alice' },
  { institutionId: 'ins_sandbox_thames_bank', username: 'user_good' },
  { institutionId: 'ins_sandbox_rhein_bank', username: 'bob' },
  { institutionId: 'ins_sandbox_banque_lumiere', username: 'user_good' },
  { institutionId: 'ins_sandbox_business_bank', username: 'user_good' },
];

// Each state costs one generator run (~0.3 s), so the tests share them.
const cache = new Map<string, SandboxItemData>();
function at(login: SandboxLogin, k: number, today = TODAY): SandboxItemData {
  const key = `${login.institutionId}|${login.username}|${today}|${k}`;
  let data = cache.get(key);
  if (!data) cache.set(key, (data = sandboxSourceAt(login, today, k)));
  return data;
}

const byId = (data: SandboxItemData) => new Map(data.transactions.map((t) => [t.transaction_id, t]));

interface Diff {
  added: RawTransaction[];
  posted: Array<{ before: RawTransaction; after: RawTransaction }>;
  missing: RawTransaction[];
  changedOther: string[];
}

function diff(prev: SandboxItemData, next: SandboxItemData): Diff {
  const before = byId(prev);
  const after = byId(next);
  const out: Diff = { added: [], posted: [], missing: [], changedOther: [] };
  for (const t of next.transactions) {
    const b = before.get(t.transaction_id);
    if (!b) out.added.push(t);
    else if (b.pending && !t.pending) out.posted.push({ before: b, after: t });
    else if (JSON.stringify(b) !== JSON.stringify(t)) out.changedOther.push(t.transaction_id);
  }
  for (const t of prev.transactions) if (!after.has(t.transaction_id)) out.missing.push(t);
  return out;
}

const cardAccountIds = (data: SandboxItemData) =>
  new Set(data.accounts.filter((a) => a.type === 'credit' || (a.type === 'depository' && a.subtype === 'checking')).map((a) => a.account_id));

describe('sandbox refresh simulator', () => {
  test('refresh 0 is exactly the generated item', () => {
    for (const login of LOGINS.slice(0, 2)) expect(at(login, 0)).toEqual(generateSandboxItem(login, TODAY));
  });

  test('the first refresh adds pending purchases, posts earlier pendings under the same id and drops exactly one', () => {
    for (const login of LOGINS) {
      const d = diff(at(login, 0), at(login, 1));
      expect(d.added.length).toBeGreaterThanOrEqual(1);
      expect(d.added.length).toBeLessThanOrEqual(3);
      expect(d.posted.length).toBeGreaterThanOrEqual(1);
      expect(d.missing).toHaveLength(1);
      expect(d.missing[0].pending).toBe(true);
      expect(d.changedOther).toEqual([]);
      // every pending of state 0 either posted or is the dropped one
      const pending0 = at(login, 0).transactions.filter((t) => t.pending).map((t) => t.transaction_id).sort();
      expect([...d.posted.map((p) => p.after.transaction_id), d.missing[0].transaction_id].sort()).toEqual(pending0);
    }
  });

  test('the second refresh adds purchases and posts every pending of the first, dropping none', () => {
    for (const login of LOGINS) {
      const prev = at(login, 1);
      const d = diff(prev, at(login, 2));
      expect(d.added.length).toBeGreaterThanOrEqual(2);
      expect(d.added.length).toBeLessThanOrEqual(3);
      expect(d.missing).toEqual([]);
      expect(d.changedOther).toEqual([]);
      expect(d.posted.map((p) => p.after.transaction_id).sort()).toEqual(prev.transactions.filter((t) => t.pending).map((t) => t.transaction_id).sort());
    }
  });

  test('every odd refresh drops one pending and posts the others, every even refresh drops none', () => {
    for (let k = 1; k <= 8; k++) {
      const d = diff(at(BANK, k - 1), at(BANK, k));
      expect(d.added.length).toBeGreaterThanOrEqual(1);
      expect(d.posted.length).toBeGreaterThanOrEqual(1);
      expect(d.missing).toHaveLength(k % 2);
      expect(d.changedOther).toEqual([]);
    }
  });

  test('after a refresh the only pending transactions are the ones it added', () => {
    for (const k of [1, 2, 3]) {
      for (const login of LOGINS.slice(0, 4)) {
        const d = diff(at(login, k - 1), at(login, k));
        const pending = at(login, k).transactions.filter((t) => t.pending).map((t) => t.transaction_id).sort();
        expect(pending).toEqual(d.added.map((t) => t.transaction_id).sort());
      }
    }
  });

  test('new transactions are pending card purchases dated today on the credit card or checking account', () => {
    for (const login of LOGINS) {
      for (const k of [1, 2, 3]) {
        const data = at(login, k);
        const cards = cardAccountIds(data);
        const currency = data.accounts[0].balances.iso_currency_code;
        for (const t of diff(at(login, k - 1), data).added) {
          expect(t.pending).toBe(true);
          expect(t.date).toBe(TODAY);
          expect(t.authorized_datetime).toMatch(new RegExp(`^${TODAY}T\\d{2}:\\d{2}:\\d{2}Z$`));
          expect(cards.has(t.account_id)).toBe(true);
          expect(t.amount).toBeGreaterThan(0);
          expect(t.iso_currency_code).toBe(currency);
          expect(t.transaction_id).toMatch(/^txn_[0-9a-f]{24}$/);
        }
      }
    }
  });

  test('new transactions are at merchants the enrichment rules know', () => {
    for (const login of LOGINS) {
      for (const k of [1, 2, 3]) {
        for (const t of diff(at(login, k - 1), at(login, k)).added) {
          const e = enrichDescriptor(t.name, t.amount);
          expect({ name: t.name, merchant: e.merchant_name !== null, category: e.category !== null }).toEqual({ name: t.name, merchant: true, category: true });
        }
      }
    }
  });

  test('a posted transaction keeps its id, account, name and authorization, is dated today and grows by at most a tip', () => {
    let tipped = 0;
    let posted = 0;
    for (const login of LOGINS) {
      for (const k of [1, 2, 3]) {
        for (const { before, after } of diff(at(login, k - 1), at(login, k)).posted) {
          posted++;
          expect(after.account_id).toBe(before.account_id);
          expect(after.name).toBe(before.name);
          expect(after.authorized_datetime).toBe(before.authorized_datetime);
          expect(after.iso_currency_code).toBe(before.iso_currency_code);
          expect(after.date).toBe(TODAY);
          expect(after.amount).toBeGreaterThanOrEqual(before.amount);
          expect(after.amount).toBeLessThanOrEqual(Math.round(before.amount * 125) / 100);
          if (after.amount !== before.amount) tipped++;
        }
      }
    }
    expect(posted).toBeGreaterThan(20);
    expect(tipped).toBeGreaterThan(0);
    expect(tipped).toBeLessThan(posted);
  });

  test('no transaction ever changes account and no state holds a duplicate id', () => {
    const accountOf = new Map<string, string>();
    for (let k = 0; k <= 8; k++) {
      const data = at(BANK, k);
      const ids = data.transactions.map((t) => t.transaction_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const t of data.transactions) {
        const seen = accountOf.get(t.transaction_id);
        if (seen) expect(t.account_id).toBe(seen);
        else accountOf.set(t.transaction_id, t.account_id);
      }
    }
    const far = at(BANK, 50);
    const ids = far.transactions.map((t) => t.transaction_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of far.transactions) {
      const seen = accountOf.get(t.transaction_id);
      if (seen) expect(t.account_id).toBe(seen);
    }
    // 50 refreshes: base + 1-3 new each, one drop on every odd refresh
    const added = far.transactions.length - at(BANK, 0).transactions.length + 25;
    expect(added).toBeGreaterThanOrEqual(75);
    expect(added).toBeLessThanOrEqual(150);
  });

  test('the same login, day and refresh count give identical output', () => {
    for (const k of [0, 3]) expect(sandboxSourceAt(BANK, TODAY, k)).toEqual(at(BANK, k));
  });

  test('different refresh counts, days and logins give different new transactions', () => {
    const newIds = (login: SandboxLogin, k: number, today = TODAY) => diff(at(login, k - 1, today), at(login, k, today)).added.map((t) => t.transaction_id);
    const a = newIds(BANK, 1);
    const b = newIds(BANK, 2);
    const c = newIds(BANK, 1, '2026-07-02');
    const d = newIds(LOGINS[1], 1);
    const all = [...a, ...b, ...c, ...d];
    expect(new Set(all).size).toBe(all.length);
  });

  test('simulated ids never collide with generated ids', () => {
    const generated = new Set<string>();
    for (const login of LOGINS) for (const t of at(login, 0).transactions) generated.add(t.transaction_id);
    for (const t of generateSandboxItem(BANK, '2026-07-02').transactions) generated.add(t.transaction_id);
    let simulated = 0;
    for (const login of LOGINS) {
      for (const k of [1, 2, 3]) {
        for (const t of diff(at(login, k - 1), at(login, k)).added) {
          simulated++;
          expect(generated.has(t.transaction_id)).toBe(false);
        }
      }
    }
    expect(simulated).toBeGreaterThan(20);
  });

  test('amounts have at most two decimals', () => {
    for (const login of LOGINS) {
      for (const k of [1, 2, 3]) {
        const data = at(login, k);
        for (const t of data.transactions) expect(Math.round(t.amount * 100) / 100).toBe(t.amount);
        for (const a of data.accounts) {
          expect(Math.round(a.balances.current * 100) / 100).toBe(a.balances.current);
          if (a.balances.available !== null) expect(Math.round(a.balances.available * 100) / 100).toBe(a.balances.available);
        }
      }
    }
  });

  test('card balances move with the added, posted and dropped transactions', () => {
    const cents = (x: number) => Math.round(x * 100);
    const sum = (rows: RawTransaction[], accountId: string, filter: (t: RawTransaction) => boolean) =>
      rows.filter((t) => t.account_id === accountId && filter(t)).reduce((s, t) => s + cents(t.amount), 0);
    // logins whose pendings are all in the home currency (a foreign one counts at a converted amount)
    let checked = 0;
    for (const login of LOGINS) {
      const base = at(login, 0);
      const currency = base.accounts[0].balances.iso_currency_code;
      if (base.transactions.some((t) => t.pending && t.iso_currency_code !== currency)) continue;
      checked++;
      for (const k of [1, 2, 3]) {
        const data = at(login, k);
        for (const a of data.accounts) {
          const a0 = base.accounts.find((x) => x.account_id === a.account_id)!;
          const all = (d: SandboxItemData) => sum(d.transactions, a.account_id, () => true);
          const posted = (d: SandboxItemData) => sum(d.transactions, a.account_id, (t) => !t.pending);
          const pendingOut = sum(data.transactions, a.account_id, (t) => t.pending && t.amount > 0);
          if (a.type === 'credit') {
            expect(cents(a.balances.current)).toBe(cents(a0.balances.current) + all(data) - all(base));
            expect(cents(a.balances.available!)).toBe(Math.max(0, cents(a.balances.limit!) - cents(a.balances.current)));
          } else if (a.subtype === 'checking') {
            expect(cents(a.balances.current)).toBe(cents(a0.balances.current) - (posted(data) - posted(base)));
            expect(cents(a.balances.available!)).toBe(Math.max(0, cents(a.balances.current) - pendingOut));
          } else {
            expect(a).toEqual(a0);
          }
        }
      }
      // the credit card's balance really moves
      const card = (d: SandboxItemData) => d.accounts.find((a) => a.type === 'credit')!.balances.current;
      expect([1, 2, 3].some((k) => card(at(login, k)) !== card(base))).toBe(true);
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  test('logins without a card account do not change', () => {
    const crypto: SandboxLogin = { institutionId: 'ins_sandbox_crypto_exchange', username: 'user_good' };
    expect(sandboxSourceAt(crypto, TODAY, 3)).toEqual(sandboxSourceAt(crypto, TODAY, 0));
  });

  test('the refresh count must be a non-negative integer', () => {
    expect(() => sandboxSourceAt(BANK, TODAY, -1)).toThrow(RangeError);
    expect(() => sandboxSourceAt(BANK, TODAY, 1.5)).toThrow(RangeError);
  });

  test('syncing state 1 over state 0 upserts the new and posted rows and removes the dropped pending', () => {
    const s0 = at(BANK, 0).transactions.map(enrich);
    const s1 = at(BANK, 1).transactions.map(enrich);
    const latest = new Map(s0.map((txn) => [txn.transaction_id, { removed: false, txn }]));
    const changes = diffAgainstSource(s1)(latest);
    const removed = changes.filter((c) => !c.txn).map((c) => c.txnId);
    const d = diff(at(BANK, 0), at(BANK, 1));
    expect(removed).toEqual(d.missing.map((t) => t.transaction_id));
    const upserted = new Set(changes.filter((c) => c.txn).map((c) => c.txnId));
    for (const t of [...d.added, ...d.posted.map((p) => p.after)]) expect(upserted.has(t.transaction_id)).toBe(true);
  });
});
