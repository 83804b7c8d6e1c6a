// Secret API keys: format, generation and the only form we store (SHA-256 + display parts).
import { createHash, randomBytes } from 'node:crypto';
import type { Environment } from '../contracts/schemas';

export const API_KEY_PATTERN = /^fc_sk_(test|live)_[A-Za-z0-9]{16,128}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

export function environmentOfKey(key: string): Environment {
  return key.startsWith('fc_sk_live_') ? 'live' : 'test';
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Random base62 string; rejection sampling keeps every character uniformly likely. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function generateApiKey(environment: Environment): string {
  return `fc_sk_${environment}_${randomToken(32)}`;
}

export interface StoredKeyDisplay {
  prefix: string;
  last4: string;
  /** What a dashboard may show: prefix, an ellipsis and the last four characters. */
  display: string;
}

export function displayOfKey(key: string): StoredKeyDisplay {
  const prefix = key.startsWith('fc_sk_live_') ? 'fc_sk_live_' : 'fc_sk_test_';
  const last4 = key.slice(-4);
  return { prefix, last4, display: `${prefix}…${last4}` };
}

/** Stable, non-secret identifier of a key (for logs and listings): derived from its hash. */
export function keyIdFromHash(keyHash: string): string {
  return `key_${keyHash.slice(0, 16)}`;
}
