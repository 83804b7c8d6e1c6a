// Calendar arithmetic on UTC day numbers (days since 1970-01-01, proleptic Gregorian), shared by
// the sandbox simulators and the recurring and income detectors. Pure integer arithmetic (H.
// Hinnant's days_from_civil / civil_from_days): no Date objects, no time zones, so a date means
// the same day on every machine.
//
// Months are 1-12. A "month index" is year * 12 + month - 1, which makes "n months later" an
// addition.

export const DAY_MS = 86_400_000;

// Bound once: inside a test runner's VM context every global lookup (Math.floor ...) is slow, and
// the detectors call these on every occurrence they look at.
const { floor, min } = Math;

export const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export const daysInMonth = (y: number, m: number) => (m === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[m - 1]);

/** Day number of year y, month m, day d (the day must exist; use dayInMonthIndex to clamp). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  y: number;
  m: number;
  d: number;
}

/** Year, month and day of a day number. */
export function civilFromDays(n: number): CivilDate {
  const z = n + 719468;
  const era = floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = floor((doe - floor(doe / 1460) + floor(doe / 36524) - floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + floor(yoe / 4) - floor(yoe / 100));
  const mp = floor((5 * doy + 2) / 153);
  const d = doy - floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

export const pad2 = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a day number. */
export function isoDate(n: number): string {
  const { y, m, d } = civilFromDays(n);
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`;
}

/** Day number of a YYYY-MM-DD date (a longer ISO string is read by its date part), or null. */
export function dayNumber(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return null;
  const y = +match[1];
  const m = +match[2];
  const d = +match[3];
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return daysFromCivil(y, m, d);
}

/** Day number of exactly a YYYY-MM-DD calendar date; anything else is a RangeError naming `what`. */
export function parseDate(date: string, what = 'date'): number {
  const n = /^\d{4}-\d{2}-\d{2}$/.test(date) ? dayNumber(date) : null;
  if (n === null) throw new RangeError(`${what} must be a YYYY-MM-DD calendar date, got "${date}"`);
  return n;
}

/** 0 = Sunday ... 6 = Saturday. */
export const weekday = (n: number) => (((n + 4) % 7) + 7) % 7;

/** The day itself on a weekday; a Saturday or Sunday moves to the following Monday. */
export const nextWeekday = (n: number) => (weekday(n) === 6 ? n + 2 : weekday(n) === 0 ? n + 1 : n);
/** The day itself on a weekday; a Saturday or Sunday moves back to the Friday before. */
export const prevWeekday = (n: number) => (weekday(n) === 6 ? n - 1 : weekday(n) === 0 ? n - 2 : n);

/** Month index (year * 12 + month - 1) of a day number. */
export function monthIndexOf(n: number): number {
  const { y, m } = civilFromDays(n);
  return y * 12 + m - 1;
}

/** Day `day` of month index `mi`, clamped to the month's last day. */
export function dayInMonthIndex(mi: number, day: number): number {
  const y = floor(mi / 12);
  const m = mi - y * 12 + 1;
  return daysFromCivil(y, m, min(day, daysInMonth(y, m)));
}

/** Day `dom` (clamped to the month's end) of the month `months` away from the month of day `n`. */
export const monthDay = (n: number, months: number, dom: number) => dayInMonthIndex(monthIndexOf(n) + months, dom);

/** The same calendar day `months` earlier or later, clamped to the month's end. */
export const addMonths = (n: number, months: number) => monthDay(n, months, civilFromDays(n).d);
