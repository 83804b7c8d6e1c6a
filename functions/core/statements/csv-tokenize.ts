// Splits CSV text into records, forgiving the ways real bank exports break RFC 4180: a quote inside
// a quoted field that is not doubled ("UAB "Naktida""), a field that lost its opening quote, CR-only,
// CR CR LF and mixed line endings, line breaks inside quoted fields. Bounded: no field may exceed
// LIMITS.statementCsvMaxFieldChars and no record LIMITS.statementCsvMaxColumns, so a runaway quote
// fails with the line it started on instead of swallowing the file.

import { LIMITS } from '../../contracts/limits';
import { StatementError } from './types';

export interface CsvRecord {
  /** 1-based line where the record starts, counting every CR, LF or CRLF (and CR CR LF) as one break. */
  line: number;
  cells: string[];
}

export const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof CANDIDATE_DELIMITERS)[number];

/** Reads the whole text as records; `maxRecords` stops early (used to sniff the delimiter). */
export function tokenizeCsv(text: string, delimiter: string, maxRecords = Number.POSITIVE_INFINITY): CsvRecord[] {
  const records: CsvRecord[] = [];
  tokenizeInto(records, text, delimiter, maxRecords);
  return records;
}

/** Like tokenizeCsv, but a malformed record ends the list instead of failing: enough to sniff the layout. */
function tokenizeLeniently(text: string, delimiter: string, maxRecords: number): CsvRecord[] {
  const records: CsvRecord[] = [];
  try {
    tokenizeInto(records, text, delimiter, maxRecords);
  } catch (error) {
    if (!(error instanceof StatementError)) throw error;
  }
  return records;
}

function tokenizeInto(records: CsvRecord[], text: string, delimiter: string, maxRecords: number): void {
  const length = text.length;
  let position = 0;
  let line = 1;

  const atLineBreak = (index: number): boolean => text[index] === '\n' || text[index] === '\r';
  /** Consumes one line break (CRLF, CR CR LF, CR or LF) at `index`, returning the index after it. */
  const skipLineBreak = (index: number): number => {
    let next = index;
    while (text[next] === '\r') next += 1;
    if (text[next] === '\n') next += 1;
    if (next === index) next += 1;
    line += 1;
    return next;
  };

  while (position < length && records.length < maxRecords) {
    const recordLine = line;
    const cells: string[] = [];
    let recordDone = false;
    while (!recordDone) {
      let value = '';
      if (text[position] === '"') {
        const quoteLine = line;
        position += 1;
        let bareQuotes = 0;
        for (;;) {
          if (position >= length) {
            throw new StatementError('statement_malformed', 'A quoted field is never closed', quoteLine);
          }
          const char = text[position];
          if (char === '"') {
            const next = text[position + 1];
            const closes = (index: number): boolean => index >= length || text[index] === delimiter || atLineBreak(index);
            if (next === '"') {
              // `""` is an escaped quote, unless a bare quote opened earlier in the field is waiting
              // for its partner and the pair then ends the field ("UAB "Naktida"").
              if (bareQuotes % 2 === 1 && closes(position + 2)) {
                value += '"';
                position += 2;
                break;
              }
              value += '"';
              position += 2;
            } else if (closes(position + 1)) {
              position += 1;
              break;
            } else {
              bareQuotes += 1;
              value += '"';
              position += 1;
            }
          } else if (char === '\r' || char === '\n') {
            position = skipLineBreak(position);
            value += '\n';
          } else {
            value += char;
            position += 1;
          }
          if (value.length > LIMITS.statementCsvMaxFieldChars) {
            throw new StatementError(
              'statement_malformed',
              `A field is longer than ${LIMITS.statementCsvMaxFieldChars} characters (an unclosed quote?)`,
              quoteLine,
            );
          }
        }
      } else {
        const start = position;
        while (position < length && text[position] !== delimiter && !atLineBreak(position)) position += 1;
        value = text.slice(start, position);
        if (value.length > LIMITS.statementCsvMaxFieldChars) {
          throw new StatementError('statement_malformed', `A field is longer than ${LIMITS.statementCsvMaxFieldChars} characters`, recordLine);
        }
      }
      cells.push(value);
      if (cells.length > LIMITS.statementCsvMaxColumns) {
        throw new StatementError('statement_malformed', `A row has more than ${LIMITS.statementCsvMaxColumns} columns`, recordLine);
      }
      if (position >= length) {
        recordDone = true;
      } else if (text[position] === delimiter) {
        position += 1;
        // A delimiter as the very last character still ends the record with an empty field.
        if (position >= length) {
          cells.push('');
          recordDone = true;
        }
      } else {
        position = skipLineBreak(position);
        recordDone = true;
      }
    }
    records.push({ line: recordLine, cells });
  }
}

/**
 * Picks the delimiter under which the most of the first records share one field count (of two or
 * more): preambles, continuation rows and totals differ, the table's rows agree.
 */
export function sniffDelimiter(text: string): { delimiter: CsvDelimiter; columns: number } | null {
  let best: { delimiter: CsvDelimiter; columns: number; agreeing: number } | null = null;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const records = tokenizeLeniently(text, delimiter, 100);
    const counts = new Map<number, number>();
    for (const record of records) {
      const columns = record.cells.length;
      if (columns >= 2) counts.set(columns, (counts.get(columns) ?? 0) + 1);
    }
    for (const [columns, agreeing] of counts) {
      if (!best || agreeing > best.agreeing || (agreeing === best.agreeing && columns > best.columns)) {
        best = { delimiter, columns, agreeing };
      }
    }
  }
  return best ? { delimiter: best.delimiter, columns: best.columns } : null;
}
