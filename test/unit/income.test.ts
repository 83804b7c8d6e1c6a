// Income detection on hand-built histories with known answers, plus one real sandbox history.
// Rules and the gross-from-net estimate: docs/recurring-income.md.
import fc from 'fast-check';
import { enrich } from '../../functions/app/item-source';
import { IncomeStream } from '../../functions/contracts/product-schemas';
import { detectIncome, employerName, estimateGross, withholdingRate, type IncomeStream as Stream } from '../../functions/core/income';
import { detectRecurring } from '../../functions/core/recurring';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { CARD, CHECKING, SAVINGS, addDays, fridayBefore, ids, lastDay, months, transactionBuilder, ymd } from '../support/histories';

const txn = transactionBuilder(CHECKING);



const only = (streams: Stream[]) => {
  expect(streams).toHaveLength(1);
  return streams[0];
};

const biweeklyAcme = () =>
  Array.from({ length: 13 }, (_, i) => txn(addDays('2025-01-03', 14 * i), -2000, `PAYROLL ACME CORP PPD ID: ${9876000 + i}`, { detailed: 'income_wages' }));

describe('detectIncome: hand-built histories', () => {
  test('biweekly payroll: employer, cadence, net and estimated gross', () => {
    const deposits = biweeklyAcme();
    const s = only(detectIncome(deposits, '2025-06-25'));
    expect(s).toEqual({
      stream_id: expect.stringMatching(/^inc_[0-9a-f]{20}$/),
      kind: 'payroll',
      employer: { name: 'Acme Corp' },
      account_id: CHECKING,
      cadence: 'biweekly',
      average_net: 2000,
      // 2,000 x 26 = 52,000 a year net: the 22% band; 2000 / 0.78 = 2564.1025...
      average_gross: 2564.1,
      gross_estimation: 'net / (1 - 0.22): estimated withholding for ~$52k/yr net',
      last_amount: 2000,
      last_date: '2025-06-20',
      predicted_next_date: '2025-07-04',
      iso_currency_code: 'USD',
      transaction_ids: ids(deposits),
      confidence: 1,
    });
    // the same stream as the recurring product, under its own prefix
    const rec = detectRecurring(deposits, '2025-06-25')[0];
    expect(s.stream_id.slice(4)).toBe(rec.stream_id.slice(4));
    expect(IncomeStream.parse(s)).toEqual(s);
  });

  test('semi-monthly payroll from an ACH record: employer from CO NAME, Friday before a weekend', () => {
    const descriptor = 'ORIG CO NAME:GLOBEX INC ORIG ID:1234567890 DESC DATE:250115 CO ENTRY DESCR:PAYROLL SEC:PPD TRACE#:021000021234567 EED:250115 IND ID:12345678 IND NAME:JANE DOE';
    const deposits = months(2025, 1, 8)
      .flatMap(([y, m]) => [ymd(y, m, 15), ymd(y, m, lastDay(y, m))])
      .slice(0, 15)
      .map((d) => txn(fridayBefore(d), -3000, descriptor, { detailed: 'income_wages' }));
    const s = only(detectIncome(deposits, '2025-08-20'));
    expect(s).toMatchObject({
      kind: 'payroll',
      employer: { name: 'Globex Inc' },
      cadence: 'semi_monthly',
      average_net: 3000,
      average_gross: 3846.15,
      gross_estimation: 'net / (1 - 0.22): estimated withholding for ~$72k/yr net',
      predicted_next_date: '2025-08-29',
    });
    expect(s.transaction_ids).toEqual(ids(deposits));
  });

  test('monthly payroll with varying net pay: mean of the deposits, 18% band, other currency', () => {
    const nets = [2480, 2520, 2500, 2510, 2490, 2500];
    const deposits = months(2025, 1, 6).map(([y, m], i) => txn(ymd(y, m, 25), -nets[i], 'LOHN/GEHALT ACME GMBH', { merchant: 'Gehalt Acme Gmbh', detailed: 'income_wages', currency: 'EUR' }));
    const s = only(detectIncome(deposits, '2025-07-01'));
    expect(s).toMatchObject({
      kind: 'payroll',
      employer: { name: 'Acme GmbH' },
      cadence: 'monthly',
      average_net: 2500,
      average_gross: 3048.78,
      gross_estimation: 'net / (1 - 0.18): estimated withholding for ~30k EUR/yr net',
      last_amount: 2500,
      iso_currency_code: 'EUR',
    });
  });

  test('payroll recognised by its descriptor when uncategorised', () => {
    const deposits = months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 1), -7000, 'HOOLI INC DIRECT DEP', { detailed: null }));
    const s = only(detectIncome(deposits, '2025-06-10'));
    // 84,000 a year net: the 27% band
    expect(s).toMatchObject({ kind: 'payroll', employer: { name: 'Hooli Inc' }, average_gross: 9589.04 });
  });

  test('benefits, interest and other recurring inflows; gross equals net', () => {
    const benefits = months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 3), -1420, 'SSA TREAS 310 XXSOC SEC', { detailed: 'income_benefits' }));
    const interest = months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, lastDay(y, m)), -(40 + m), 'INTEREST PAYMENT', { account: SAVINGS, detailed: 'income_interest' }));
    const tenant = months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 5), -1200, 'MOBILE DEPOSIT J SMITH', { detailed: null }));
    const streams = detectIncome([...interest, ...tenant, ...benefits], '2025-07-01');
    expect(streams.map((s) => [s.kind, s.employer, s.average_net, s.average_gross])).toEqual([
      ['benefits', null, 1420, 1420],
      ['interest', null, 43.5, 43.5],
      ['other', null, 1200, 1200],
    ]);
    expect(streams[1].gross_estimation).toBe('equal to net: interest and dividends are paid without withholding');
    expect(streams[0].gross_estimation).toMatch(/^equal to net: /);
    expect(streams[1].transaction_ids).toEqual(ids(interest));
  });

  test('transfers between own accounts, person-to-person money, card payments and refunds are not income', () => {
    const notIncome = [
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 2), -500, 'ONLINE TRANSFER FROM SAV XXXXXX5242', { detailed: 'transfer_in_savings' })),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 4), -800, 'ONLINE TRANSFER FROM CHK XXXXXX8909', { account: SAVINGS, detailed: 'transfer_in_account_transfer' })),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 1), -900, 'ZELLE PAYMENT FROM ROOMMATE', { merchant: 'Zelle', detailed: 'transfer_in_p2p' })),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 22), -1500, 'AUTOMATIC PAYMENT - THANK YOU', { account: CARD, detailed: 'loan_payments_credit_card' })),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 9), -15.49, 'NETFLIX.COM', { account: CARD, merchant: 'Netflix', detailed: 'income_refunds' })),
      txn('2024-03-20', -1200, 'IRS TREAS 310 TAX REF', { merchant: 'IRS', detailed: 'income_tax_refund' }),
      txn('2025-03-20', -1150, 'IRS TREAS 310 TAX REF', { merchant: 'IRS', detailed: 'income_tax_refund' }),
    ];
    expect(detectIncome(notIncome, '2025-07-01')).toEqual([]);
    // they are still recurring streams (kind other)
    const rec = detectRecurring(notIncome, '2025-07-01');
    expect(rec.length).toBeGreaterThanOrEqual(4);
    expect(rec.every((s) => s.kind === 'other')).toBe(true);
  });

  test('pending deposits are ignored; outflows never count', () => {
    const deposits = biweeklyAcme();
    const pending = txn('2025-07-04', -2000, 'PAYROLL ACME CORP PPD ID: 1', { detailed: 'income_wages', pending: true });
    const reversal = txn('2025-06-21', 2000, 'PAYROLL ACME CORP REVERSAL', { detailed: 'income_wages' });
    const s = only(detectIncome([pending, ...deposits, reversal], '2025-07-05'));
    expect(s.transaction_ids).toEqual(ids(deposits));
  });

  test('sorted payroll, benefits, interest, other; deterministic whatever the order', () => {
    const txns = [
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 5), -300, 'MOBILE DEPOSIT TENANT', { detailed: null })),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, lastDay(y, m)), -12.5, 'INTEREST PAYMENT', { account: SAVINGS, detailed: 'income_interest' })),
      ...biweeklyAcme(),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 28), -450, 'ACME PENSION FUND', { detailed: 'income_retirement' })),
      ...months(2025, 1, 6).map(([y, m]) => txn(ymd(y, m, 15), -900, 'UMBRELLA CORP PAYROLL', { detailed: 'income_wages' })),
    ];
    const streams = detectIncome(txns, '2025-07-01');
    expect(streams.map((s) => [s.kind, s.employer?.name ?? null])).toEqual([
      ['payroll', 'Acme Corp'],
      ['payroll', 'Umbrella Corp'],
      ['benefits', null],
      ['interest', null],
      ['other', null],
    ]);
    for (const s of streams) expect(IncomeStream.parse(s)).toEqual(s);
    fc.assert(
      fc.property(fc.shuffledSubarray(txns, { minLength: txns.length, maxLength: txns.length }), (shuffled) => {
        expect(detectIncome(shuffled, '2025-07-01')).toEqual(streams);
      }),
      { numRuns: 20, seed: 7 },
    );
  });
});

