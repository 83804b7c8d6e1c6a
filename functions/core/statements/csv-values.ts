// Cell readers for CSV statements: amounts written every way banks write them, and dates whose
// format is decided per FILE (a day above 12 anywhere settles day/month order for every row; where
// nothing does, the caller's hint from earlier files of the same item).

import { addDecimals } from './decimal';
import type { StatementDateOrder, StatementDateOrderSource } from './types';

/** Unambiguous currency symbols; `$`, `¥` and `kr` name several currencies and so state none. */
const CURRENCY_SYMBOLS: Array<[string, string]> = [
  ['R$', 'BRL'],
  ['zł', 'PLN'],
  ['£', 'GBP'],
  ['€', 'EUR'],
  ['₹', 'INR'],
  ['₩', 'KRW'],
  ['₺', 'TRY'],
  ['₽', 'RUB'],
  ['₴', 'UAH'],
  ['₪', 'ILS'],
  ['฿', 'THB'],
  ['₱', 'PHP'],
  ['₫', 'VND'],
  ['Kč', 'CZK'],
  ['Ft', 'HUF'],
];

/** ISO 4217 codes (current and recently retired) a statement may name, to tell them from other three-letter codes. */
export const KNOWN_CURRENCIES = new Set(
  (
    'AED ARS AUD BGN BHD BRL CAD CHF CLP CNY COP CZK DKK EEK EGP EUR GBP HKD HRK HUF IDR ILS INR ISK JPY KES KRW KWD ' +
    'LKR LTL LVL MAD MXN MYR NGN NOK NZD PEN PHP PKR PLN QAR RON RSD RUB SAR SEK SGD SKK THB TRY TWD UAH USD UYU VND ZAR ' +
    'BTC ETH USDT USDC'
  ).split(' '),
);

export type DecimalMark = '.' | ',';

export interface ReadAmount {
  /** Exact decimal, `-` for negatives, no thousands marks, at least one digit before the point. */
  value: string;
  /** The sign the cell wrote itself: '+' / '-' (or parentheses, CR/DR suffix), null when unsigned. */
  explicitSign: '+' | '-' | null;
  currency: string | null;
}

/** What a cell's digits say about the decimal mark: a vote, or null when it cannot tell (`1,234`). */
export function decimalMarkVote(raw: string): DecimalMark | null {
  const digits = raw.replace(/[^0-9.,]/g, '');
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? '.' : ',';
  const mark = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : null;
  if (!mark) return null;
  const parts = digits.split(mark);
  if (parts.length > 2) return mark === '.' ? ',' : '.';
  const after = parts[1] ?? '';
  if (after.length !== 3 || parts[0] === '' || parts[0] === '0' || parts[0] === '-') return mark;
  return null;
}

