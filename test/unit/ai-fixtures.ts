// Inputs for the AI rules answers' tests: accounts, hand-built rows, raw payloads and one sandbox
// item (24 months, enriched the way ingestion enriches it).
import { enrich } from '../../functions/app/item-source';
import type { AccountRecord, TransactionRecord } from '../../functions/contracts/schemas';
import type { AiInput } from '../../functions/core/ai/input';
import { enrichDescriptor } from '../../functions/core/enrichment/rules';
import { generateSandboxItem, type SandboxItemData } from '../../functions/core/sandbox/generator';

export function account(account_id: string, type: AccountRecord['type'], current: number, o: { limit?: number; currency?: string } = {}): AccountRecord {
  return {
    account_id,
    name: account_id,
    official_name: account_id,
    type,
    subtype: type === 'credit' ? 'credit card' : type === 'depository' ? 'checking' : type,
    mask: '0000',
    balances: { current, available: current, limit: o.limit ?? null, iso_currency_code: o.currency ?? 'USD' },
    verification_status: 'verified',
  };
}

export const inputOf = (today: string, transactions: readonly TransactionRecord[], accounts: readonly AccountRecord[] | null = null): AiInput => ({
  today,
  transactions,
  accounts,
  recurring: null,
  income: null,
});

/** A raw AI payload row ({id, description, amount, date?}) mapped the way the use case maps it: enriched, on one pseudo account. */
export function rawRow(id: string, description: string, amount: number, date: string, currency = 'USD'): TransactionRecord {
  const e = enrichDescriptor(description, amount);
  return {
    transaction_id: id,
    account_id: 'raw',
    date,
    authorized_datetime: null,
    name: description,
    merchant_name: e.merchant_name,
    amount,
    iso_currency_code: currency,
    pending: false,
    category: e.category,
    category_detailed: e.category_detailed,
    payment_channel: e.payment_channel,
  };
}

const DAY = 86_400_000;
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

const DESCRIPTORS = [
  'STARBUCKS STORE 0412', 'WHOLEFDS MKT 10234', 'SHELL OIL 57442', 'UBER TRIP HELP.UBER.COM', 'AMAZON.COM*2K4LM',
  'TARGET 00012345', 'CHIPOTLE 1123', 'NETFLIX.COM', 'SPOTIFY USA', 'CVS/PHARMACY #0832', 'HOME DEPOT #4410', 'LYFT RIDE',
  'PAYROLL ACME CORP PPD', 'ZELLE TO J SMITH', 'COSTCO WHSE #0471', 'TRADER JOE S #552',
];

/** `count` raw rows over the 365 days before `today`: a deterministic mix of everyday descriptors, a payroll and a few subscriptions. */
export function rawPayload(count: number, today: string): TransactionRecord[] {
  let s = 12345;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const rows: TransactionRecord[] = [];
  for (let i = 0; i < count; i++) {
    const d = DESCRIPTORS[Math.floor(next() * DESCRIPTORS.length)];
    const amount = d.startsWith('PAYROLL') ? -2000 : d === 'NETFLIX.COM' ? 15.49 : Math.round(next() * 15000) / 100 + 1;
    rows.push(rawRow(`r${i}`, d, amount, addDays(today, -Math.floor(next() * 365))));
  }
  return rows;
}

const sandboxCache = new Map<string, { data: SandboxItemData; transactions: TransactionRecord[] }>();
/** A sandbox item's accounts and enriched transactions. */
export function sandboxItem(username: string, today: string, institutionId = 'ins_sandbox_first_bank') {
  const key = `${institutionId}|${username}|${today}`;
  let item = sandboxCache.get(key);
  if (!item) {
    const data = generateSandboxItem({ institutionId, username }, today);
    sandboxCache.set(key, (item = { data, transactions: data.transactions.map(enrich) }));
  }
  return { accounts: item.data.accounts, transactions: item.transactions, input: inputOf(today, item.transactions, item.data.accounts) };
}

/** The same rows in another order (a deterministic shuffle). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  let s = 99;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
