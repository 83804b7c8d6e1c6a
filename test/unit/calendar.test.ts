import fc from 'fast-check';
import {
  addMonths,
  civilFromDays,
  dayInMonthIndex,
  dayNumber,
  daysFromCivil,
  daysInMonth,
  isoDate,
  monthDay,
  monthIndexOf,
  nextWeekday,
  parseDate,
  prevWeekday,
  weekday,
} from '../../functions/core/calendar';

const DAY_MS = 86_400_000;
/** The oracle: the same day through Date, which the module avoids on its hot paths. */
const viaDate = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
// 1900-01-01 .. 2199-12-31 as day numbers
const anyDay = fc.integer({ min: -25567, max: 84005 });

describe('calendar', () => {
  it('converts day numbers to dates and back exactly as Date does', () => {
    fc.assert(
      fc.property(anyDay, (n) => {
        const iso = isoDate(n);
        expect(iso).toBe(viaDate(n));
        expect(dayNumber(iso)).toBe(n);
        const { y, m, d } = civilFromDays(n);
        expect(daysFromCivil(y, m, d)).toBe(n);
        expect(weekday(n)).toBe(new Date(n * DAY_MS).getUTCDay());
      }),
    );
  });

  it('knows leap years, including the century rules', () => {
    expect([daysInMonth(2024, 2), daysInMonth(2025, 2), daysInMonth(1900, 2), daysInMonth(2000, 2)]).toEqual([29, 28, 28, 29]);
    expect(daysInMonth(2025, 4)).toBe(30);
  });

  it('moves by months clamped to the month end', () => {
    const jan31 = daysFromCivil(2024, 1, 31);
    expect(isoDate(addMonths(jan31, 1))).toBe('2024-02-29');
    expect(isoDate(addMonths(jan31, 13))).toBe('2025-02-28');
    expect(isoDate(addMonths(jan31, -2))).toBe('2023-11-30');
    expect(isoDate(monthDay(jan31, 2, 15))).toBe('2024-03-15');
    expect(isoDate(dayInMonthIndex(monthIndexOf(jan31) + 3, 31))).toBe('2024-04-30');
    expect(monthIndexOf(daysFromCivil(2024, 12, 31))).toBe(2024 * 12 + 11);
  });

  it('moves weekend days to the next Monday or the previous Friday', () => {
    const saturday = daysFromCivil(2025, 3, 1);
    const sunday = saturday + 1;
    expect([isoDate(nextWeekday(saturday)), isoDate(nextWeekday(sunday))]).toEqual(['2025-03-03', '2025-03-03']);
    expect([isoDate(prevWeekday(saturday)), isoDate(prevWeekday(sunday))]).toEqual(['2025-02-28', '2025-02-28']);
    expect(nextWeekday(saturday + 2)).toBe(saturday + 2);
  });

  it('reads a date prefix leniently but parses only exact calendar dates', () => {
    expect(dayNumber('2025-03-01T10:00:00Z')).toBe(daysFromCivil(2025, 3, 1));
    expect([dayNumber('2025-02-29'), dayNumber('2025-13-01'), dayNumber('March 1')]).toEqual([null, null, null]);
    expect(parseDate('2024-02-29')).toBe(daysFromCivil(2024, 2, 29));
    expect(() => parseDate('2024-02-29T00:00:00Z', 'today')).toThrow(/today must be a YYYY-MM-DD/);
    expect(() => parseDate('2025-02-30')).toThrow(RangeError);
  });
});
