// Readers for the indexers' JSON: their answers are untrusted input, so a missing or ill-typed
// field ends the call as provider_error naming the field, never as a TypeError or a NaN.
import { ConnectorError } from '../../core/connector-port';

export type Json = Record<string, unknown>;

export const bad = (what: string): ConnectorError => new ConnectorError('provider_error', `The chain indexer answered an unreadable payload: ${what}.`);

export function record(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${where} is not an object`);
  return value as Json;
}

export function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw bad(`${where} is not a list`);
  return value;
}

export function text(o: Json, key: string, where: string): string {
  const value = o[key];
  if (typeof value !== 'string') throw bad(`${where}.${key} is missing or not a string`);
  return value;
}

/** A non-negative whole number of base units (satoshis) sent as a JSON number. */
export function units(o: Json, key: string, where: string): bigint {
  const value = o[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw bad(`${where}.${key} is not a whole non-negative number`);
  return BigInt(value);
}

/** A non-negative whole number of base units (wei, a block number) sent as a decimal string. */
export function decimalUnits(o: Json, key: string, where: string): bigint {
  const value = o[key];
  if (typeof value !== 'string' || !/^\d{1,78}$/.test(value)) throw bad(`${where}.${key} is not a whole non-negative number`);
  return BigInt(value);
}

/**
 * `units` base units as a decimal amount with `decimals` places, exactly (BigInt division), then
 * as the nearest double: 2^53 satoshis or wei would lose precision under floating division first.
 */
export function toDecimal(units: bigint, decimals: number): number {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = magnitude / scale;
  const fraction = (magnitude % scale).toString().padStart(decimals, '0');
  const value = Number(`${whole}.${fraction}`);
  return negative && value !== 0 ? -value : value;
}

/** Unix seconds to an ISO date (UTC). */
export function isoDateOfUnix(seconds: bigint | number, where: string): string {
  const ms = Number(seconds) * 1000;
  if (!Number.isFinite(ms) || ms <= 0 || ms > 8.64e15) throw bad(`${where} is not a valid time`);
  return new Date(ms).toISOString().slice(0, 10);
}
