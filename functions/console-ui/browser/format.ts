// How the console writes times, numbers and roles. Times are shown in the browser's time zone with
// the zone named, and the exact ISO value kept in a <time datetime> for copying and for tests.
import type { ConsoleRole } from './types';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const numbers = new Intl.NumberFormat();

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : dateTime.format(at);
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? 'unlimited' : numbers.format(value);
}

export function percentOf(used: number, quota: number | null): number | null {
  if (quota === null || quota <= 0) return null;
  return Math.round((used / quota) * 1000) / 10;
}

const ROLE_LABELS: Record<ConsoleRole, string> = { owner: 'Owner', admin: 'Admin', developer: 'Developer', viewer: 'Viewer' };

export function roleLabel(role: ConsoleRole | null | undefined): string {
  return role ? ROLE_LABELS[role] : '—';
}

/** "a developer", "an admin", "an owner". */
export function withArticle(role: ConsoleRole): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}

export function environmentLabel(env: 'test' | 'live'): string {
  return env === 'live' ? 'Live' : 'Test';
}

/** The current month as YYYY-MM (UTC, as the quotas count it). */
export function currentMonth(now = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A datetime-local input's value (local time) as an ISO instant; null when empty or invalid. */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/**
 * A request id out of whatever was pasted: the id itself (quotes and spaces around it dropped), or
 * a whole error envelope or log line that carries `"request_id": "..."`. Locally ids look like
 * req_<uuid>; on AWS they are API Gateway's request ids.
 */
export function requestIdFrom(pasted: string): string {
  const named = /"request_id"\s*:\s*"([^"\\]+)"/.exec(pasted);
  if (named) return named[1]!.trim();
  return pasted.trim().replace(/^["'`]+|["'`,]+$/g, '').trim();
}
