// Reading provider payloads. What a provider answers is untrusted input: a changed or hostile
// payload must end the pull with a provider_error that names the field, never with a TypeError
// deep in a mapping or a NaN amount stored as a balance. Adapters read every field they use
// through these functions, with a path naming where the field sits. Also the answers every adapter
// of a non-credentials Link method gives alike (credentialsRefused, notOffered).
import { ConnectorError, type ConnectorPort, type LoginResult } from '../core/connector-port';

export type Json = Record<string, unknown>;

/** The provider_error every reader throws: `<provider> sent an unreadable <path> (<why>).` */
export function unreadable(provider: string, path: string, why: string): ConnectorError {
  return new ConnectorError('provider_error', `${provider} sent an unreadable ${path} (${why}).`);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A reader bound to one provider's name, so every message says who sent the bad field. */
export function payloadReader(provider: string) {
  const fail = (path: string, why: string) => unreadable(provider, path, why);

  const object = (value: unknown, path: string): Json => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(path, `expected an object, got ${kindOf(value)}`);
    return value as Json;
  };
  const array = (value: unknown, path: string, maxItems = 10_000): unknown[] => {
    if (!Array.isArray(value)) throw fail(path, `expected an array, got ${kindOf(value)}`);
    if (value.length > maxItems) throw fail(path, `more than ${maxItems} items`);
    return value;
  };
  const string = (value: unknown, path: string): string => {
    if (typeof value !== 'string' || value === '') throw fail(path, `expected a non-empty string, got ${kindOf(value)}`);
    return value;
  };
  const optionalString = (value: unknown, path: string): string | null => (value === undefined || value === null || value === '' ? null : string(value, path));
  const number = (value: unknown, path: string): number => {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw fail(path, `expected a finite number, got ${kindOf(value)}`);
    return value;
  };
  const optionalNumber = (value: unknown, path: string): number | null => (value === undefined || value === null ? null : number(value, path));
  const boolean = (value: unknown, path: string): boolean => {
    if (typeof value !== 'boolean') throw fail(path, `expected a boolean, got ${kindOf(value)}`);
    return value;
  };
  /** A YYYY-MM-DD calendar date (a longer ISO timestamp is cut to its date). */
  const date = (value: unknown, path: string): string => {
    const text = string(value, path);
    const day = text.slice(0, 10);
    const parsed = new Date(`${day}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) throw fail(path, 'expected a YYYY-MM-DD date');
    return day;
  };
  const currency = (value: unknown, path: string): string => {
    const code = string(value, path).toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) throw fail(path, 'expected an ISO 4217 currency code');
    return code;
  };
  return { fail, object, array, string, optionalString, number, optionalNumber, boolean, date, currency };
}

export type PayloadReader = ReturnType<typeof payloadReader>;

/** Money in major units, rounded to cents so that float noise never reaches a stored amount. */
export const cents = (amount: number): number => Math.round(amount * 100) / 100;

/** `YYYY-MM-DD` shifted by whole days (UTC calendar arithmetic, no clock). */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The last four characters of an account number or mask, digits only when it has digits. */
export function lastFour(value: string | null): string {
  if (value === null) return '';
  const digits = value.replace(/\D/g, '');
  return (digits === '' ? value : digits).slice(-4);
}

/**
 * Field readers that name the provider in their errors (`The aggregator sent an unreadable
 * response: \`data.id\` is not a non-empty string.`), for adapters that read one field at a time.
 */
export function fieldReaders(provider: string) {
  const invalid = (field: string, expected: string) =>
    new ConnectorError('provider_error', `${provider} sent an unreadable response: \`${field}\` is not ${expected}.`);
  return {
    invalid,
    obj(value: unknown, field: string): Json {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(field, 'an object');
      return value as Json;
    },
    arr(value: unknown, field: string): unknown[] {
      if (!Array.isArray(value)) throw invalid(field, 'a list');
      return value;
    },
    str(value: unknown, field: string): string {
      if (typeof value !== 'string' || value === '') throw invalid(field, 'a non-empty string');
      return value;
    },
    optStr(value: unknown, field: string): string | null {
      if (value === undefined || value === null) return null;
      if (typeof value !== 'string') throw invalid(field, 'a string');
      return value;
    },
    int(value: unknown, field: string): number {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(field, 'an integer');
      return value;
    },
    bool(value: unknown, field: string): boolean {
      if (typeof value !== 'boolean') throw invalid(field, 'a boolean');
      return value;
    },
  };
}

/** A product the provider does not document: the port's answer for it. */
export const notOffered = (product: string): ConnectorError => new ConnectorError('provider_error', `${product} is not offered by this connector.`);

/**
 * The credentials method's two calls for an adapter that takes another Link method: a username and
 * password are refused with `message` (shown to the user), and there is never an MFA step.
 */
export function credentialsRefused(message: string): Pick<ConnectorPort, 'login' | 'verifyMfaCode'> {
  return {
    async login(): Promise<LoginResult> {
      return { status: 'invalid_credentials', message };
    },
    async verifyMfaCode() {
      return false;
    },
  };
}