describe('income helpers', () => {
  test('employer names from merchant names and raw descriptors', () => {
    expect(employerName(null, 'PAYROLL ACME CORP PPD ID: 9876')).toBe('Acme Corp');
    expect(employerName(null, 'ACME CORP DIRECT DEP PPD ID: 1234567890')).toBe('Acme Corp');
    expect(employerName(null, 'GLOBEX INC DES:PAYROLL ID:281101358 INDN:MARIA GARCIA CO ID:5534212435 PPD')).toBe('Globex Inc');
    expect(employerName(null, 'ORIG CO NAME:HOOLI INC ORIG ID:1234567890 DESC DATE:250101 CO ENTRY DESCR:PAYROLL SEC:PPD')).toBe('Hooli Inc');
    expect(employerName(null, 'BGC INITECH LTD SALARY')).toBe('Initech Ltd');
    expect(employerName(null, 'PAYROLL DEP INITECH LLC')).toBe('Initech LLC');
    expect(employerName('Vir Globex Sa', 'VIR SALAIRE GLOBEX SA')).toBe('Globex SA');
    expect(employerName('Gehalt Acme Gmbh', 'LOHN/GEHALT ACME GMBH')).toBe('Acme GmbH');
    expect(employerName('Acme Uk LTD', 'ACME UK LTD SALARY BGC')).toBe('Acme UK Ltd');
    expect(employerName('DoorDash', 'DOORDASH PAYOUT')).toBe('DoorDash');
    expect(employerName(null, 'PAYROLL 123456')).toBeNull();
  });

  test('withholding bands on annualized net pay', () => {
    expect(withholdingRate(30_000)).toBe(0.18);
    expect(withholdingRate(40_000)).toBe(0.18);
    expect(withholdingRate(40_000.01)).toBe(0.22);
    expect(withholdingRate(80_000)).toBe(0.22);
    expect(withholdingRate(150_000)).toBe(0.27);
    expect(withholdingRate(150_001)).toBe(0.32);
    // 7,000 biweekly = 182,000 a year net: 7000 / 0.68 = 10294.117...
    expect(estimateGross('payroll', 7000, 26, 'USD')).toEqual({ gross: 10294.12, how: 'net / (1 - 0.32): estimated withholding for ~$182k/yr net' });
    expect(estimateGross('interest', 12.34, 12, 'USD').gross).toBe(12.34);
  });
});

