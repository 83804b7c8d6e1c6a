import { Identity, Liabilities } from '../../functions/contracts/product-schemas';
import { Holding, InvestmentTransaction, Security } from '../../functions/contracts/schemas';
import { generateSandboxItem, type SandboxItemData, type SandboxLogin } from '../../functions/core/sandbox/generator';
import { sandboxIdentity, sandboxInvestments, sandboxLiabilities } from '../../functions/core/sandbox/products';

const TODAY = '2026-07-01';
const INSTITUTIONS = [
  'ins_sandbox_first_bank',
  'ins_sandbox_thames_bank',
  'ins_sandbox_maple_bank',
  'ins_sandbox_rhein_bank',
  'ins_sandbox_banque_lumiere',
  'ins_sandbox_credit_union',
  'ins_sandbox_business_bank',
  'ins_sandbox_brokerage',
  'ins_sandbox_crypto_exchange',
  'ins_sandbox_crypto_wallet',
  'ins_sandbox_pay',
];
// one login per sandbox institution, plus a second username where the account mix varies
const LOGINS: SandboxLogin[] = [
  ...INSTITUTIONS.map((institutionId) => ({ institutionId, username: 'user_good' })),
  ...['ins_sandbox_first_bank', 'ins_sandbox_credit_union', 'ins_sandbox_brokerage', 'ins_sandbox_crypto_wallet'].map((institutionId) => ({
    institutionId,
    username: 'user_good_alice',
  })),
];
const label = (l: SandboxLogin) => `${l.institutionId}/${l.username}`;

const cache = new Map<string, SandboxItemData>();
function itemOf(login: SandboxLogin, today = TODAY): SandboxItemData {
  const key = `${label(login)}|${today}`;
  let data = cache.get(key);
  if (!data) cache.set(key, (data = generateSandboxItem(login, today)));
  return data;
}

const cents = (x: number) => Math.round(x * 100);
const units = (q: number) => Math.round(q * 1e8);
const DAY_MS = 86_400_000;
const dayNum = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const monthsBetween = (a: string, b: string) => (+b.slice(0, 4) - +a.slice(0, 4)) * 12 + (+b.slice(5, 7) - +a.slice(5, 7));
/** round(c * part / whole), exact. */
const share = (c: number, part: number, whole: number) => Number((BigInt(c) * BigInt(part) * 2n + BigInt(whole)) / (2n * BigInt(whole)));
const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
const minusMonths = (iso: string, months: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() - months;
  const y = Math.floor(total / 12);
  const m = total % 12;
  const dim = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), dim))).toISOString().slice(0, 10);
};

