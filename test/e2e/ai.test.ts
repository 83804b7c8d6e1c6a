// The nine AI routes over HTTP, rules only (no model configured), against openapi.json: each answers
// the rules answer of functions/core/ai (or the descriptor engine) for a sandbox item or a raw
// payload, with engine "rules" and the rules version as model; consent, bad input and the AI quota.
import type { AccountRecord, TransactionRecord } from '../../functions/contracts/schemas';
import { RULES_MODEL, UNCATEGORIZED } from '../../functions/app/ai';
import { cashflowRules } from '../../functions/core/ai/cashflow';
import { financialSummaryRules } from '../../functions/core/ai/financial-summary';
import { fraudRiskRules } from '../../functions/core/ai/fraud-risk';
import { healthScoreRules } from '../../functions/core/ai/health-score';
import type { AiInput } from '../../functions/core/ai/input';
import { purchaseAnalysisRules } from '../../functions/core/ai/purchase-analysis';
import { subscriptionsRules } from '../../functions/core/ai/subscriptions';
import { weeklyReportRules } from '../../functions/core/ai/weekly-report';
import { enrichTransaction } from '../../functions/core/enrichment/enrich';
import { monthlyUsage } from '../../functions/data/api-keys-repo';
import type { Json } from '../support/json';
import { manualClock } from '../support/embedded';
import { assertDocumentedError, assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const key = makeKey('test');
const clock = manualClock();
const ALL = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
let token: string;
let input: AiInput;

async function post(path: string, body: unknown) {
  const res = await stack.call(path, { body, key });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

async function item(products: string[]) {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products });
  const exchanged = (await post('/v1/link/token/exchange', { public_token: pt.json.public_token })).json as { access_token: string; item_id: string };
  await stack.historyLoaded(exchanged.item_id);
  return exchanged;
}

/** What the item routes compute from: the item's transactions and accounts as the API serves them. */
async function itemInput(accessToken: string): Promise<AiInput> {
  const page = (offset: number) =>
    post('/v1/transactions/get', { access_token: accessToken, start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 500, offset } });
  const first = await page(0);
  const transactions: TransactionRecord[] = [...first.json.transactions];
  for (let offset = 500; offset < first.json.total_transactions; offset += 500) transactions.push(...(await page(offset)).json.transactions);
  const accounts = (await post('/v1/accounts/get', { access_token: accessToken })).json.accounts as AccountRecord[];
  return { today: new Date(clock.now()).toISOString().slice(0, 10), transactions, accounts, recurring: null, income: null };
}

const withoutEngine = (json: Json) => {
  const { engine, model, ...rest } = json;
  expect({ engine, model }).toEqual({ engine: 'rules', model: RULES_MODEL });
  return rest;
};

beforeAll(async () => {
  stack = await startTestStack([{ application: 'AI', plan: 'enterprise', keys: [key] }], { clock });
  // Rules only, whatever the developer's environment names.
  stack.deps.model = null;
  token = (await item(ALL)).access_token;
  input = await itemInput(token);
}, 120_000);
afterAll(() => stack.stop());

