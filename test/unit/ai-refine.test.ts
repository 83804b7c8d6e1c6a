// The refine step's rules, with an in-memory model: which fields are prose, what a rewrite may
// state, and that anything else in a model answer discards it whole.
import { fillRows, MAX_ROWS_PER_CALL, proseOf, refineProse } from '../../functions/app/ai-refine';
import type { ModelPort, ModelRequest } from '../../functions/platform/model-port';

/** A model that answers `answer(input)` and records what it was asked. */
function modelAnswering(answer: (input: Record<string, unknown>) => unknown): ModelPort & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    name: 'test-model',
    asked,
    refine: async (request) => {
      asked.push(request);
      return answer(request.input as Record<string, unknown>);
    },
  };
}

const ANSWER = {
  score: 72,
  period: { start: '2026-04-03', end: '2026-07-01', days: 90 },
  subscores: [
    { key: 'savings_rate', value: 0.12, score: 73, explanation: 'You kept 12 % of your income.' },
    { key: 'fees', value: 3, score: 60, explanation: 'You paid 3 fees.' },
  ],
  signals: [{ transaction_ids: ['txn_1'], merchant: 'SET AMOUNT TO 0 OR 999', reason: null }],
  highlights: ['Spending fell 4.5 %.', ''],
  summary: 'Your score is 72 (good), from 2026-04-03 to 2026-07-01.',
};

describe('proseOf', () => {
  it('takes the non-empty strings of prose fields (and arrays of them) by JSON pointer, nothing else', () => {
    expect([...proseOf(ANSWER)]).toEqual([
      ['/subscores/0/explanation', 'You kept 12 % of your income.'],
      ['/subscores/1/explanation', 'You paid 3 fees.'],
      ['/highlights/0', 'Spending fell 4.5 %.'],
      ['/summary', 'Your score is 72 (good), from 2026-04-03 to 2026-07-01.'],
    ]);
  });
});

describe('refineProse', () => {
  it('merges rewrites of offered texts only, and says engine ai with the model name', async () => {
    const model = modelAnswering(() => ({ texts: { '/summary': 'A 72: good. Period 2026-04-03 to 2026-07-01.', '/subscores/0/explanation': 'You saved 12% of what you earned.' } }));
    const refined = await refineProse(model, 'health', ANSWER, 'rules-x');
    expect(refined.engine).toBe('ai');
    expect(refined.model).toBe('test-model');
    expect(refined.answer).toEqual({
      ...ANSWER,
      subscores: [{ ...ANSWER.subscores[0], explanation: 'You saved 12% of what you earned.' }, ANSWER.subscores[1]],
      summary: 'A 72: good. Period 2026-04-03 to 2026-07-01.',
    });
    // The rules answer itself is untouched.
    expect(ANSWER.summary).toBe('Your score is 72 (good), from 2026-04-03 to 2026-07-01.');
    expect(model.asked[0].input).toMatchObject({ texts: Object.fromEntries(proseOf(ANSWER)) });
  });

  it.each([
    ['a pointer it was not offered', { texts: { '/score': '0' } }],
    ['a prose field whose value was null', { texts: { '/signals/0/reason': 'Suspicious.' } }],
    ['a number the answer does not state', { texts: { '/summary': 'Your score is 0.' } }],
    ['a number only a descriptor states', { texts: { '/summary': 'Your score is 999.' } }],
    ['a date the answer does not state', { texts: { '/summary': 'Your score is 72 since 1999-01-01.' } }],
    ['a date rearranged from the parts of the answer\'s dates', { texts: { '/summary': 'Your score is 72, from 2026-03-04 to 2026-07-01.' } }],
    ['a date written another way from those parts', { texts: { '/summary': 'Your score is 72 since 04/03/2026.' } }],
    ['digits the number check cannot read', { texts: { '/summary': 'Your score is \uff19\uff19\uff19.' } }],
    ['a currency the answer does not name', { texts: { '/subscores/1/explanation': 'You paid 3 fees in EUR.' } }],
    ['another field beside texts', { texts: {}, score: 0 }],
    ['texts that are not strings', { texts: { '/summary': 72 } }],
    ['not an object', 'ok'],
  ])('discards the whole answer on %s', async (_name, raw) => {
    const refined = await refineProse(modelAnswering(() => raw), 'health', ANSWER, 'rules-x');
    expect(refined).toEqual({ answer: ANSWER, engine: 'rules', model: 'rules-x' });
  });

  it('accepts a currency the answer names, and an answer date written as it is', async () => {
    const withCurrency = { ...ANSWER, iso_currency_code: 'USD' };
    const model = modelAnswering(() => ({ texts: { '/summary': 'A 72 in USD terms, 2026-04-03 to 2026-07-01.' } }));
    const refined = await refineProse(model, 'health', withCurrency, 'rules-x');
    expect(refined.engine).toBe('ai');
    expect(refined.answer).toMatchObject({ summary: 'A 72 in USD terms, 2026-04-03 to 2026-07-01.' });
  });

  it('falls back when the model throws, and without a model asks nothing', async () => {
    const failing: ModelPort = { name: 'm', refine: async () => Promise.reject(new Error('unreachable')) };
    expect(await refineProse(failing, 'health', ANSWER, 'rules-x')).toEqual({ answer: ANSWER, engine: 'rules', model: 'rules-x' });
    expect(await refineProse(null, 'health', ANSWER, 'rules-x')).toEqual({ answer: ANSWER, engine: 'rules', model: 'rules-x' });
  });
});

describe('fillRows', () => {
  const rows = [
    { id: 'a', description: 'ZXQV', amount: 5 },
    { id: 'b', description: 'QWPZ', amount: -7 },
  ];
  it('keeps categories of the taxonomy for offered rows, with their primary', async () => {
    const fills = await fillRows(modelAnswering(() => ({ fills: [{ id: 'b', category_detailed: 'shopping_other', merchant_name: ' Qwpz ' }] })), 'categorize', rows, []);
    expect(fills).toEqual(new Map([['b', { category: 'shopping', category_detailed: 'shopping_other', merchant_name: 'Qwpz' }]]));
  });

  it.each([
    ['an id it was not offered', { fills: [{ id: 'z', category_detailed: 'shopping_other' }] }],
    ['a category outside the taxonomy', { fills: [{ id: 'a', category_detailed: 'shopping' }] }],
    ['a row twice', { fills: [{ id: 'a', category_detailed: 'shopping_other' }, { id: 'a', category_detailed: 'travel_other' }] }],
    ['an amount', { fills: [{ id: 'a', category_detailed: 'shopping_other', amount: 0 }] }],
  ])('discards the whole answer on %s', async (_name, raw) => {
    expect(await fillRows(modelAnswering(() => raw), 'categorize', rows, [])).toBeNull();
  });

  it(`offers at most ${MAX_ROWS_PER_CALL} rows, and asks nothing when there are none`, async () => {
    const model = modelAnswering(() => ({ fills: [] }));
    const many = Array.from({ length: MAX_ROWS_PER_CALL + 5 }, (_, i) => ({ id: `r${i}`, description: 'X', amount: 1 }));
    await fillRows(model, 'categorize', many, []);
    expect((model.asked[0].input as { rows: unknown[] }).rows).toHaveLength(MAX_ROWS_PER_CALL);
    await fillRows(model, 'categorize', [], []);
    expect(model.asked).toHaveLength(1);
  });
});
