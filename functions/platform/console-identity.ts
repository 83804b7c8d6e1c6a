// How a console user proves who they are (the ConsoleIdentity port): locally a password checked
// against an scrypt hash in our table; on AWS Amazon Cognito's hosted UI (console-identity-cognito.ts).
// Either way the console session that follows is ours (app/console/session.ts), with the same rules.
//
// Passwords: scrypt (N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds per guess, so a stolen
// table is slow to attack), a 16-byte random salt, a 32-byte key, compared with timingSafeEqual. The
// stored form names its parameters (`scrypt$15$8$1$<salt>$<key>`, base64url), so they can be raised
// later without invalidating existing hashes. An unknown e-mail address is answered after a verify
// against a dummy hash, so the time taken does not tell which addresses have an account.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_LENGTH } from '../contracts/console-schemas';
import { cognitoIdentityFromEnv, type CognitoIdentity } from './console-identity-cognito';

export interface LocalPasswordIdentity {
  kind: 'local';
  hashPassword(password: string): Promise<string>;
  /**
   * True when `password` matches `storedHash`. With a null hash (no such user, or a user without a
   * local password) it still spends one full verify and answers false.
   */
  verifyPassword(password: string, storedHash: string | null): Promise<boolean>;
}

export type ConsoleIdentity = LocalPasswordIdentity | CognitoIdentity;

export const PASSWORD_HASH_PARAMS = { log2N: 15, r: 8, p: 1, saltBytes: 16, keyBytes: 32 } as const;
/** Local passwords: as long as the Cognito pool's policy asks (lib/console-identity.ts), and bounded (the contract's). */
export { PASSWORD_LENGTH };

/** Parameters a stored hash may name: anything else is not one of ours and never verifies. */
const ACCEPTED = { log2N: { min: 14, max: 20 }, r: { min: 8, max: 32 }, p: { min: 1, max: 4 } };

function derive(password: string, salt: Buffer, keyBytes: number, params: { log2N: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** params.log2N;
  // Node refuses scrypt above `maxmem` (32 MiB by default, which N = 2^15 with r = 8 needs exactly).
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise((resolve, reject) => {
    // NFKC: the same password typed on another keyboard or system still matches (NIST SP 800-63B).
    scrypt(password.normalize('NFKC'), salt, keyBytes, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p, saltBytes, keyBytes } = PASSWORD_HASH_PARAMS;
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, keyBytes, { log2N, r, p });
  return `scrypt$${log2N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface ParsedHash {
  log2N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [log2N, r, p] = parts.slice(1, 4).map(Number);
  const within = (v: number, range: { min: number; max: number }) => Number.isInteger(v) && v >= range.min && v <= range.max;
  if (!within(log2N, ACCEPTED.log2N) || !within(r, ACCEPTED.r) || !within(p, ACCEPTED.p)) return null;
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length < 16 || key.length < 32 || key.length > 64) return null;
  return { log2N, r, p, salt, key };
}

let dummyHash: Promise<string> | undefined;
/** A hash of a random password nobody knows, made once per process: what unknown users are checked against. */
function dummy(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

export async function verifyPassword(password: string, storedHash: string | null): Promise<boolean> {
  const parsed = parseHash(storedHash ?? '');
  if (parsed === null) {
    // Same work as a real verify, then a refusal: timing says nothing about whether the user exists.
    const fallback = parseHash(await dummy())!;
    const key = await derive(password, fallback.salt, fallback.key.length, fallback);
    timingSafeEqual(key, fallback.key);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.key.length, parsed);
  return timingSafeEqual(key, parsed.key);
}

export const localPasswordIdentity: LocalPasswordIdentity = { kind: 'local', hashPassword, verifyPassword };

/**
 * The identity this deployment uses: Cognito when FC_CONSOLE_COGNITO_* are set (the stack sets them,
 * lib/console-identity.ts), else local passwords, which only a local runtime may use: a deployed
 * stage without Cognito configured is a configuration error, not a fallback to passwords.
 */
export function consoleIdentityFromEnv(env: NodeJS.ProcessEnv = process.env): ConsoleIdentity {
  const cognito = cognitoIdentityFromEnv(env);
  if (cognito) return cognito;
  const stage = env.FC_STAGE ?? 'local';
  if (stage !== 'local') {
    throw new Error(`The console on stage ${stage} signs in through Cognito: set FC_CONSOLE_COGNITO_DOMAIN, FC_CONSOLE_COGNITO_CLIENT_ID and FC_CONSOLE_COGNITO_USER_POOL_ID`);
  }
  return localPasswordIdentity;
}
