// Turns a statement file's bytes into text. Banks export in whatever their platform defaults to:
// UTF-8 (with or without a BOM), UTF-16 (Windows "Unicode" exports, often without a BOM), and the
// single-byte code pages Windows-1252 and ISO-8859-1, sometimes declared in an OFX header and
// sometimes not, sometimes declared wrongly. Detection order: BOM, UTF-16 by its NUL-byte pattern,
// strict UTF-8, then Windows-1252 versus ISO-8859-1 decided by the bytes 0x80-0x9F.

import { LIMITS } from '../../contracts/limits';
import { StatementError } from './types';

export type StatementEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'iso-8859-1';

export interface DecodedStatement {
  text: string;
  encoding: StatementEncoding;
}

/** How many leading bytes are sampled to recognise UTF-16 without a BOM. */
const UTF16_SAMPLE_BYTES = 8192;

/**
 * Windows-1252 leaves these five bytes undefined; anywhere else in 0x80-0x9F it has printable
 * characters (euro sign, curly quotes, dashes, Š, Ž ...) where ISO-8859-1 has C1 control codes.
 */
const UNDEFINED_IN_WINDOWS_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** Normalises a charset label as OFX headers, HTTP and CSV sniffers write it; null when it is none we decode. */
export function normalizeCharsetLabel(label: string | undefined | null): StatementEncoding | null {
  if (!label) return null;
  const compact = label.trim().toLowerCase().replace(/[\s_]/g, '-');
  if (/^(utf-?8|unicode-1-1-utf-8)$/.test(compact)) return 'utf-8';
  if (/^(utf-?16-?le|ucs-2-?le)$/.test(compact)) return 'utf-16le';
  if (/^(utf-?16-?be|ucs-2-?be)$/.test(compact)) return 'utf-16be';
  if (/^((windows|win|cp|ms)-?1252|1252|x-cp1252|ansi)$/.test(compact)) return 'windows-1252';
  if (/^(iso-?8859-?1|8859-?1|latin-?1|l1|iso-ir-100|ibm819|cp819)$/.test(compact)) return 'iso-8859-1';
  return null;
}

export function decodeStatementBytes(bytes: Uint8Array, declaredCharset?: string): DecodedStatement {
  if (bytes.length > LIMITS.statementMaxBytes) {
    throw new StatementError(
      'statement_too_large',
      `The file is ${bytes.length} bytes; statements up to ${LIMITS.statementMaxBytes} bytes are accepted`,
    );
  }
  if (bytes.length === 0) throw new StatementError('statement_empty', 'The file is empty');
  const declared = normalizeCharsetLabel(declaredCharset);

  const bom = decodeByBom(bytes);
  if (bom) return bom;

  const utf16 = detectUtf16WithoutBom(bytes);
  if (utf16) return utf16;

  const body = stripTrailingNulPadding(bytes);
  const nulAt = body.indexOf(0);
  if (nulAt >= 0) {
    throw new StatementError(
      'statement_unsupported_encoding',
      `The file contains binary data (a NUL byte at offset ${nulAt}) and is not UTF-16 text`,
      lineAtByte(body, nulAt),
    );
  }
  if (body.length === 0) throw new StatementError('statement_empty', 'The file holds no text');

  const utf8 = tryDecode('utf-8', body);
  if (utf8 !== null) {
    // Pure ASCII reads the same in every supported charset: honour what the file declares.
    const isAscii = !body.some((byte) => byte >= 0x80);
    if (isAscii && declared && declared !== 'utf-16le' && declared !== 'utf-16be') return { text: utf8, encoding: declared };
    return { text: utf8, encoding: 'utf-8' };
  }
  return decodeSingleByte(body, declared);
}

function decodeByBom(bytes: Uint8Array): DecodedStatement | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    const rest = stripTrailingNulPadding(bytes.subarray(3));
    const text = tryDecode('utf-8', rest);
    if (text === null) {
      throw new StatementError('statement_unsupported_encoding', 'The file starts with a UTF-8 byte order mark but is not valid UTF-8');
    }
    return { text, encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    if (bytes[2] === 0 && bytes[3] === 0) {
      throw new StatementError('statement_unsupported_encoding', 'UTF-32 files are not supported; export the statement as UTF-8');
    }
    return decodeUtf16(bytes.subarray(2), 'utf-16le');
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes.subarray(2), 'utf-16be');
  return null;
}

