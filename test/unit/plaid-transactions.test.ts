// Transactions on the Plaid-compatible surface: the PFCv2 crosswalk covers every category of our
// taxonomy, a row maps field by field onto Plaid's Transaction, and our same-id posting becomes
// Plaid's removed-pending + added-posted consistently however a sync is paged: a replica applying
// the pages ends up holding exactly the current rows under their Plaid ids.
import fc from 'fast-check';
import type { Transaction, TransactionsGetResponse, TransactionsSyncResponse } from 'plaid';
import type { TransactionRecord } from '../../functions/contracts/schemas';
import { CATEGORIES } from '../../functions/core/taxonomy';
import { PFC_V2_CROSSWALK, PFC_V2_PRIMARY_FALLBACK, PFC_V2_PRIMARY_OF, PFC_V2_TAXONOMY, personalFinanceCategoryOf } from '../../functions/surfaces/plaid/pfc';
import {
  pendingPhaseIdOf,
  plaidSyncChanges,
  plaidTransactionIdOf,
  plaidTransactionOf,
  type PlaidSyncResponse,
  type PlaidTransactionWire,
} from '../../functions/surfaces/plaid/transactions';
import type { Wire } from '../../functions/surfaces/plaid/wire';

const options = { includeOriginalDescription: false };

function row(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    transaction_id: 'txn_1',
    account_id: 'acc_1',
    date: '2026-11-20',
    authorized_datetime: null,
    name: 'STARBUCKS #1234 SEATTLE WA',
    merchant_name: 'Starbucks',
    amount: 5.4,
    iso_currency_code: 'USD',
    pending: false,
    category: 'food_and_drink',
    category_detailed: 'food_and_drink_coffee',
    payment_channel: 'in_store',
    ...overrides,
  };
}

// Compile time: the surface's transaction is Plaid's, its sync answer Plaid's but for `removed`'s
// account_id (null when our feed does not say), its get answer Plaid's.
const asPlaidTransaction = (t: PlaidTransactionWire): Wire<Transaction> => t;
const asPlaidSync = (r: PlaidSyncResponse & { request_id: string }): Omit<Wire<TransactionsSyncResponse>, 'removed'> => r;
const asPlaidGetTransactions = (ts: PlaidTransactionWire[]): Wire<TransactionsGetResponse>['transactions'] => ts;
void [asPlaidTransaction, asPlaidSync, asPlaidGetTransactions];

describe('the PFCv2 crosswalk', () => {
  const detailed = CATEGORIES.flatMap((c) => c.detailed.map((d) => ({ primary: c.category, detailed: d.category_detailed })));

  it('maps every one of our 89 detailed categories to a PFCv2 detailed category, under that category\'s own primary', () => {
    expect(detailed).toHaveLength(89);
    for (const { primary, detailed: id } of detailed) {
      const target = PFC_V2_CROSSWALK[id];
      expect({ id, known: PFC_V2_PRIMARY_OF.has(target) }).toEqual({ id, known: true });
      expect(personalFinanceCategoryOf(primary, id)).toEqual({ primary: PFC_V2_PRIMARY_OF.get(target), detailed: target, confidence_level: 'UNKNOWN', version: 'v2' });
      expect(target.startsWith(`${PFC_V2_PRIMARY_OF.get(target)}_`)).toBe(true);
    }
    expect(Object.keys(PFC_V2_CROSSWALK).sort()).toEqual(detailed.map((d) => d.detailed).sort());
  });

  it('falls back from each of our 14 primaries alone to that PFC primary\'s "other" category', () => {
    expect(Object.keys(PFC_V2_PRIMARY_FALLBACK).sort()).toEqual(CATEGORIES.map((c) => c.category).sort());
    for (const { category } of CATEGORIES) {
      const pfc = personalFinanceCategoryOf(category, null);
      expect(pfc?.detailed).toMatch(/_OTHER/);
      expect(PFC_V2_TAXONOMY[pfc!.primary]).toBeDefined();
    }
  });

  it('splits our merged primaries by their detailed category', () => {
    expect(personalFinanceCategoryOf('health_and_personal_care', 'health_and_personal_care_fitness')?.primary).toBe('PERSONAL_CARE');
    expect(personalFinanceCategoryOf('health_and_personal_care', 'health_and_personal_care_dental')?.primary).toBe('MEDICAL');
    expect(personalFinanceCategoryOf('services_and_government', 'services_and_government_taxes')?.primary).toBe('GOVERNMENT_AND_NON_PROFIT');
    expect(personalFinanceCategoryOf('transfer_in', 'transfer_in_loan_proceeds')?.primary).toBe('LOAN_DISBURSEMENTS');
  });

  it('leaves an uncategorized row, and a category it does not know, without a PFC', () => {
    expect(personalFinanceCategoryOf(null, null)).toBeNull();
    expect(personalFinanceCategoryOf('constructor', 'toString')).toBeNull();
  });
});

