// Local-mode KeyProvider: a 32-byte key-encryption key (KEK) kept in a file (created with mode 0600
// on first use) or only in memory. Data keys are wrapped with AES-256-GCM, the canonical context
// as additional data, so a wrapped key only unwraps under the same KEK and context (the same
// guarantee KMS gives with an EncryptionContext).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { canonicalContext, EnvelopeError, type EncryptionContext, type KeyProvider } from './envelope';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface LocalKeyProviderOptions {
  /** KEK file; created (mode 0600, directory 0700) when missing. Without it the KEK lives in memory only. */
  file?: string;
  /** An explicit 32-byte KEK (tests); takes precedence over `file`. */
  key?: Buffer;
}

/** Reads the KEK from a file: 32 raw bytes, or base64/base64url text of 32 bytes. */
function parseKeyFile(contents: Buffer, file: string): Buffer {
  if (contents.length === KEY_BYTES) return Buffer.from(contents);
  const decoded = Buffer.from(contents.toString('utf8').trim(), 'base64');
  if (decoded.length !== KEY_BYTES) throw new Error(`${file} does not hold a 32-byte key`);
  return decoded;
}

/** Loads the KEK, creating it atomically (write a private temp file, then hard-link it into place) when absent. */
function loadOrCreateKeyFile(file: string): Buffer {
  try {
    return parseKeyFile(readFileSync(file), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, file);
    return key;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    key.fill(0);
    return parseKeyFile(readFileSync(file), file);
  } finally {
    unlinkSync(tmp);
  }
}

export function createLocalKeyProvider(options: LocalKeyProviderOptions = {}): KeyProvider {
  let kek: Buffer;
  if (options.key !== undefined) {
    if (options.key.length !== KEY_BYTES) throw new TypeError('local KEK must be 32 bytes');
    kek = Buffer.from(options.key);
  } else if (options.file !== undefined) {
    kek = loadOrCreateKeyFile(options.file);
  } else {
    kek = randomBytes(KEY_BYTES);
  }
  // A fingerprint, not the key: tells which KEK sealed a value.
  const keyId = `local:${createHash('sha256').update('fincore-local-kek\0').update(kek).digest('hex').slice(0, 16)}`;

  const wrap = (dataKey: Buffer, context: EncryptionContext): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(canonicalContext(context), 'utf8'));
    const ct = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return [iv, ct, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
  };

  return {
    keyId,
    async generateDataKey(context) {
      const plaintext = randomBytes(KEY_BYTES);
      return { plaintext, wrapped: wrap(plaintext, context) };
    },
    async decryptDataKey(wrapped, context) {
      const parts = wrapped.split('.');
      if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) {
        throw new EnvelopeError('malformed', 'wrapped data key is not in the local format');
      }
      const [iv, ct, tag] = parts.map((p) => Buffer.from(p, 'base64url'));
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES || ct.length !== KEY_BYTES) {
        throw new EnvelopeError('malformed', 'wrapped data key is not in the local format');
      }
      const decipher = createDecipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(canonicalContext(context), 'utf8'));
      decipher.setAuthTag(tag);
      const out = decipher.update(ct);
      try {
        decipher.final();
      } catch {
        out.fill(0);
        throw new EnvelopeError('decrypt_failed', 'data key does not unwrap under this key and context');
      }
      return out;
    },
  };
}
