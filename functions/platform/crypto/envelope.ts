// Envelope encryption for secrets at rest (each environment's webhook signing secrets; provider tokens).
//
// Each record gets its own 256-bit data key from a KeyProvider (KMS GenerateDataKey on AWS, a local
// key-encryption key in local mode). The value is sealed with AES-256-GCM under that data key, the
// data key is stored only in wrapped form next to it, and the plaintext data key is zeroed as
// soon as it has been used. The caller's context (e.g. application id, environment, purpose,
// record id) is bound twice: as the GCM additional data here and as the provider's context for
// the data key (KMS EncryptionContext), so a sealed value copied to another record, application
// or environment does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type EncryptionContext = Record<string, string>;

export interface KeyProvider {
  /** Identifies the key-encryption key; recorded in each sealed value as `kid`. */
  keyId: string;
  /** A fresh 32-byte data key and its wrapped form, bound to `context`. */
  generateDataKey(context: EncryptionContext): Promise<{ plaintext: Buffer; wrapped: string }>;
  /** Unwraps a data key; rejects (EnvelopeError 'decrypt_failed') for a wrong key or context. */
  decryptDataKey(wrapped: string, context: EncryptionContext): Promise<Buffer>;
}

/** A sealed value: JSON-serialisable, every binary field base64url. */
export interface SealedSecret {
  v: 1;
  /** KeyProvider.keyId at encryption time. */
  kid: string;
  /** Wrapped data key, in the provider's format (base64url, or dot-separated base64url parts). */
  wk: string;
  iv: string;
  ct: string;
  tag: string;
}

export type EnvelopeErrorCode = 'malformed' | 'decrypt_failed';

/** Raised for a sealed value that is not well formed or does not decrypt under this key/context. */
export class EnvelopeError extends Error {
  constructor(
    readonly code: EnvelopeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** Canonical JSON of a context: keys sorted by code unit, string values only. */
export function canonicalContext(context: EncryptionContext): string {
  const entries = Object.entries(context);
  for (const [k, v] of entries) {
    if (typeof v !== 'string') throw new TypeError(`encryption context value for ${JSON.stringify(k)} must be a string`);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
}

export function isSealedSecret(value: unknown): value is SealedSecret {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    s.v === 1 &&
    typeof s.kid === 'string' &&
    typeof s.wk === 'string' && // opaque to this module: the provider's format
    s.wk !== '' &&
    (['iv', 'ct', 'tag'] as const).every((f) => typeof s[f] === 'string' && B64URL.test(s[f] as string))
  );
}

export async function encryptSecret(provider: KeyProvider, plaintext: string, context: EncryptionContext): Promise<SealedSecret> {
  const aad = Buffer.from(canonicalContext(context), 'utf8');
  const { plaintext: dataKey, wrapped } = await provider.generateDataKey(context);
  try {
    if (dataKey.length !== KEY_BYTES) throw new Error(`key provider returned a ${dataKey.length}-byte data key`);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, dataKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: 1,
      kid: provider.keyId,
      wk: wrapped,
      iv: iv.toString('base64url'),
      ct: ct.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
  } finally {
    dataKey.fill(0);
  }
}

export async function decryptSecret(provider: KeyProvider, sealed: SealedSecret, context: EncryptionContext): Promise<string> {
  if (!isSealedSecret(sealed)) throw new EnvelopeError('malformed', 'not a sealed secret');
  const iv = Buffer.from(sealed.iv, 'base64url');
  const tag = Buffer.from(sealed.tag, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new EnvelopeError('malformed', 'sealed secret has a bad iv or tag');
  const aad = Buffer.from(canonicalContext(context), 'utf8');
  const dataKey = await provider.decryptDataKey(sealed.wk, context);
  try {
    if (dataKey.length !== KEY_BYTES) throw new EnvelopeError('decrypt_failed', 'unwrapped data key has the wrong length');
    const decipher = createDecipheriv(ALGORITHM, dataKey, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]);
    } catch {
      throw new EnvelopeError('decrypt_failed', 'sealed secret does not decrypt under this key and context');
    }
    const text = plain.toString('utf8');
    plain.fill(0);
    return text;
  } finally {
    dataKey.fill(0);
  }
}
