// Validation of the public address a user pastes in Link, done fully before any indexer is asked:
// a typo in an address is another (valid-looking) address, so checksums are verified wherever the
// format carries one. Bitcoin: base58check P2PKH/P2SH and bech32/bech32m native segwit
// (BIP-173, BIP-350). Ethereum: `0x` + 40 hex digits with the EIP-55 mixed-case checksum verified
// (all-lowercase and all-uppercase forms carry no checksum and are accepted as they are).
import { createHash } from 'node:crypto';
import { keccak256Hex } from './keccak';

export type Chain = 'bitcoin' | 'ethereum';

export type AddressCheck = { ok: true; chain: Chain; address: string } | { ok: false; reason: string };

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONSTANT = 1;
const BECH32M_CONSTANT = 0x2bc830a3;
/** Mainnet base58 version bytes: P2PKH and P2SH. */
const BASE58_VERSIONS = new Set([0x00, 0x05]);

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

function base58Decode(text: string): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

function checkBase58(address: string): AddressCheck {
  const bytes = base58Decode(address);
  if (!bytes) return { ok: false, reason: 'The Bitcoin address contains a character that base58 does not use (0, O, I or l).' };
  if (bytes.length !== 25) return { ok: false, reason: 'The Bitcoin address has the wrong length.' };
  const payload = bytes.subarray(0, 21);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  if (!checksum.equals(Buffer.from(bytes.subarray(21)))) return { ok: false, reason: 'The Bitcoin address checksum does not match: check for a typo.' };
  if (!BASE58_VERSIONS.has(payload[0])) return { ok: false, reason: 'Only Bitcoin mainnet addresses (starting with 1, 3 or bc1) are supported.' };
  return { ok: true, chain: 'bitcoin', address };
}

function bech32Polymod(values: readonly number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) checksum ^= generators[i];
  }
  return checksum >>> 0;
}

const hrpExpand = (hrp: string): number[] => [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];

/** Regroups 5-bit groups into bytes; null when the padding is not the zero padding BIP-173 requires. */
function fiveBitsToBytes(groups: readonly number[]): number[] | null {
  let accumulator = 0;
  let bits = 0;
  const out: number[] = [];
  for (const group of groups) {
    accumulator = (accumulator << 5) | group;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out.push((accumulator >> bits) & 0xff);
    }
  }
  if (bits >= 5 || ((accumulator << (8 - bits)) & 0xff) !== 0) return null;
  return out;
}

function checkSegwit(input: string): AddressCheck {
  if (input !== input.toLowerCase() && input !== input.toUpperCase()) return { ok: false, reason: 'The Bitcoin address mixes upper and lower case, which bech32 forbids.' };
  const address = input.toLowerCase();
  if (address.length > 90) return { ok: false, reason: 'The Bitcoin address is too long.' };
  const separator = address.lastIndexOf('1');
  const hrp = address.slice(0, separator);
  if (hrp !== 'bc') return { ok: false, reason: 'Only Bitcoin mainnet addresses (starting with 1, 3 or bc1) are supported.' };
  const data: number[] = [];
  for (const char of address.slice(separator + 1)) {
    const value = BECH32_CHARSET.indexOf(char);
    if (value < 0) return { ok: false, reason: `The Bitcoin address contains "${char}", which bech32 does not use.` };
    data.push(value);
  }
  if (data.length < 7) return { ok: false, reason: 'The Bitcoin address is too short.' };
  const residue = bech32Polymod([...hrpExpand(hrp), ...data]);
  const version = data[0];
  // BIP-350: witness version 0 keeps the bech32 checksum; versions 1 to 16 use bech32m.
  const expected = version === 0 ? BECH32_CONSTANT : BECH32M_CONSTANT;
  if (residue !== expected) {
    const otherEncoding = residue === (version === 0 ? BECH32M_CONSTANT : BECH32_CONSTANT);
    return { ok: false, reason: otherEncoding ? 'The Bitcoin address uses the wrong checksum variant for its witness version.' : 'The Bitcoin address checksum does not match: check for a typo.' };
  }
  if (version > 16) return { ok: false, reason: 'The Bitcoin address has an unknown witness version.' };
  const program = fiveBitsToBytes(data.slice(1, -6));
  if (!program || program.length < 2 || program.length > 40) return { ok: false, reason: 'The Bitcoin address has an invalid witness program.' };
  if (version === 0 && program.length !== 20 && program.length !== 32) return { ok: false, reason: 'The Bitcoin address has an invalid witness program length for version 0.' };
  return { ok: true, chain: 'bitcoin', address };
}

/** The EIP-55 checksummed form of a 40-hex-digit address body (without `0x`). */
export function eip55(hexBody: string): string {
  const lower = hexBody.toLowerCase();
  const hash = keccak256Hex(lower);
  return `0x${[...lower].map((char, i) => (parseInt(hash[i], 16) >= 8 ? char.toUpperCase() : char)).join('')}`;
}

function checkEthereum(address: string): AddressCheck {
  const body = address.slice(2);
  if (!/^[0-9a-fA-F]{40}$/.test(body)) return { ok: false, reason: 'An Ethereum address is 0x followed by 40 hexadecimal digits.' };
  const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixedCase && eip55(body) !== `0x${body}`) return { ok: false, reason: 'The Ethereum address checksum (EIP-55 capitalisation) does not match: check for a typo.' };
  return { ok: true, chain: 'ethereum', address: `0x${body.toLowerCase()}` };
}

/** Validates and normalises a pasted address (trimmed; bech32 and Ethereum addresses lowercased). */
export function checkAddress(raw: string): AddressCheck {
  const address = raw.trim();
  if (address === '') return { ok: false, reason: 'Paste a Bitcoin or Ethereum address.' };
  if (address.length > 100) return { ok: false, reason: 'That is too long to be a Bitcoin or Ethereum address.' };
  if (/^0x/i.test(address)) return address.startsWith('0x') ? checkEthereum(address) : { ok: false, reason: 'An Ethereum address starts with a lowercase 0x.' };
  if (/^bc1/i.test(address)) return checkSegwit(address);
  if (/^[13]/.test(address)) return checkBase58(address);
  if (/^(tb1|[mn2])/i.test(address)) return { ok: false, reason: 'Only Bitcoin mainnet addresses (starting with 1, 3 or bc1) are supported.' };
  return { ok: false, reason: 'This is not a Bitcoin address (starting with 1, 3 or bc1) or an Ethereum address (starting with 0x).' };
}

/** The chain an already-validated, normalised address (a stored connection login) belongs to. */
export const chainOf = (address: string): Chain => (address.startsWith('0x') ? 'ethereum' : 'bitcoin');