export function readAmount(raw: string, decimalMark: DecimalMark): ReadAmount | null {
  let text = raw.trim().replace(/^'(.*)'$/, '$1').trim();
  if (text === '') return null;
  let negative = false;
  let explicitSign: '+' | '-' | null = null;
  let currency: string | null = null;

  const paren = /^\((.*)\)$/.exec(text);
  if (paren) {
    negative = true;
    explicitSign = '-';
    text = paren[1]!.trim();
  }
  const suffix = /\s*\b(CR|DR|Cr|Dr|H|S)$/.exec(text);
  if (suffix && /\d/.test(text.slice(0, suffix.index))) {
    const marker = suffix[1]!.toUpperCase();
    negative = marker === 'DR' || marker === 'S';
    explicitSign = negative ? '-' : '+';
    text = text.slice(0, suffix.index);
  }
  for (const [symbol, code] of CURRENCY_SYMBOLS) {
    if (text.includes(symbol)) {
      currency = code;
      text = text.replace(symbol, '');
      break;
    }
  }
  const code = /\b([A-Z]{3})\b/.exec(text);
  if (code && KNOWN_CURRENCIES.has(code[1]!)) {
    currency = code[1]!;
    text = text.replace(code[1]!, '');
  }
  // `$`, `US$`, `CA$` and the like: a dollar, but not which one.
  text = text.replace(/[A-Z]{0,2}\$/, '').trim();

  const signs = /^([+-]?)\s*(.*?)\s*([+-]?)$/.exec(text);
  if (!signs) return null;
  const [, leading, body, trailing] = signs;
  if (leading && trailing) return null;
  const sign = leading || trailing;
  if (sign) {
    if (explicitSign === '-' && sign === '-') return null;
    explicitSign = sign === '-' || negative ? '-' : '+';
    negative = explicitSign === '-';
  }
  const thousands = decimalMark === '.' ? /[,'\u2019\s\u00a0\u202f]/g : /[.'\u2019\s\u00a0\u202f]/g;
  const compact = body!.replace(thousands, '');
  const number = decimalMark === '.' ? compact : compact.replace(',', '.');
  const parts = /^(\d*)(?:\.(\d*))?$/.exec(number);
  if (!parts || (parts[1] === '' && !parts[2])) return null;
  const whole = (parts[1] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = parts[2] ?? '';
  const unsigned = fraction ? `${whole}.${fraction}` : whole;
  const isZero = !/[1-9]/.test(unsigned);
  return { value: negative && !isZero ? `-${unsigned}` : unsigned, explicitSign, currency };
}

export function negateDecimal(value: string): string {
  if (value.startsWith('-')) return value.slice(1);
  return /[1-9]/.test(value) ? `-${value}` : value;
}

/** Subtracts two exact decimals (credit minus debit columns) without floating point. */
export function subtractDecimals(left: string, right: string): string {
  return addDecimals(left, negateDecimal(right));
}


// ---------------------------------------------------------------------------------------------------
// Dates

export type DateOrder = 'dmy' | 'mdy';

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: string[][] = [
  ['jan', 'january', 'januar', 'janvier', 'janv', 'januari', 'ene', 'enero', 'gen', 'gennaio', 'sty'],
  ['feb', 'february', 'februar', 'fevrier', 'fevr', 'fev', 'februari', 'febrero', 'febbraio', 'lut'],
  ['mar', 'march', 'marz', 'maerz', 'mars', 'mrt', 'maart', 'marzo', 'mär'],
  ['apr', 'april', 'avril', 'avr', 'abr', 'abril', 'aprile', 'kwi'],
  ['may', 'mai', 'mei', 'mayo', 'mag', 'maggio', 'maj'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giu', 'giugno', 'cze'],
  ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'lug', 'luglio', 'lip'],
  ['aug', 'august', 'aout', 'augustus', 'ago', 'agosto', 'sie'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'set', 'settembre', 'wrz'],
  ['oct', 'october', 'okt', 'oktober', 'octobre', 'octubre', 'ott', 'ottobre', 'paz'],
  ['nov', 'november', 'novembre', 'noviembre', 'lis'],
  ['dec', 'december', 'dez', 'dezember', 'decembre', 'dic', 'diciembre', 'dicembre', 'gru'],
];
MONTH_NAMES.forEach((names, index) => names.forEach((name) => (MONTHS[name] = index + 1)));

function monthNumber(name: string): number | null {
  const key = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  return MONTHS[key] ?? null;
}

/** The date-like token a cell starts with, split into its parts; null when the cell holds no date. */
type DateShape =
  // `named`: the month is written as a name, in the order the cell puts day and month.
  | { kind: 'ymd'; year: number; month: number; day: number; named?: DateOrder }
  | { kind: 'ambiguous'; first: number; second: number; year: number };

function expandYear(year: string): number {
  const value = Number(year);
  if (year.length === 4) return value;
  // Two-digit years: statements are recent, so 00-69 means 2000-2069.
  return value < 70 ? 2000 + value : 1900 + value;
}

function shapeOf(raw: string): DateShape | null {
  const text = raw.trim().replace(/^'(.*)'$/, '$1');
  let match = /^(\d{4})[-/.:](\d{1,2})[-/.:](\d{1,2})(?:\.|(?=$|[\sT]))/.exec(text);
  if (match) return { kind: 'ymd', year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  match = /^(\d{4})(\d{2})(\d{2})(?=$|[\sT])/.exec(text);
  if (match) return { kind: 'ymd', year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  match = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?=$|[\s,T.])/.exec(text);
  if (match) return { kind: 'ambiguous', first: Number(match[1]), second: Number(match[2]), year: expandYear(match[3]!) };
  match = /^(\d{1,2})[-/. ]+([A-Za-zÀ-ÿ]{3,9})\.?[-/. ,]+(\d{4}|\d{2})(?=$|[\s,T])/.exec(text);
  if (match) {
    const month = monthNumber(match[2]!);
    if (month) return { kind: 'ymd', year: expandYear(match[3]!), month, day: Number(match[1]), named: 'dmy' };
  }
  match = /^([A-Za-zÀ-ÿ]{3,9})\.?[-/. ]+(\d{1,2}),?[-/. ]+(\d{4})(?=$|[\s,T])/.exec(text);
  if (match) {
    const month = monthNumber(match[1]!);
    if (month) return { kind: 'ymd', year: Number(match[3]), month, day: Number(match[2]), named: 'mdy' };
  }
  return null;
}

function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function looksLikeDate(raw: string): boolean {
  const shape = shapeOf(raw);
  if (!shape) return false;
  if (shape.kind === 'ymd') return isoDate(shape.year, shape.month, shape.day) !== null;
  return isoDate(shape.year, shape.second, shape.first) !== null || isoDate(shape.year, shape.first, shape.second) !== null;
}

export interface DateOrderDecision {
  /** How day/month dates are read. */
  order: DateOrder;
  /** What the file reports: the day/month order when it has such dates, else 'ymd' or the order its month-name dates are written in. */
  reported: StatementDateOrder | null;
  source: StatementDateOrderSource | null;
}

/**
 * Decides day/month order for the whole file. The file's own dates come first: a first number
 * above 12 on any row means day first, a second above 12 month first (a file with both proves
 * nothing). When they do not settle it, a day/month hint from earlier files of the same item
 * decides; without one, a comma decimal mark or dots in the dates mean European (day first) and
 * slashes with a point decimal the US way, reported as 'default' so the caller can confirm it.
 */
export function decideDateOrder(values: string[], decimalMark: DecimalMark, hint?: StatementDateOrder): DateOrderDecision {
  let dayFirst = false;
  let monthFirst = false;
  let dotted = false;
  let slashed = false;
  let ambiguous = false;
  let yearFirst = false;
  let namedOrder: DateOrder | null = null;
  for (const value of values) {
    const shape = shapeOf(value);
    if (!shape) continue;
    if (shape.kind === 'ymd') {
      if (shape.named) namedOrder ??= shape.named;
      else yearFirst = true;
      continue;
    }
    ambiguous = true;
    if (shape.first > 12) dayFirst = true;
    if (shape.second > 12) monthFirst = true;
    if (/^\d{1,2}\.\d/.test(value.trim())) dotted = true;
    if (/^\d{1,2}\/\d/.test(value.trim())) slashed = true;
  }
  if (!ambiguous) {
    // Nothing to decide: every date states its own order.
    const reported = yearFirst ? 'ymd' : namedOrder;
    return { order: namedOrder ?? 'dmy', reported, source: reported === null ? null : 'file' };
  }
  if (dayFirst !== monthFirst) {
    const order: DateOrder = dayFirst ? 'dmy' : 'mdy';
    return { order, reported: order, source: 'file' };
  }
  if (hint === 'dmy' || hint === 'mdy') return { order: hint, reported: hint, source: 'hint' };
  const order: DateOrder = decimalMark === ',' || dotted ? 'dmy' : slashed ? 'mdy' : 'dmy';
  return { order, reported: order, source: 'default' };
}

export function readDate(raw: string, order: DateOrder): string | null {
  const shape = shapeOf(raw);
  if (!shape) return null;
  if (shape.kind === 'ymd') return isoDate(shape.year, shape.month, shape.day);
  return order === 'dmy' ? isoDate(shape.year, shape.second, shape.first) : isoDate(shape.year, shape.first, shape.second);
}