describe('a transaction in Plaid\'s shape', () => {
  it('carries our fields, Plaid\'s spelling of the payment channel, and null for what we do not have', () => {
    const t = plaidTransactionOf(row(), options);
    expect(t).toMatchObject({
      transaction_id: 'txn_1',
      account_id: 'acc_1',
      amount: 5.4,
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
      date: '2026-11-20',
      name: 'STARBUCKS #1234 SEATTLE WA',
      merchant_name: 'Starbucks',
      pending: false,
      pending_transaction_id: null,
      authorized_date: null,
      authorized_datetime: null,
      payment_channel: 'in store',
      personal_finance_category: { primary: 'FOOD_AND_DRINK', detailed: 'FOOD_AND_DRINK_COFFEE' },
      category: null,
      category_id: null,
      original_description: null,
      datetime: null,
      transaction_code: null,
    });
    expect(t.location).toEqual({ address: null, city: null, region: null, postal_code: null, country: null, lat: null, lon: null, store_number: null });
    expect(Object.values(t.payment_meta).every((v) => v === null)).toBe(true);
    expect(plaidTransactionOf(row({ payment_channel: 'transfer' }), options).payment_channel).toBe('other');
    expect(plaidTransactionOf(row({ payment_channel: 'online' }), options).payment_channel).toBe('online');
  });

  it('gives the raw descriptor as original_description only when asked', () => {
    expect(plaidTransactionOf(row(), { includeOriginalDescription: true }).original_description).toBe('STARBUCKS #1234 SEATTLE WA');
  });

  it('puts a currency that is not ISO 4217 in unofficial_currency_code', () => {
    expect(plaidTransactionOf(row({ iso_currency_code: 'BTC' }), options)).toMatchObject({ iso_currency_code: null, unofficial_currency_code: 'BTC' });
  });

  it('presents an authorization as two phases: pending under its own id, posted naming it', () => {
    const pending = plaidTransactionOf(row({ pending: true, authorized_datetime: '2026-11-19T18:04:00Z', date: '2026-11-19' }), options);
    expect(pending).toMatchObject({ transaction_id: 'txn_1_pending', pending: true, pending_transaction_id: null, authorized_date: '2026-11-19' });
    const posted = plaidTransactionOf(row({ authorized_datetime: '2026-11-19T18:04:00Z', date: '2026-11-21' }), options);
    expect(posted).toMatchObject({ transaction_id: 'txn_1', pending: false, pending_transaction_id: 'txn_1_pending', authorized_date: '2026-11-19', date: '2026-11-21' });
  });

  it('keeps one id for a row without an authorization, pending or posted (its date while pending is the authorized date)', () => {
    expect(plaidTransactionOf(row({ pending: true }), options)).toMatchObject({ transaction_id: 'txn_1', pending_transaction_id: null, authorized_date: '2026-11-20' });
  });
});