describe('sandbox identity', () => {
  it('parses, and has at least one owner with names, emails, phones and addresses holding every account', () => {
    for (const login of LOGINS) {
      const data = itemOf(login);
      const identity = sandboxIdentity(login, data);
      expect(() => Identity.parse(identity)).not.toThrow();
      expect(identity.owners.length).toBeGreaterThanOrEqual(1);
      const [primary] = identity.owners;
      expect(primary.names.length).toBeGreaterThan(0);
      expect(primary.emails.length).toBeGreaterThan(0);
      expect(primary.phone_numbers.length).toBeGreaterThan(0);
      expect(primary.addresses.length).toBeGreaterThan(0);
      expect([...primary.account_ids].sort()).toEqual(data.accounts.map((a) => a.account_id).sort());
      const ids = new Set(data.accounts.map((a) => a.account_id));
      for (const owner of identity.owners) {
        for (const id of owner.account_ids) expect(ids.has(id)).toBe(true);
        // exactly one primary contact of each kind
        expect(owner.emails.filter((e) => e.primary)).toHaveLength(1);
        expect(owner.phone_numbers.filter((p) => p.primary)).toHaveLength(1);
        expect(owner.addresses.filter((a) => a.primary)).toHaveLength(1);
        for (const e of owner.emails) expect(e.data).toMatch(/^[a-z0-9.]+@([a-z0-9-]+\.)*example\.(com|net|org)$/);
      }
    }
  });

  it('is deterministic and differs from one username to the next', () => {
    const login = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
    expect(sandboxIdentity(login, itemOf(login))).toEqual(sandboxIdentity(login, generateSandboxItem(login, TODAY)));
    const data = itemOf(login);
    const usernames = ['user_good', 'user_good_alice', 'user_good_bob', 'user_good_carol'];
    const owners = usernames.map((username) => JSON.stringify(sandboxIdentity({ ...login, username }, data).owners[0]));
    expect(new Set(owners).size).toBe(usernames.length);
  });

  it('writes addresses and phone numbers of the institution country', () => {
    const gb = { institutionId: 'ins_sandbox_thames_bank', username: 'user_good' };
    const owner = sandboxIdentity(gb, itemOf(gb)).owners[0];
    expect(owner.addresses[0].data.country).toBe('GB');
    expect(owner.phone_numbers[0].data.startsWith('+44 ')).toBe(true);
    const de = { institutionId: 'ins_sandbox_rhein_bank', username: 'user_good' };
    expect(sandboxIdentity(de, itemOf(de)).owners[0].addresses[0].data.country).toBe('DE');
  });

  it('adds a joint owner on savings for some logins, on no other account', () => {
    // identity reads only the item's accounts: one item's accounts serve every username here
    const data = itemOf({ institutionId: 'ins_sandbox_credit_union', username: 'user_good' });
    let joint = 0;
    for (let i = 0; i < 12; i++) {
      const login = { institutionId: 'ins_sandbox_credit_union', username: `user_good_j${i}` };
      const owners = sandboxIdentity(login, data).owners;
      if (owners.length < 2) continue;
      joint++;
      const savings = data.accounts.find((a) => a.subtype === 'savings')!;
      expect(owners[1].account_ids).toEqual([savings.account_id]);
    }
    expect(joint).toBeGreaterThan(0);
    expect(joint).toBeLessThan(12);
  });

  it('names the business on a business login', () => {
    const login = { institutionId: 'ins_sandbox_business_bank', username: 'user_good' };
    expect(sandboxIdentity(login, itemOf(login)).owners[0].names[0]).toMatch(/ (LLC|Inc\.|Ltd|GmbH|SARL)$/);
  });
});

