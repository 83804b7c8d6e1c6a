// Income detection (POST /v1/income/get): payroll, benefits, interest and other recurring inflows,
// found with the recurring-stream machinery (./recurring) run over income-like inflows only.
// Pure and deterministic: no I/O and no clock (`today` is an argument).
// Rules and the gross-from-net estimate: docs/recurring-income.md.
import type { z } from 'zod';
import type { IncomeStream as IncomeStreamSchema } from '../contracts/product-schemas';
import type { TransactionRecord } from '../contracts/schemas';
import { detectStreams, isPayrollDescriptor, round2, type DetectedStream } from './recurring';

export type IncomeStream = z.infer<typeof IncomeStreamSchema>;
export type IncomeKind = IncomeStream['kind'];

/** Detailed categories that are income, and the income kind each one gives. */
const INCOME_KIND_BY_CATEGORY: ReadonlyMap<string, IncomeKind> = new Map([
  ['income_wages', 'payroll'],
  ['income_benefits', 'benefits'],
  ['income_retirement', 'benefits'],
  ['income_interest', 'interest'],
  ['income_dividends', 'interest'],
  ['income_other', 'other'],
]);

/**
 * An inflow that may belong to an income stream: an income category other than refunds and tax
 * refunds, or an uncategorised inflow. Transfers (transfer_in_*: own accounts, people, loans), card
 * and loan payment credits, refunds and tax refunds are never income.
 */
export function isIncomeCandidate(t: TransactionRecord): boolean {
  if (t.pending || !(t.amount < 0)) return false;
  if (t.category_detailed === null) return true;
  return INCOME_KIND_BY_CATEGORY.has(t.category_detailed);
}

export function incomeKindOf(detailed: string | null, descriptor: string): IncomeKind {
  const kind = detailed === null ? undefined : INCOME_KIND_BY_CATEGORY.get(detailed);
  if (kind && kind !== 'other') return kind;
  return isPayrollDescriptor(descriptor) ? 'payroll' : 'other';
}

// ---------------------------------------------------------------------------------------------
// Employer name
// ---------------------------------------------------------------------------------------------

/** Payroll and transfer words that are not part of an employer's name. */
const PAYROLL_NOISE = new Set([
  'PAYROLL', 'PAYRL', 'DIRECT', 'DEP', 'DEPOSIT', 'DIR', 'DIRDEP', 'DES', 'SALARY', 'SALAIRE', 'GEHALT', 'LOHN', 'PAYCHECK', 'PAY',
  'VIR', 'VIREMENT', 'BGC', 'ACH', 'CREDIT', 'EDI', 'PYMT', 'PMT',
]);
/** Words after which an ACH record carries ids and the individual's name, never the employer's. */
const PAYROLL_STOP = new Set(['PPD', 'CCD', 'WEB', 'ID', 'INDN', 'TRACE', 'REF']);
const FIXED_CASE: ReadonlyMap<string, string> = new Map([
  ['LLC', 'LLC'], ['LLP', 'LLP'], ['PLC', 'PLC'], ['UK', 'UK'], ['US', 'US'], ['USA', 'USA'], ['SA', 'SA'], ['SAS', 'SAS'],
  ['SARL', 'SARL'], ['AG', 'AG'], ['NV', 'NV'], ['BV', 'BV'], ['GMBH', 'GmbH'], ['INC', 'Inc'], ['LTD', 'Ltd'], ['CORP', 'Corp'],
]);

function recase(token: string): string {
  const fixed = FIXED_CASE.get(token.toUpperCase());
  if (fixed) return fixed;
  if (token === token.toUpperCase() || token === token.toLowerCase()) return token.charAt(0).toUpperCase() + token.slice(1).toLowerCase();
  return token; // mixed case (DoorDash) is kept as the merchant table spells it
}

/**
 * The employer (payer) named by a payroll deposit: the merchant name when the rules engine found
 * one, else the descriptor, without payroll words, ids and the ACH trailer, in title case.
 * "PAYROLL ACME CORP PPD ID: 9876" -> "Acme Corp"; "ORIG CO NAME:GLOBEX INC ORIG ID:..." -> "Globex Inc".
 */