describe('the rules answers for a sandbox item', () => {
  it('has history to work on', () => {
    expect(input.transactions.length).toBeGreaterThan(100);
  });

  it('subscriptions: the rules answer, with paid subscriptions found', async () => {
    const res = await post('/v1/ai/subscriptions', { access_token: token });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(subscriptionsRules(input));
    expect(res.json.subscriptions.length).toBeGreaterThan(0);
  });

  it('cashflow: the rules answer over the requested horizon, from the depository balances', async () => {
    const res = await post('/v1/ai/cashflow', { access_token: token, horizon_days: 45 });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(cashflowRules(input, { horizonDays: 45 }));
    expect(res.json.daily).toHaveLength(45);
    expect(res.json.balance_source).toBe('depository_accounts');
  });

  it('health-score: the rules answer, 0-100 with all seven subscores', async () => {
    const res = await post('/v1/ai/health-score', { access_token: token });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(healthScoreRules(input));
    expect(res.json.subscores).toHaveLength(7);
  });

  it('financial-summary: the rules answer', async () => {
    const res = await post('/v1/ai/financial-summary', { access_token: token });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(financialSummaryRules(input));
  });

  it('fraud-risk: the rules answer', async () => {
    const res = await post('/v1/ai/fraud-risk', { access_token: token });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(fraudRiskRules(input));
  });

  it('purchase-analysis: the rules answer for the planned purchase', async () => {
    const purchase = { description: 'Laptop', amount: 1200 };
    const res = await post('/v1/ai/purchase-analysis', { access_token: token, purchase });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(purchaseAnalysisRules(input, purchase));
    expect(['buy', 'wait', 'skip']).toContain(res.json.verdict);
  });

  it('weekly-report: the rules answer for the week ending on the given day', async () => {
    const res = await post('/v1/ai/weekly-report', { access_token: token, week_ending: '2026-11-15' });
    expect(res.status).toBe(200);
    expect(withoutEngine(res.json)).toEqual(weeklyReportRules(input, { weekEnding: '2026-11-15' }));
    expect(res.json.week).toEqual({ start: '2026-11-09', end: '2026-11-15', days: 7 });
  });

  it('categorize: the newest transactions, each with the enrichment engines\' decision', async () => {
    const res = await post('/v1/ai/categorize', { access_token: token });
    expect(res.status).toBe(200);
    withoutEngine(res.json);
    const byId = new Map(input.transactions.map((t) => [t.transaction_id, t]));
    expect(res.json.categorized).toHaveLength(Math.min(1000, input.transactions.length));
    for (const row of res.json.categorized) {
      const t = byId.get(row.id)!;
      const e = enrichTransaction(t.name, t.amount);
      expect(row).toEqual({
        id: t.transaction_id,
        category: e.category ?? UNCATEGORIZED,
        category_detailed: e.category_detailed ?? UNCATEGORIZED,
        confidence: e.confidence,
        decided_by: e.engine,
      });
    }
  });
});

describe('raw transactions payloads', () => {
  const netflix = ['2026-06-03', '2026-07-03', '2026-08-03', '2026-09-03', '2026-10-03', '2026-11-03'].map((date, i) => ({
    id: `nf${i}`,
    description: 'NETFLIX.COM 866-579-7172 CA',
    amount: 15.49,
    date,
  }));

  it('categorize: each row by id, the unknown ones uncategorized with confidence 0', async () => {
    const res = await post('/v1/ai/categorize', {
      transactions: [
        { id: 'a', description: 'NETFLIX.COM', amount: 15.49 },
        { id: 'b', description: 'SQ *BLUE BOTTLE COFFEE', amount: 4.5, date: '2026-11-01' },
        { id: 'c', description: 'ZXQV 8812 KLMP', amount: 12 },
      ],
    });
    expect(res.status).toBe(200);
    withoutEngine(res.json);
    expect(res.json.categorized).toEqual([
      { id: 'a', category: 'entertainment', category_detailed: 'entertainment_streaming', confidence: expect.any(Number), decided_by: 'rules' },
      { id: 'b', category: 'food_and_drink', category_detailed: 'food_and_drink_coffee', confidence: expect.any(Number), decided_by: 'rules' },
      { id: 'c', category: UNCATEGORIZED, category_detailed: UNCATEGORIZED, confidence: 0, decided_by: null },
    ]);
  });

  it('subscriptions: a monthly charge becomes a subscription with its annual cost', async () => {
    const res = await post('/v1/ai/subscriptions', { transactions: netflix });
    expect(res.status).toBe(200);
    withoutEngine(res.json);
    expect(res.json.subscriptions).toHaveLength(1);
    expect(res.json.subscriptions[0]).toMatchObject({ merchant: 'Netflix', cadence: 'monthly', last_amount: 15.49, annual_cost: 185.88, iso_currency_code: 'USD' });
    expect([...res.json.subscriptions[0].transaction_ids].sort()).toEqual(netflix.map((t) => t.id).sort());
  });

  it('cashflow: no balances, so the forecast starts from 0; the monthly charge drives it', async () => {
    // Today is 2026-11-21: the next charge, 2026-12-03, is inside a 20-day horizon.
    const res = await post('/v1/ai/cashflow', { transactions: netflix, horizon_days: 20 });
    expect(res.status).toBe(200);
    withoutEngine(res.json);
    expect(res.json).toMatchObject({ horizon_days: 20, balance_source: 'none', starting_balance: 0, account_ids: [] });
    expect(res.json.daily).toHaveLength(20);
    expect(res.json.drivers).toEqual([expect.objectContaining({ merchant: 'Netflix', direction: 'outflow', amount: 15.49, dates: ['2026-12-03'] })]);
  });

  it('fraud-risk: two identical charges minutes apart are a duplicate charge', async () => {
    const res = await post('/v1/ai/fraud-risk', {
      transactions: [
        ...netflix,
        { id: 'd1', description: 'BEST BUY 00012', amount: 89.99, date: '2026-11-20' },
        { id: 'd2', description: 'BEST BUY 00012', amount: 89.99, date: '2026-11-20' },
      ],
    });
    expect(res.status).toBe(200);
    withoutEngine(res.json);
    const duplicate = res.json.signals.find((s: Json) => s.type === 'duplicate_charge');
    expect(duplicate?.transaction_ids).toEqual(['d1', 'd2']);
    expect(['medium', 'high']).toContain(res.json.grade);
  });
});