describe('detectIncome: sandbox history', () => {
  const TODAY = '2026-07-01';
  const data = generateSandboxItem({ institutionId: 'ins_sandbox_first_bank', username: 'user_good' }, TODAY);
  const txns = data.transactions.map(enrich);
  const streams = detectIncome(txns, TODAY);

  test('one payroll stream from the employer, exactly the payroll deposits, plus savings interest', () => {
    const payroll = streams.filter((s) => s.kind === 'payroll');
    expect(payroll).toHaveLength(1);
    const deposits = txns.filter((t) => t.category_detailed === 'income_wages' && t.amount < 0 && !t.pending);
    expect([...payroll[0].transaction_ids].sort()).toEqual(ids(deposits).sort());
    expect(payroll[0].employer).toEqual({ name: 'Globex Inc' });
    expect(payroll[0].average_gross).toBeGreaterThan(payroll[0].average_net);
    expect(payroll[0].gross_estimation).toMatch(/^net \/ \(1 - 0\.(18|22|27|32)\): estimated withholding for ~\$\d+k\/yr net$/);
    expect(streams.some((s) => s.kind === 'interest')).toBe(true);
    for (const s of streams) expect(IncomeStream.parse(s)).toEqual(s);
  });

  test('no transfer, card payment or refund is counted as income', () => {
    const byId = new Map(txns.map((t) => [t.transaction_id, t]));
    for (const s of streams) {
      for (const id of s.transaction_ids) {
        const c = byId.get(id)!.category_detailed ?? '';
        expect(c.startsWith('transfer_') || c.startsWith('loan_payments_') || c === 'income_refunds' || c === 'income_tax_refund').toBe(false);
      }
    }
  });
});
