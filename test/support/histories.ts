// Builders for hand-made transaction histories (recurring and income detection tests).
import { primaryOf } from '../../functions/core/taxonomy';
import type { StoredTransaction } from '../../functions/data/feed-repo';

export const CHECKING = 'acct_checking';
export const CARD = 'acct_card';
export const SAVINGS = 'acct_savings';

export interface TxnOptions {
  merchant?: string | null;
  detailed?: string | null;
  account?: string;
  pending?: boolean;
  currency?: string;
}

/** A transaction builder with its own id sequence; rows land on `defaultAccount` unless told. */
export function transactionBuilder(defaultAccount: string) {
  let seq = 0;
  return (date: string, amount: number, name: string, o: TxnOptions = {}): StoredTransaction => {
    seq += 1;
    const detailed = o.detailed ?? null;
    return {
      transaction_id: `txn_${String(seq).padStart(6, '0')}`,
      account_id: o.account ?? defaultAccount,
      date,
      authorized_datetime: null,
      name,
      merchant_name: o.merchant ?? null,
      amount,
      iso_currency_code: o.currency ?? 'USD',
      pending: o.pending ?? false,
      category: detailed ? (primaryOf(detailed) ?? null) : null,
      category_detailed: detailed,
      payment_channel: 'other',
    };
  };
}

const DAY = 86_400_000;
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
export const dow = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
export const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
export const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
/** Moved back to Friday when it falls on a weekend (payroll convention). */
export const fridayBefore = (date: string) => (dow(date) === 6 ? addDays(date, -1) : dow(date) === 0 ? addDays(date, -2) : date);
export const ids = (txns: StoredTransaction[]) => txns.map((t) => t.transaction_id);

/** Months from (y, m) for `count` months. */
export function months(y: number, m: number, count: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const t = y * 12 + (m - 1) + i;
    out.push([Math.floor(t / 12), (t % 12) + 1]);
  }
  return out;
}
