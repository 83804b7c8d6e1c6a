// What every rules answer of the AI endpoints is computed from. The caller (the use case) loads an
// item's data, or maps a raw `transactions` payload to TransactionRecord rows with enrichment, and
// passes it here; the functions in this folder are pure: no I/O and no clock.
import type { AccountRecord, TransactionRecord } from '../../contracts/schemas';
import { detectIncome, type IncomeStream } from '../income';
import { detectRecurring, type RecurringStream } from '../recurring';

export interface AiInput {
  /** YYYY-MM-DD: the day the answer is for. */
  today: string;
  /** Enriched rows (category etc. may be null), any order: an item's history or a raw payload mapped to rows. */
  transactions: readonly TransactionRecord[];
  /** The item's accounts, or null for a raw transactions payload (no balances). */
  accounts: readonly AccountRecord[] | null;
  /** The item's stored recurring streams, or null to detect them from `transactions`. */
  recurring: readonly RecurringStream[] | null;
  /** The item's stored income streams, or null to detect them from `transactions`. */
  income: readonly IncomeStream[] | null;
}

/** The recurring streams of an input: the stored ones, or detected from its transactions. */
export function recurringOf(input: AiInput): readonly RecurringStream[] {
  return input.recurring ?? detectRecurring(input.transactions, input.today);
}

/** The income streams of an input: the stored ones, or detected from its transactions. */
export function incomeOf(input: AiInput): readonly IncomeStream[] {
  return input.income ?? detectIncome(input.transactions, input.today);
}