describe('sandbox liabilities', () => {
  it('parses and has one credit entry per card and one student or auto entry per loan account', () => {
    for (const login of LOGINS) {
      const data = itemOf(login);
      const l = sandboxLiabilities(login, data, TODAY);
      expect(() => Liabilities.parse(l)).not.toThrow();
      const ofType = (type: string, subtype?: string) =>
        data.accounts.filter((a) => a.type === type && (!subtype || a.subtype === subtype)).map((a) => a.account_id).sort();
      expect(l.credit.map((c) => c.account_id).sort()).toEqual(ofType('credit'));
      expect(l.student.map((c) => c.account_id).sort()).toEqual(ofType('loan', 'student'));
      expect(l.auto.map((c) => c.account_id).sort()).toEqual(ofType('loan', 'auto'));
      expect(l.mortgage).toEqual([]); // the generator has no mortgage account
    }
  });

  it('is deterministic and differs from one username to the next', () => {
    const a = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
    const b = { institutionId: 'ins_sandbox_first_bank', username: 'user_good_alice' };
    expect(sandboxLiabilities(a, itemOf(a), TODAY)).toEqual(sandboxLiabilities(a, structuredClone(itemOf(a)), TODAY));
    expect(JSON.stringify(sandboxLiabilities(a, itemOf(a), TODAY))).not.toEqual(JSON.stringify(sandboxLiabilities(b, itemOf(b), TODAY)));
  });

  describe('credit cards', () => {
    const cardLogins = LOGINS.filter((l) => itemOf(l).accounts.some((a) => a.type === 'credit'));

    it('report the last payment as booked on the card and paid from checking', () => {
      for (const login of cardLogins) {
        const data = itemOf(login);
        const card = data.accounts.find((a) => a.type === 'credit')!;
        const checking = data.accounts.find((a) => a.subtype === 'checking')!;
        const entry = sandboxLiabilities(login, data, TODAY).credit[0];
        const payments = data.transactions.filter((t) => t.account_id === card.account_id && t.amount < 0 && t.authorized_datetime === null && /THANK YOU|PAYMENT RECEIVED/.test(t.name));
        expect(entry.last_payment_date).toBe(payments[0].date);
        expect(entry.last_payment_amount).toBe(-payments[0].amount);
        const mirror = data.transactions.filter((t) => t.account_id === checking.account_id && t.date === entry.last_payment_date && t.amount === entry.last_payment_amount);
        expect(mirror).toHaveLength(1);
      }
    });

    it('state the statement the autopay settles on the due date, with a minimum of max(25, 1%) capped at the statement', () => {
      const isPayment = (t: SandboxItemData['transactions'][number], cardId: string) =>
        t.account_id === cardId && t.amount < 0 && t.authorized_datetime === null && /THANK YOU|PAYMENT RECEIVED/.test(t.name);
      const checkMinimum = (entry: ReturnType<typeof sandboxLiabilities>['credit'][number]) => {
        const statement = cents(entry.last_statement_balance!);
        const expected = statement <= 0 ? 0 : Math.min(statement, Math.max(2500, Math.round(statement / 100)));
        expect(cents(entry.minimum_payment_amount)).toBe(expected);
      };
      for (const institutionId of ['ins_sandbox_first_bank', 'ins_sandbox_thames_bank', 'ins_sandbox_credit_union', 'ins_sandbox_business_bank', 'ins_sandbox_rhein_bank']) {
        const login = { institutionId, username: 'user_good' };
        const card = itemOf(login).accounts.find((a) => a.type === 'credit')!;
        const payDay = Math.max(...itemOf(login).transactions.filter((t) => isPayment(t, card.account_id)).map((t) => +t.date.slice(8)));
        const due = `2026-07-${String(payDay).padStart(2, '0')}`;

        // the day before the due date: the June statement is outstanding and the autopay pays exactly it
        if (payDay > 1) {
          const before = `2026-07-${String(payDay - 1).padStart(2, '0')}`;
          const entry = sandboxLiabilities(login, itemOf(login, before), before).credit[0];
          expect(entry.last_statement_issue_date).toBe('2026-06-30');
          expect(entry.next_payment_due_date).toBe(due);
          expect(entry.is_overdue).toBe(false);
          checkMinimum(entry);
          const paid = itemOf(login, due).transactions.find((t) => isPayment(t, card.account_id) && t.date === due);
          if (entry.last_statement_balance! > 0) expect(paid && -cents(paid.amount)).toBe(cents(entry.last_statement_balance!));
        }

        // on the due date: paid in full, the next due date is a month later
        const entry = sandboxLiabilities(login, itemOf(login, due), due).credit[0];
        expect(entry.last_payment_date).toBe(due);
        expect(entry.last_statement_balance).toBe(entry.last_payment_amount);
        expect(entry.next_payment_due_date).toBe(`2026-08-${String(payDay).padStart(2, '0')}`);
        expect(entry.is_overdue).toBe(false);
        checkMinimum(entry);
      }
    });

    it('quote purchase, cash-advance and balance-transfer APRs', () => {
      for (const login of cardLogins) {
        const aprs = sandboxLiabilities(login, itemOf(login), TODAY).credit[0].aprs;
        expect(aprs.map((a) => a.apr_type)).toEqual(['purchase', 'cash_advance', 'balance_transfer']);
        for (const a of aprs) expect(a.apr_percentage).toBeGreaterThan(10);
        expect(aprs[1].apr_percentage).toBeGreaterThanOrEqual(aprs[0].apr_percentage);
      }
    });
  });

  describe('loans', () => {
    const loanLogins = LOGINS.filter((l) => itemOf(l).accounts.some((a) => a.type === 'loan'));

    it('exist in the sandbox', () => {
      expect(loanLogins.length).toBeGreaterThan(3);
    });

    it('have the installment the loan account receives as minimum payment, due a month after the last one', () => {
      for (const login of loanLogins) {
        const data = itemOf(login);
        const loan = data.accounts.find((a) => a.type === 'loan')!;
        const l = sandboxLiabilities(login, data, TODAY);
        const entry = [...l.student, ...l.auto].find((e) => e.account_id === loan.account_id)!;
        const payments = data.transactions.filter((t) => t.account_id === loan.account_id);
        expect(payments.length).toBeGreaterThan(0);
        expect(entry.minimum_payment_amount).toBe(-payments[0].amount);
        // the same installment leaves checking on the same day
        const checking = data.accounts.find((a) => a.subtype === 'checking')!;
        expect(data.transactions.some((t) => t.account_id === checking.account_id && t.date === payments[0].date && t.amount === -payments[0].amount)).toBe(true);
        expect(entry.next_payment_due_date > TODAY).toBe(true);
        expect(monthsBetween(payments[0].date, entry.next_payment_due_date)).toBe(1);
      }
    });

    it('amortize from the origination principal to the current balance', () => {
      for (const login of loanLogins) {
        const data = itemOf(login);
        const loan = data.accounts.find((a) => a.type === 'loan')!;
        const l = sandboxLiabilities(login, data, TODAY);
        const student = l.student.find((e) => e.account_id === loan.account_id);
        const auto = l.auto.find((e) => e.account_id === loan.account_id);
        const entry = (student ?? auto)!;
        const maturity = student ? student.expected_payoff_date : auto!.maturity_date;
        expect(entry.origination_principal_amount).toBeGreaterThanOrEqual(loan.balances.current);
        expect(entry.origination_date < data.transactions.filter((t) => t.account_id === loan.account_id).at(-1)!.date).toBe(true);
        expect(maturity >= entry.next_payment_due_date).toBe(true);
        // payments made = months from the first due date (a month after origination) to the next one
        const made = monthsBetween(entry.origination_date, entry.next_payment_due_date) - 1;
        const i = entry.interest_rate_percentage / 1200;
        let balance = entry.origination_principal_amount;
        for (let k = 0; k < made; k++) balance = balance * (1 + i) - entry.minimum_payment_amount;
        expect(Math.abs(balance - loan.balances.current)).toBeLessThan(0.05);
        // and the remaining installments pay it off by maturity
        const remaining = monthsBetween(entry.next_payment_due_date, maturity) + 1;
        let rest = loan.balances.current;
        for (let k = 0; k < remaining - 1; k++) rest = rest * (1 + i) - entry.minimum_payment_amount;
        expect(rest).toBeGreaterThan(0);
        expect(rest * (1 + i)).toBeLessThanOrEqual(entry.minimum_payment_amount + 0.01);
      }
    });

    it('gives a mortgage entry to a loan account of subtype mortgage', () => {
      const login = loanLogins[0];
      const data = itemOf(login);
      const loan = data.accounts.find((a) => a.type === 'loan')!;
      const mortgaged: SandboxItemData = { ...data, accounts: data.accounts.map((a) => (a === loan ? { ...a, subtype: 'mortgage' } : a)) };
      const l = sandboxLiabilities(login, mortgaged, TODAY);
      expect(() => Liabilities.parse(l)).not.toThrow();
      expect(l.student).toEqual([]);
      expect(l.auto).toEqual([]);
      expect(l.mortgage).toHaveLength(1);
      const payment = data.transactions.find((t) => t.account_id === loan.account_id)!;
      expect(l.mortgage[0].next_monthly_payment).toBe(-payment.amount);
      expect(l.mortgage[0].origination_principal_amount).toBeGreaterThanOrEqual(loan.balances.current);
    });
  });
});