/**
 * Text in UTF-16 without a BOM is mostly ASCII, so every other byte is NUL: NULs at odd offsets mean
 * little-endian, at even offsets big-endian. Binary data has NULs scattered over both.
 */
function detectUtf16WithoutBom(bytes: Uint8Array): DecodedStatement | null {
  const sample = bytes.subarray(0, Math.min(bytes.length, UTF16_SAMPLE_BYTES) & ~1);
  if (sample.length < 4) return null;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let index = 0; index < sample.length; index += 2) {
    if (sample[index] === 0) evenNuls += 1;
    if (sample[index + 1] === 0) oddNuls += 1;
  }
  const pairs = sample.length / 2;
  if (oddNuls >= pairs * 0.4 && evenNuls <= pairs * 0.05) return decodeUtf16(bytes, 'utf-16le');
  if (evenNuls >= pairs * 0.4 && oddNuls <= pairs * 0.05) return decodeUtf16(bytes, 'utf-16be');
  return null;
}

function decodeUtf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): DecodedStatement {
  let body = bytes;
  // A trailing odd byte or NUL code units are padding some exporters add; anything else must decode.
  if (body.length % 2 === 1 && body[body.length - 1] === 0) body = body.subarray(0, body.length - 1);
  while (body.length >= 2 && body[body.length - 1] === 0 && body[body.length - 2] === 0) body = body.subarray(0, body.length - 2);
  const text = body.length % 2 === 0 ? tryDecode(encoding, body) : null;
  if (text === null) {
    throw new StatementError('statement_unsupported_encoding', `The file looks like ${encoding.toUpperCase()} text but does not decode as it`);
  }
  if (text.includes('\u0000')) {
    throw new StatementError('statement_unsupported_encoding', `The file contains binary data and is not ${encoding.toUpperCase()} text`);
  }
  return { text, encoding };
}

function decodeSingleByte(bytes: Uint8Array, declared: StatementEncoding | null): DecodedStatement {
  let hasC1Range = false;
  let hasUndefinedIn1252 = false;
  for (const byte of bytes) {
    if (byte >= 0x80 && byte <= 0x9f) {
      hasC1Range = true;
      if (UNDEFINED_IN_WINDOWS_1252.has(byte)) hasUndefinedIn1252 = true;
    }
  }
  // Both code pages agree on 0xA0-0xFF; only 0x80-0x9F tells them apart. Printable there means
  // Windows-1252; a byte Windows-1252 leaves undefined can only be ISO-8859-1's C1 control.
  let encoding: StatementEncoding;
  if (hasUndefinedIn1252) encoding = 'iso-8859-1';
  else if (hasC1Range) encoding = 'windows-1252';
  else encoding = declared === 'windows-1252' ? 'windows-1252' : 'iso-8859-1';
  return { text: encoding === 'iso-8859-1' ? decodeLatin1(bytes) : decodeWindows1252(bytes), encoding };
}

function decodeWindows1252(bytes: Uint8Array): string {
  return new TextDecoder('windows-1252').decode(bytes);
}

/** True ISO-8859-1: every byte is the code point of the same value (the WHATWG "latin1" label means Windows-1252). */
function decodeLatin1(bytes: Uint8Array): string {
  const chunks: string[] = [];
  const chunkSize = 8192;
  for (let start = 0; start < bytes.length; start += chunkSize) {
    chunks.push(String.fromCharCode(...bytes.subarray(start, start + chunkSize)));
  }
  return chunks.join('');
}

function tryDecode(encoding: 'utf-8' | 'utf-16le' | 'utf-16be', bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

function stripTrailingNulPadding(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  return bytes.subarray(0, end);
}

function lineAtByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index += 1) {
    if (bytes[index] === 0x0a || (bytes[index] === 0x0d && bytes[index + 1] !== 0x0a)) line += 1;
  }
  return line;
}