describe('a sync page in Plaid\'s terms', () => {
  it('turns a posting into removed (pending phase, with its account) + added (posted, naming it) in the same page', () => {
    const posted = row({ authorized_datetime: '2026-11-19T18:04:00Z', amount: 6.5 });
    const changes = plaidSyncChanges({ added: [], modified: [posted], removed: [] }, options);
    expect(changes.modified).toEqual([]);
    expect(changes.removed).toEqual([{ transaction_id: 'txn_1_pending', account_id: 'acc_1' }]);
    expect(changes.added).toEqual([plaidTransactionOf(posted, options)]);
    expect(changes.added[0].pending_transaction_id).toBe('txn_1_pending');
  });

  it('keeps a changed pending authorization, and any row without an authorization, in modified under its id', () => {
    const pending = row({ pending: true, authorized_datetime: '2026-11-19T18:04:00Z' });
    const plain = row({ transaction_id: 'txn_2' });
    const changes = plaidSyncChanges({ added: [], modified: [pending, plain], removed: [] }, options);
    expect(changes.modified.map((t) => t.transaction_id)).toEqual(['txn_1_pending', 'txn_2']);
    expect(changes.added).toEqual([]);
    // A posted row without an authorization may still have been held as a pending phase (its source
    // reported an authorization time only while pending): removing that id leaves no pending behind.
    expect(changes.removed).toEqual([{ transaction_id: 'txn_2_pending', account_id: 'acc_1' }]);
  });

  it('removes both phase ids of a removed row, account unknown', () => {
    const changes = plaidSyncChanges({ added: [], modified: [], removed: [{ transaction_id: 'txn_9' }] }, options);
    expect(changes.removed).toEqual([
      { transaction_id: 'txn_9_pending', account_id: null },
      { transaction_id: 'txn_9', account_id: null },
    ]);
  });
});

// ---------- the pages of a sync, applied by a Plaid client, agree with the current rows ----------