export function employerName(merchantName: string | null, descriptor: string): string | null {
  let source = merchantName?.trim() || descriptor;
  const orig = /CO NAME:\s*(.+?)\s+(ORIG ID|ORIG|CO ENTRY|DESC DATE|SEC:|$)/i.exec(source);
  if (!merchantName && orig) source = orig[1];
  const kept: string[] = [];
  for (const raw of source.split(/[\s/]+/)) {
    if (!raw) continue;
    if (raw.includes(':')) {
      // "DES:PAYROLL", "ID:123": a key-value field starts the trailer
      if (kept.length) break;
      continue;
    }
    const token = raw.replace(/^[^A-Za-z0-9&]+|[^A-Za-z0-9&.]+$/g, '').replace(/\.$/, '');
    if (!token) continue;
    const upper = token.toUpperCase();
    if (PAYROLL_STOP.has(upper) && kept.length) break;
    if (PAYROLL_NOISE.has(upper) || PAYROLL_STOP.has(upper) || /\d/.test(token) || /^X+$/i.test(token)) continue;
    kept.push(recase(token));
  }
  return kept.length ? kept.join(' ') : null;
}

// ---------------------------------------------------------------------------------------------
// Gross from net
// ---------------------------------------------------------------------------------------------

/**
 * Effective withholding (income tax, social insurance and typical pre-tax deductions) by annualized
 * net pay: a flat rate per band, picked on the annualized net. Deliberately simple; see the docs.
 */
export const WITHHOLDING_BANDS: ReadonlyArray<{ upToNet: number; rate: number }> = [
  { upToNet: 40_000, rate: 0.18 },
  { upToNet: 80_000, rate: 0.22 },
  { upToNet: 150_000, rate: 0.27 },
  { upToNet: Infinity, rate: 0.32 },
];

export function withholdingRate(annualNet: number): number {
  for (const band of WITHHOLDING_BANDS) if (annualNet <= band.upToNet) return band.rate;
  return WITHHOLDING_BANDS[WITHHOLDING_BANDS.length - 1].rate;
}

function money(annual: number, currency: string): string {
  const k = Math.round(annual / 1000);
  return currency === 'USD' ? `~$${k}k/yr` : `~${k}k ${currency}/yr`;
}

/** average_gross and its explanation for a stream's average net deposit. */
export function estimateGross(kind: IncomeKind, averageNet: number, perYear: number, currency: string): { gross: number; how: string } {
  if (kind !== 'payroll') {
    const why =
      kind === 'interest' ? 'interest and dividends are paid without withholding'
      : kind === 'benefits' ? 'benefits are assumed paid without withholding'
      : 'no withholding assumed on non-payroll income';
    return { gross: round2(averageNet), how: `equal to net: ${why}` };
  }
  const annualNet = averageNet * perYear;
  const rate = withholdingRate(annualNet);
  return {
    gross: round2(averageNet / (1 - rate)),
    how: `net / (1 - ${rate.toFixed(2)}): estimated withholding for ${money(annualNet, currency)} net`,
  };
}

// ---------------------------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------------------------

const KIND_ORDER: readonly IncomeKind[] = ['payroll', 'benefits', 'interest', 'other'];

export function toIncomeStream(s: DetectedStream): IncomeStream {
  const kind = incomeKindOf(s.representative.category_detailed, s.latest.name);
  const employer = kind === 'payroll' ? employerName(s.latest.merchant_name, s.latest.name) : null;
  const { gross, how } = estimateGross(kind, s.average_amount, s.spec.perYear, s.iso_currency_code);
  return {
    stream_id: `inc_${s.hash}`,
    kind,
    employer: employer ? { name: employer } : null,
    account_id: s.account_id,
    cadence: s.cadence,
    average_net: s.average_amount,
    average_gross: gross,
    gross_estimation: how,
    last_amount: s.last_amount,
    last_date: s.last_date,
    predicted_next_date: s.predicted_next_date,
    iso_currency_code: s.iso_currency_code,
    transaction_ids: s.transactions.map((t) => t.transaction_id),
    confidence: s.confidence,
  };
}

/**
 * Income streams in a transaction history, as of `today` (YYYY-MM-DD): recurring inflows that are
 * payroll, benefits, interest or other income (never transfers, refunds or card/loan payment
 * credits). Streams that have stopped are included; compare predicted_next_date with today.
 * Sorted by kind (payroll, benefits, interest, other), then average_net descending, then stream_id.
 */
export function detectIncome(txns: readonly TransactionRecord[], today: string): IncomeStream[] {
  const streams = detectStreams(txns.filter(isIncomeCandidate), today).filter((s) => s.direction === 'inflow').map(toIncomeStream);
  return streams.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      b.average_net - a.average_net ||
      (a.stream_id < b.stream_id ? -1 : a.stream_id > b.stream_id ? 1 : 0),
  );
}