describe('merchant', () => {
  it('resolves a known descriptor with the rules, and answers nulls for an unknown one', async () => {
    const known = await post('/v1/ai/merchant', { description: 'TST* SHELL OIL 57442', amount: 40 });
    expect(known.status).toBe(200);
    expect(withoutEngine(known.json)).toMatchObject({ merchant_name: 'Shell', category: 'transportation', category_detailed: 'transportation_fuel', decided_by: 'rules' });
    const unknown = await post('/v1/ai/merchant', { description: 'ZXQV 8812 KLMP' });
    expect(withoutEngine(unknown.json)).toEqual({ merchant_name: null, category: null, category_detailed: null, payment_channel: 'other', confidence: 0, decided_by: null });
  });
});

describe('consent and tokens', () => {
  it('answers 403 transactions_not_consented for an item without the transactions consent, on every item route', async () => {
    const identityOnly = await item(['identity']);
    const bodies: Record<string, Json> = {
      '/v1/ai/categorize': {},
      '/v1/ai/subscriptions': {},
      '/v1/ai/cashflow': {},
      '/v1/ai/fraud-risk': {},
      '/v1/ai/health-score': {},
      '/v1/ai/financial-summary': {},
      '/v1/ai/weekly-report': {},
      '/v1/ai/purchase-analysis': { purchase: { description: 'Bike', amount: 300 } },
    };
    for (const [path, extra] of Object.entries(bodies)) {
      const res = await post(path, { access_token: identityOnly.access_token, ...extra });
      expect({ path, status: res.status, code: res.json.error?.code }).toEqual({ path, status: 403, code: 'transactions_not_consented' });
    }
  });

  it('answers 400 invalid_access_token for an unknown token, also on the routes that take raw rows', async () => {
    for (const path of ['/v1/ai/categorize', '/v1/ai/fraud-risk', '/v1/ai/health-score']) {
      const res = await post(path, { access_token: 'fc_at_nosuchtoken' });
      expect({ path, status: res.status, code: res.json.error?.code }).toEqual({ path, status: 400, code: 'invalid_access_token' });
    }
  });
});