describe('sandbox investments', () => {
  const investLogins = LOGINS.filter((l) => itemOf(l).accounts.some((a) => a.type === 'investment' || a.type === 'crypto'));
  const investAccounts = (data: SandboxItemData) => data.accounts.filter((a) => a.type === 'investment' || a.type === 'crypto');

  it('covers brokerage, crypto exchange and wallet accounts', () => {
    const subtypes = new Set(investLogins.flatMap((l) => investAccounts(itemOf(l)).map((a) => a.subtype)));
    expect([...subtypes].sort()).toEqual(['brokerage', 'crypto_exchange', 'wallet']);
  });

  it('parse, with prefixed ids and a security for every ticker', () => {
    for (const login of investLogins) {
      const inv = sandboxInvestments(login, itemOf(login), TODAY);
      for (const h of inv.holdings) expect(() => Holding.parse(h)).not.toThrow();
      for (const s of inv.securities) expect(() => Security.parse(s)).not.toThrow();
      for (const t of inv.investment_transactions) expect(() => InvestmentTransaction.parse(t)).not.toThrow();
      for (const h of inv.holdings) {
        expect(h.holding_id).toMatch(/^hold_[0-9a-f]{24}$/);
        expect(h.security.security_id).toMatch(/^sec_[0-9a-f]{24}$/);
      }
      for (const t of inv.investment_transactions) expect(t.investment_transaction_id).toMatch(/^invtxn_[0-9a-f]{24}$/);
      expect(new Set(inv.investment_transactions.map((t) => t.investment_transaction_id)).size).toBe(inv.investment_transactions.length);
      expect(new Set(inv.holdings.map((h) => h.holding_id)).size).toBe(inv.holdings.length);
      const tickers = new Set(inv.securities.map((s) => s.ticker));
      for (const t of inv.investment_transactions) expect(tickers.has(t.ticker)).toBe(true);
      for (const h of inv.holdings) expect(inv.securities).toContainEqual(h.security);
    }
  });

  it('add up, per account, to balances.current to the cent', () => {
    for (const login of investLogins) {
      const data = itemOf(login);
      const inv = sandboxInvestments(login, data, TODAY);
      for (const account of investAccounts(data)) {
        const holdings = inv.holdings.filter((h) => h.account_id === account.account_id);
        expect(holdings.filter((h) => h.security.type === 'cash')).toHaveLength(1);
        const sum = holdings.reduce((s, h) => s + cents(h.value), 0);
        expect({ account: label(login), sum }).toEqual({ account: label(login), sum: cents(account.balances.current) });
        for (const h of holdings) {
          expect(h.quantity).toBeGreaterThan(h.security.type === 'cash' ? -Infinity : 0);
          expect(Math.abs(h.value - h.quantity * h.security.close_price)).toBeLessThanOrEqual(0.005 + 1e-9);
          expect(decimals(h.quantity)).toBeLessThanOrEqual(h.security.type === 'crypto' ? 8 : h.security.type === 'cash' ? 2 : 6);
          expect(decimals(h.value)).toBeLessThanOrEqual(2);
        }
      }
      // only investment and crypto accounts hold anything
      const ids = new Set(investAccounts(data).map((a) => a.account_id));
      for (const h of inv.holdings) expect(ids.has(h.account_id)).toBe(true);
    }
  });

  it('are what replaying the transactions gives, never going below zero cash or units on the way', () => {
    for (const login of investLogins) {
      const data = itemOf(login);
      const inv = sandboxInvestments(login, data, TODAY);
      for (const account of investAccounts(data)) {
        const rows = inv.investment_transactions.filter((t) => t.account_id === account.account_id).reverse(); // oldest first
        const held = new Map<string, number>();
        const cost = new Map<string, number>();
        let cash = 0;
        for (const t of rows) {
          cash -= cents(t.amount);
          if (t.type === 'buy' || t.type === 'sell') {
            const before = held.get(t.ticker) ?? 0;
            const after = before + units(t.quantity);
            const c = cost.get(t.ticker) ?? 0;
            cost.set(t.ticker, t.type === 'buy' ? c + cents(t.amount) : after === 0 ? 0 : c - share(c, -units(t.quantity), before));
            held.set(t.ticker, after);
            expect(after).toBeGreaterThanOrEqual(0);
          }
          expect(cash).toBeGreaterThanOrEqual(0);
        }
        const holdings = inv.holdings.filter((h) => h.account_id === account.account_id);
        for (const h of holdings) {
          if (h.security.type === 'cash') {
            expect(cents(h.quantity)).toBe(cash);
            expect(h.cost_basis).toBe(h.value);
            continue;
          }
          expect(units(h.quantity)).toBe(held.get(h.security.ticker));
          // average cost, except where the institution reports none (a self-custody wallet)
          if (account.subtype === 'wallet') expect(h.cost_basis).toBeNull();
          else expect(h.cost_basis === null ? null : Math.abs(cents(h.cost_basis) - cost.get(h.security.ticker)!)).toBeLessThanOrEqual(1);
        }
        // every position still held has a holding
        for (const [ticker, u] of held) if (u > 0) expect(holdings.some((h) => h.security.ticker === ticker)).toBe(true);
      }
    }
  });

  it('report cost basis everywhere except the self-custody wallet', () => {
    let nulls = 0;
    for (const login of investLogins) {
      const data = itemOf(login);
      const subtypeOf = new Map(data.accounts.map((a) => [a.account_id, a.subtype]));
      for (const h of sandboxInvestments(login, data, TODAY).holdings) {
        const expectNull = subtypeOf.get(h.account_id) === 'wallet' && h.security.type !== 'cash';
        expect(h.cost_basis === null).toBe(expectNull);
        if (expectNull) nulls++;
      }
    }
    expect(nulls).toBeGreaterThan(0);
  });

  it('follow the sign convention: positive amount is money out of the account', () => {
    for (const login of investLogins) {
      for (const t of sandboxInvestments(login, itemOf(login), TODAY).investment_transactions) {
        switch (t.type) {
          case 'buy':
            expect(t.amount).toBeGreaterThan(0);
            expect(t.quantity).toBeGreaterThan(0);
            expect(Math.abs(t.amount - t.quantity * t.price)).toBeLessThanOrEqual(0.005 + 1e-9);
            break;
          case 'sell':
            expect(t.amount).toBeLessThan(0);
            expect(t.quantity).toBeLessThan(0);
            expect(Math.abs(t.amount - t.quantity * t.price)).toBeLessThanOrEqual(0.005 + 1e-9);
            break;
          case 'dividend':
          case 'deposit':
            expect(t.amount).toBeLessThan(0);
            break;
          case 'withdrawal':
          case 'fee':
            expect(t.amount).toBeGreaterThan(0);
            break;
        }
        expect(decimals(t.amount)).toBeLessThanOrEqual(2);
      }
    }
  });

  it('span the 24-month window, newest first, with every kind of row on a bank brokerage account', () => {
    const login = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
    const data = itemOf(login);
    const rows = sandboxInvestments(login, data, TODAY).investment_transactions;
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].date >= rows[i].date).toBe(true);
    expect(rows.at(-1)!.date >= minusMonths(TODAY, 24)).toBe(true);
    expect(rows[0].date <= TODAY).toBe(true);
    const brokerage = data.accounts.find((a) => a.subtype === 'brokerage')!;
    const types = new Set(rows.filter((t) => t.account_id === brokerage.account_id).map((t) => t.type));
    expect([...types].sort()).toEqual(['buy', 'deposit', 'dividend', 'fee', 'sell']);
  });

  it('book every transfer from checking as a deposit on the same day for the same amount', () => {
    for (const login of investLogins) {
      const data = itemOf(login);
      const checking = data.accounts.find((a) => a.subtype === 'checking');
      if (!checking) continue;
      const rows = sandboxInvestments(login, data, TODAY).investment_transactions;
      for (const account of investAccounts(data)) {
        const transfers = data.transactions.filter((t) => t.account_id === checking.account_id && t.amount > 0 && t.name.includes(account.mask) && /BROKERAGE|CRYPTO/.test(t.name));
        const deposits = rows.filter((t) => t.account_id === account.account_id && t.type === 'deposit');
        for (const t of transfers) expect(deposits.some((d) => d.date === t.date && d.amount === -t.amount)).toBe(true);
      }
    }
  });

  it('mirror a crypto exchange statement: transfers, staking rewards and network fees', () => {
    const login = { institutionId: 'ins_sandbox_crypto_exchange', username: 'user_good' };
    const data = itemOf(login);
    const account = data.accounts[0];
    const rows = sandboxInvestments(login, data, TODAY).investment_transactions.filter((t) => t.account_id === account.account_id);
    for (const t of data.transactions.filter((x) => x.account_id === account.account_id)) {
      const type = /^STAKING REWARD/.test(t.name) ? 'dividend' : t.amount < 0 ? 'deposit' : /FEE/.test(t.name) ? 'fee' : 'withdrawal';
      expect(rows.some((r) => r.date === t.date && r.amount === t.amount && r.type === type && r.name === t.name)).toBe(true);
    }
  });

  it('value the same security at one close price across logins, and price crypto in 8 decimals of quantity', () => {
    const prices = new Map<string, number>();
    for (const login of investLogins) {
      for (const s of sandboxInvestments(login, itemOf(login), TODAY).securities) {
        const key = s.security_id;
        if (prices.has(key)) expect(s.close_price).toBe(prices.get(key));
        prices.set(key, s.close_price);
        if (s.type === 'cash') {
          expect(s.ticker).toMatch(/^CUR:[A-Z]{3}$/);
          expect(s.close_price).toBe(1);
        }
      }
    }
  });

  it('is deterministic and differs from one username to the next', () => {
    const a = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
    const b = { institutionId: 'ins_sandbox_first_bank', username: 'user_good_alice' };
    expect(sandboxInvestments(a, itemOf(a), TODAY)).toEqual(sandboxInvestments(a, structuredClone(itemOf(a)), TODAY));
    const sig = (l: SandboxLogin) => sandboxInvestments(l, itemOf(l), TODAY).holdings.map((h) => `${h.security.ticker}:${h.quantity}`).join(',');
    expect(sig(a)).not.toEqual(sig(b));
  });

  it('keeps the ids of rows mirrored from the item from one day to the next', () => {
    const login = { institutionId: 'ins_sandbox_crypto_exchange', username: 'user_good' };
    const next = new Date((dayNum(TODAY) + 1) * DAY_MS).toISOString().slice(0, 10);
    const a = sandboxInvestments(login, itemOf(login), TODAY).investment_transactions.filter((t) => t.type === 'deposit' && t.date > minusMonths(next, 24));
    const b = new Map(sandboxInvestments(login, itemOf(login, next), next).investment_transactions.map((t) => [t.investment_transaction_id, t]));
    const mirrored = a.filter((t) => t.name.startsWith('TRANSFER FROM BANK'));
    expect(mirrored.length).toBeGreaterThan(5);
    for (const t of mirrored) expect(b.get(t.investment_transaction_id)).toEqual(t);
  });

  it('gives nothing to logins without investment or crypto accounts', () => {
    const login = { institutionId: 'ins_sandbox_pay', username: 'user_good' };
    expect(sandboxInvestments(login, itemOf(login), TODAY)).toEqual({ holdings: [], securities: [], investment_transactions: [] });
  });
});