type Op =
  | { kind: 'authorize'; ordinal: number }
  | { kind: 'addPosted'; ordinal: number }
  | { kind: 'addPending'; ordinal: number }
  | { kind: 'post'; pick: number }
  | { kind: 'postFlippingAuthorization'; pick: number }
  | { kind: 'drop'; pick: number }
  | { kind: 'correct'; pick: number }
  | { kind: 'removePosted'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('authorize' as const), ordinal: fc.nat(1000) }),
  fc.record({ kind: fc.constant('addPosted' as const), ordinal: fc.nat(1000) }),
  fc.record({ kind: fc.constant('addPending' as const), ordinal: fc.nat(1000) }),
  fc.record({ kind: fc.constant('post' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('postFlippingAuthorization' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('correct' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('removePosted' as const), pick: fc.nat() }),
);

type State = Map<string, TransactionRecord>;

/** `awkward`: also corrections of posted authorizations, and sources whose authorization time differs between the pending and posted reports. */
function applyOp(state: State, op: Op, serial: { n: number }, awkward: boolean): void {
  const pick = (pred: (t: TransactionRecord) => boolean, i: number) => {
    const candidates = [...state.values()].filter(pred).sort((a, b) => a.transaction_id.localeCompare(b.transaction_id));
    return candidates.length ? candidates[i % candidates.length] : undefined;
  };
  const id = () => `txn_${++serial.n}`;
  switch (op.kind) {
    case 'authorize': {
      const t = id();
      state.set(t, row({ transaction_id: t, account_id: `acc_${op.ordinal % 3}`, pending: true, authorized_datetime: '2026-11-19T10:00:00Z', date: '2026-11-19', amount: op.ordinal / 10 }));
      return;
    }
    case 'addPosted': {
      const t = id();
      state.set(t, row({ transaction_id: t, account_id: `acc_${op.ordinal % 3}`, amount: op.ordinal / 10 }));
      return;
    }
    case 'addPending': {
      const t = id();
      state.set(t, row({ transaction_id: t, account_id: `acc_${op.ordinal % 3}`, pending: true, amount: op.ordinal / 10 }));
      return;
    }
    case 'post': {
      const t = pick((r) => r.pending, op.pick);
      if (t) state.set(t.transaction_id, { ...t, pending: false, date: '2026-11-21', amount: t.amount + 1 });
      return;
    }
    case 'postFlippingAuthorization': {
      const t = awkward ? pick((r) => r.pending, op.pick) : undefined;
      if (t) state.set(t.transaction_id, { ...t, pending: false, date: '2026-11-21', authorized_datetime: t.authorized_datetime === null ? '2026-11-19T10:00:00Z' : null });
      return;
    }
    case 'drop': {
      const t = pick((r) => r.pending, op.pick);
      if (t) state.delete(t.transaction_id);
      return;
    }
    case 'correct': {
      const t = pick((r) => !r.pending && (awkward || r.authorized_datetime === null), op.pick);
      if (t) state.set(t.transaction_id, { ...t, name: `${t.name} CORRECTED`, amount: t.amount + 0.01 });
      return;
    }
    case 'removePosted': {
      const t = pick((r) => !r.pending, op.pick);
      if (t) state.delete(t.transaction_id);
      return;
    }
  }
}

/** Our feed's answer from `held` to `now` (added, modified, removed), cut into pages at the given points. */
function ourPages(held: State, now: State, cuts: number[]) {
  const deliveries: Array<{ kind: 'added' | 'modified'; t: TransactionRecord } | { kind: 'removed'; id: string }> = [];
  for (const [id, t] of now) {
    const before = held.get(id);
    if (!before) deliveries.push({ kind: 'added', t });
    else if (JSON.stringify(before) !== JSON.stringify(t)) deliveries.push({ kind: 'modified', t });
  }
  for (const id of held.keys()) if (!now.has(id)) deliveries.push({ kind: 'removed', id });
  const bounds = [...new Set(cuts.map((c) => c % (deliveries.length + 1)))].sort((a, b) => a - b);
  const pages = [];
  let start = 0;
  for (const end of [...bounds, deliveries.length]) {
    const slice = deliveries.slice(start, end);
    start = Math.max(start, end);
    pages.push({
      added: slice.flatMap((d) => (d.kind === 'added' ? [d.t] : [])),
      modified: slice.flatMap((d) => (d.kind === 'modified' ? [d.t] : [])),
      removed: slice.flatMap((d) => (d.kind === 'removed' ? [{ transaction_id: d.id }] : [])),
    });
  }
  return pages;
}

/** What a Plaid client should hold for our rows: each under its Plaid id. */
const plaidView = (state: State) => new Map([...state.values()].map((t) => [plaidTransactionIdOf(t), plaidTransactionOf(t, options)]));

describe('our same-id posting across sync pages', () => {
  const scenario = fc.record({
    before: fc.array(opArb, { maxLength: 12 }),
    after: fc.array(opArb, { minLength: 1, maxLength: 16 }),
    cuts: fc.array(fc.nat(40), { maxLength: 4 }),
  });

  it('leaves a client that upserts added and modified and deletes removed holding exactly the current rows', () => {
    fc.assert(
      fc.property(scenario, ({ before, after, cuts }) => {
        const serial = { n: 0 };
        const state: State = new Map();
        for (const op of before) applyOp(state, op, serial, true);
        const held = new Map(state);
        for (const op of after) applyOp(state, op, serial, true);
        const replica = plaidView(held);
        for (const page of ourPages(held, state, cuts)) {
          const changes = plaidSyncChanges(page, options);
          for (const t of [...changes.added, ...changes.modified]) replica.set(t.transaction_id, t);
          for (const r of changes.removed) replica.delete(r.transaction_id);
        }
        expect(replica).toEqual(plaidView(state));
      }),
      { numRuns: 300 },
    );
  });

  it('never adds an id a strict client holds nor modifies one it does not, unless a posted authorization changes again', () => {
    fc.assert(
      fc.property(scenario, ({ before, after, cuts }) => {
        const serial = { n: 0 };
        const state: State = new Map();
        for (const op of before) applyOp(state, op, serial, false);
        const held = new Map(state);
        for (const op of after) applyOp(state, op, serial, false);
        const replica = plaidView(held);
        for (const page of ourPages(held, state, cuts)) {
          const changes = plaidSyncChanges(page, options);
          for (const t of changes.added) {
            expect(replica.has(t.transaction_id)).toBe(false);
            replica.set(t.transaction_id, t);
          }
          for (const t of changes.modified) {
            expect(replica.has(t.transaction_id)).toBe(true);
            replica.set(t.transaction_id, t);
          }
          for (const r of changes.removed) replica.delete(r.transaction_id);
        }
        expect(replica).toEqual(plaidView(state));
      }),
      { numRuns: 300 },
    );
  });

  it('pairs every posting with the removal of the pending phase it names', () => {
    const held: State = new Map([['txn_1', row({ pending: true, authorized_datetime: '2026-11-19T10:00:00Z', date: '2026-11-19' })]]);
    const now: State = new Map([['txn_1', row({ authorized_datetime: '2026-11-19T10:00:00Z', date: '2026-11-21' })]]);
    const [page] = ourPages(held, now, []);
    const changes = plaidSyncChanges(page, options);
    expect(changes.added.map((t) => [t.transaction_id, t.pending_transaction_id])).toEqual([['txn_1', pendingPhaseIdOf('txn_1')]]);
    expect(changes.removed.map((r) => r.transaction_id)).toEqual([pendingPhaseIdOf('txn_1')]);
  });
});