describe('bad input is a 400 with the error envelope, never a 500', () => {
  const row = (id: string, extra: Record<string, unknown> = {}) => ({ id, description: 'NETFLIX.COM', amount: 15.49, ...extra });
  const cases: Array<[string, string, unknown, number, string]> = [
    ['more than 1,000 rows', '/v1/ai/categorize', { transactions: Array.from({ length: 1001 }, (_, i) => row(`t${i}`)) }, 400, 'invalid_field'],
    ['an empty array', '/v1/ai/subscriptions', { transactions: [] }, 400, 'invalid_field'],
    ['duplicate ids', '/v1/ai/fraud-risk', { transactions: [row('same'), row('same')] }, 400, 'invalid_field'],
    ['both a token and rows', '/v1/ai/cashflow', { access_token: 'fc_at_abc123', transactions: [row('a')] }, 400, 'invalid_field'],
    ['neither a token nor rows', '/v1/ai/categorize', {}, 400, 'missing_field'],
    ['an amount that is not a number', '/v1/ai/categorize', { transactions: [row('a', { amount: '15.49' })] }, 400, 'invalid_field'],
    ['a description over the limit', '/v1/ai/categorize', { transactions: [row('a', { description: 'X'.repeat(501) })] }, 400, 'invalid_field'],
    ['a foreign field in a row', '/v1/ai/categorize', { transactions: [row('a', { mcc: '5411' })] }, 400, 'unknown_field'],
    ['a foreign top-level field', '/v1/ai/subscriptions', { transactions: [row('a')], model: 'gpt' }, 400, 'unknown_field'],
    ['a date that is not a date', '/v1/ai/categorize', { transactions: [row('a', { date: '2026-02-30' })] }, 400, 'invalid_field'],
    ['a horizon of 0 days', '/v1/ai/cashflow', { transactions: [row('a')], horizon_days: 0 }, 400, 'invalid_field'],
    ['a horizon over a year', '/v1/ai/cashflow', { transactions: [row('a')], horizon_days: 366 }, 400, 'invalid_field'],
    ['a fractional horizon', '/v1/ai/cashflow', { transactions: [row('a')], horizon_days: 1.5 }, 400, 'invalid_field'],
    ['an empty merchant descriptor', '/v1/ai/merchant', { description: '' }, 400, 'invalid_field'],
    ['a huge merchant descriptor', '/v1/ai/merchant', { description: 'Y'.repeat(100_000) }, 400, 'invalid_field'],
    ['a negative purchase', '/v1/ai/purchase-analysis', { access_token: 'fc_at_abc123', purchase: { description: 'Bike', amount: -5 } }, 400, 'invalid_field'],
    ['an unreal week end', '/v1/ai/weekly-report', { access_token: 'fc_at_abc123', week_ending: '2026-13-01' }, 400, 'invalid_field'],
    // Finite, but past what cents, sums of 1,000 rows and compounding keep finite.
    ['an amount beyond the limit', '/v1/ai/fraud-risk', { transactions: [row('a', { amount: 1e306 })] }, 400, 'invalid_field'],
    ['a negative amount beyond the limit', '/v1/ai/cashflow', { transactions: [row('a', { amount: -2e12 })] }, 400, 'invalid_field'],
    ['a purchase beyond the limit', '/v1/ai/purchase-analysis', { access_token: 'fc_at_abc123', purchase: { description: 'TV', amount: 1e308 } }, 400, 'invalid_field'],
    ['a merchant amount beyond the limit', '/v1/ai/merchant', { description: 'NETFLIX.COM', amount: 1e300 }, 400, 'invalid_field'],
  ];
  it.each(cases)('%s', async (_name, path, body, status, code) => {
    const res = await post(path, body);
    assertDocumentedError(res);
    expect({ status: res.status, code: res.json.error.code }).toEqual({ status, code });
  });

  it('an amount JSON can only write as infinity (1e400)', async () => {
    const res = await stack.call('/v1/ai/categorize', { key, rawBody: '{"transactions":[{"id":"a","description":"NETFLIX.COM","amount":1e400}]}', headers: { 'Content-Type': 'application/json' } });
    assertMatchesOpenApi('POST', '/v1/ai/categorize', res);
    expect({ status: res.status, code: res.json.error.code }).toEqual({ status: 400, code: 'invalid_field' });
  });

  it('1,000 rows of the longest descriptors are served', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(`t${i}`, { description: `NETFLIX.COM ${'Z'.repeat(480)} ${i}` }));
    const res = await post('/v1/ai/categorize', { transactions: rows });
    expect(res.status).toBe(200);
    expect(res.json.categorized.map((r: Json) => r.id)).toEqual(rows.map((r) => r.id));
  });
});

describe('metering', () => {
  it('counts each AI request on the AI quota, not the API quota', async () => {
    const at = () => new Date(clock.now());
    const before = await monthlyUsage(stack.deps, key, at());
    await post('/v1/ai/merchant', { description: 'NETFLIX.COM' });
    await post('/v1/ai/categorize', { transactions: [row2('x')] });
    const after = await monthlyUsage(stack.deps, key, at());
    expect(after).toEqual({ api: before.api, ai: before.ai + 2 });
    await post('/v1/categories/get', {});
    expect(await monthlyUsage(stack.deps, key, at())).toEqual({ api: before.api + 1, ai: before.ai + 2 });
  });
  const row2 = (id: string) => ({ id, description: 'NETFLIX.COM', amount: 15.49 });
});
