// Stored products (recurring, income) are served only under the exact version of their inputs:
// the feed's committed_seq, the date and the detection rules' version. These tests pin the two
// properties that version relies on.
import { createHash } from 'node:crypto';
import { DERIVATION_RULES_VERSION } from '../../functions/app/products';
import { detectIncome } from '../../functions/core/income';
import { detectRecurring } from '../../functions/core/recurring';
import { productVersion } from '../../functions/data/products-repo';
import { CARD, CHECKING, SAVINGS, months, transactionBuilder, ymd } from '../support/histories';

/**
 * What the detection rules answered for FIXTURE, per rules version. A stored product carries the
 * rules version it was computed by; if the rules' output changes while the version stays, items
 * keep being served what the old rules computed until their feed changes or the day ends.
 */
const FINGERPRINT_BY_RULES_VERSION: Record<number, string> = {
  1: '5b3aef113d53f509a995c4f659bfcc366ca602950475f5e3386bcc7e3c609e11',
};

/** A year of payroll, a subscription, a utility bill, interest and everyday spending. */
function fixture() {
  const txn = transactionBuilder(CHECKING);
  const rows = [];
  for (const [y, m] of months(2025, 1, 12)) {
    rows.push(txn(ymd(y, m, 15), -2450, `PAYROLL ACME CORP PPD ID: ${y}${m}15`, { detailed: 'income_wages' }));
    rows.push(txn(ymd(y, m, 28), -2450, `PAYROLL ACME CORP PPD ID: ${y}${m}28`, { detailed: 'income_wages' }));
    rows.push(txn(ymd(y, m, 9), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming', account: CARD }));
    rows.push(txn(ymd(y, m, 21), 80 + ((m * 37) % 40), 'CITY POWER AND LIGHT', { merchant: 'City Power', detailed: 'rent_and_utilities_gas_and_electricity' }));
    rows.push(txn(ymd(y, m, 1), -(3 + m / 10), 'INTEREST PAYMENT', { detailed: 'income_interest', account: SAVINGS }));
    rows.push(txn(ymd(y, m, 3 + ((m * 7) % 20)), 4 + m, 'SQ *BLUE BOTTLE', { merchant: 'Blue Bottle Coffee', detailed: 'food_and_drink_coffee', account: CARD }));
  }
  return rows;
}

describe('the detection rules version of stored products', () => {
  it('is bumped whenever the recurring or income output changes (pinned on a fixed history)', () => {
    const history = fixture();
    const recurring = detectRecurring(history, '2026-01-10');
    const income = detectIncome(history, '2026-01-10');
    // The fixture must exercise both detectors, or the pin would guard nothing.
    expect(recurring.map((s) => s.kind).sort()).toEqual(expect.arrayContaining(['bill', 'payroll', 'subscription']));
    expect(income.map((s) => s.kind).sort()).toEqual(expect.arrayContaining(['interest', 'payroll']));
    const fingerprint = createHash('sha256').update(JSON.stringify({ recurring, income })).digest('hex');
    // On failure: the rules' output changed. Bump DERIVATION_RULES_VERSION in
    // functions/app/products.ts and pin the new fingerprint under the new version.
    expect({ rules: DERIVATION_RULES_VERSION, fingerprint }).toEqual({ rules: DERIVATION_RULES_VERSION, fingerprint: FINGERPRINT_BY_RULES_VERSION[DERIVATION_RULES_VERSION] });
  });
});

describe('productVersion', () => {
  it('orders as strings in the order of (committed_seq, date, rules), which the conditional write relies on', () => {
    const ordered = [
      { committedSeq: 9, today: '2026-11-21', rules: 12 },
      { committedSeq: 10, today: '2026-11-20', rules: 1 },
      { committedSeq: 10, today: '2026-11-21', rules: 1 },
      { committedSeq: 10, today: '2026-11-21', rules: 2 },
      { committedSeq: 10, today: '2026-11-21', rules: 10 },
      { committedSeq: 123_456_789_012, today: '2026-01-01', rules: 1 },
    ].map(productVersion);
    expect([...ordered].sort()).toEqual(ordered);
    expect(new Set(ordered).size).toBe(ordered.length);
  });
});
