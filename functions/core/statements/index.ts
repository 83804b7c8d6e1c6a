// The one entry point for an uploaded statement file: size check, decoding, format detection from
// the CONTENT (the file name is only a tie-breaker: banks name OFX files .qfx, .qbo, .txt or
// nothing, and a .ofx may be plain text), then the OFX or CSV parser.

import { LIMITS } from '../../contracts/limits';
import { parseCsvStatement } from './csv';
import { decodeStatementBytes } from './encoding';
import { OFX_ROOT_TAG, parseOfxStatement, type OfxFormat } from './ofx';
import { StatementError, type ParsedStatement, type StatementHints } from './types';

export type { StatementDateOrder, StatementDateOrderSource, StatementHints } from './types';

/** How much of the start of a file is read to find an OFX header and the charset it declares. */
const HEADER_SNIFF_BYTES = 4096;

/** Where the OFX body starts: an `<OFX>` tag anywhere, after an SGML header, an XML prolog or any preamble. */
const OFX_ROOT = OFX_ROOT_TAG;
const SGML_HEADER = /^\s*OFXHEADER\s*:/i;
const XML_PROLOG = /<\?(xml|OFX)[\s?]/i;

/**
 * The charset an OFX file declares, as a decoding hint. OFX 1.x: ENCODING:UTF-8, or
 * ENCODING:USASCII with CHARSET:1252 / ISO-8859-1 / NONE. OFX 2.x: the XML declaration, except a
 * declared UTF-16 (the decoder sees UTF-16 from the bytes themselves; generators write
 * encoding="utf-16" over plain ASCII).
 */
export function declaredOfxCharset(head: string): string | undefined {
  if (SGML_HEADER.test(head)) {
    const field = (key: string): string | undefined =>
      new RegExp(`${key}\\s*:\\s*([A-Za-z0-9_-]+?)(?=\\s|<|$|[A-Z]+\\s*:)`, 'i').exec(head)?.[1];
    const encoding = field('ENCODING')?.toUpperCase();
    if (encoding === 'UTF-8' || encoding === 'UTF8' || encoding === 'UNICODE') return 'utf-8';
    const charset = field('CHARSET')?.toUpperCase();
    if (charset === undefined || charset === 'NONE') return undefined;
    if (/^\d{4}$/.test(charset)) return `windows-${charset}`;
    return charset;
  }
  const declared = /<\?xml[^>]*\sencoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
  if (declared === undefined || /^utf-?16/i.test(declared) || /^(us-)?ascii$/i.test(declared)) return undefined;
  return declared;
}

function ofxFormatOf(text: string, fileName: string | undefined): OfxFormat {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '')?.[1]?.toLowerCase();
  if (extension === 'qfx') return 'qfx';
  if (extension === 'qbo') return 'qbo';
  const rootAt = text.search(OFX_ROOT);
  const preamble = rootAt < 0 ? text.slice(0, HEADER_SNIFF_BYTES) : text.slice(0, rootAt);
  if (XML_PROLOG.test(preamble) || /OFXHEADER\s*:\s*200/i.test(preamble)) return 'ofx2';
  return 'ofx1';
}

/** Whether decoded text holds an OFX document rather than a table. */
export function looksLikeOfx(text: string): boolean {
  return SGML_HEADER.test(text) || OFX_ROOT.test(text) || /<\?OFX[\s?]/i.test(text.slice(0, HEADER_SNIFF_BYTES));
}

/**
 * Whether text looks like a delimited table: among its first non-blank lines, at least two that
 * split into the same number (two or more) of fields on one of the usual delimiters.
 */
export function looksTabular(text: string): boolean {
  const lines = text
    .slice(0, 64 * 1024)
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== '')
    .slice(0, 50);
  if (lines.length < 2) return false;
  for (const delimiter of [',', ';', '\t', '|']) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      const fields = line.split(delimiter).length;
      if (fields >= 2) counts.set(fields, (counts.get(fields) ?? 0) + 1);
    }
    if ([...counts.values()].some((lineCount) => lineCount >= 2)) return true;
  }
  return false;
}

function sniffHead(bytes: Uint8Array): string {
  // Bytes as Latin-1 are enough to find an ASCII header; UTF-16 files (BOM or NULs) have none to find.
  const head = bytes.subarray(0, HEADER_SNIFF_BYTES);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || head.includes(0)) return '';
  let text = '';
  for (const byte of head) text += String.fromCharCode(byte);
  return text.replace(/^\u00ef\u00bb\u00bf/, '');
}

/**
 * Parses a statement file. Throws StatementError: statement_too_large before reading anything,
 * statement_unsupported_encoding, statement_unrecognized (neither OFX nor a table), and whatever
 * the format's parser raises (statement_malformed with the line, statement_server_error, ...).
 *
 * `hints` carries what earlier files of the same item showed (the CSV date order), for a file that
 * cannot tell by itself; the result's `dateOrder` / `dateOrderSource` say what was used and why, so
 * the caller can keep an item's files consistent.
 */
export function parseStatement(bytes: Uint8Array, fileName?: string, hints: StatementHints = {}): ParsedStatement {
  if (bytes.length > LIMITS.statementMaxBytes) {
    throw new StatementError(
      'statement_too_large',
      `The file is ${bytes.length} bytes; statements up to ${LIMITS.statementMaxBytes} bytes are accepted`,
    );
  }
  const head = sniffHead(bytes);
  const hint = looksLikeOfx(head) ? declaredOfxCharset(head) : undefined;
  const decoded = decodeStatementBytes(bytes, hint);
  const text = decoded.text.replace(/^\ufeff/, '');
  if (text.trim() === '') throw new StatementError('statement_empty', 'The file holds no text');
  if (looksLikeOfx(text)) return parseOfxStatement(text, decoded.encoding, ofxFormatOf(text, fileName));
  if (looksTabular(text)) return parseCsvStatement(text, decoded.encoding, hints);
  throw new StatementError(
    'statement_unrecognized',
    'The file is neither an OFX/QFX statement nor a CSV table (no <OFX> element, no delimited rows)',
  );
}
