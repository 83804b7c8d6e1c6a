// What the sandbox product simulators share: the login's seed and region, money in integer cents,
// and the generator's descriptors read back as patterns.
import { findInstitution } from '../../institutions';
import type { SandboxItemData, SandboxLogin } from '../generator';
import { REGIONS, regionOf, type RegionCode } from '../pools';

export const seedOf = (login: SandboxLogin) => `${login.institutionId}|${login.username}`;

/** The YYYY-MM of a YYYY-MM-DD date. */
export const monthOf = (iso: string) => iso.slice(0, 7);

export const cents = (x: number) => Math.round(x * 100);
export const money = (c: number) => c / 100;

/** round(a * b / d) for non-negative integers, exact. */
export function mulDivRound(a: number, b: number, d: number): number {
  const big = BigInt(a) * BigInt(b);
  const den = BigInt(d);
  return Number((big * 2n + den) / (2n * den));
}

/** A descriptor template from the pools as a regex; `{MASK}` is the given mask. */
export function templateRegex(template: string, mask: string): RegExp {
  const parts = template.split(/(\{[A-Z/]+\d*\})/);
  const body = parts
    .map((part) => {
      if (part === '{MASK}') return mask.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (/^\{[A-Z/]+\d*\}$/.test(part)) return '.*';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

export const ALL_TEXT = Object.values(REGIONS).map((r) => r.text);
export const CARD_PAYMENT_NAMES = new Set(ALL_TEXT.map((t) => t.cardPaymentCard));
export const FX_FEE_NAMES = new Set(ALL_TEXT.map((t) => t.fxFee));

export function regionOfLogin(login: SandboxLogin): RegionCode {
  return regionOf(findInstitution(login.institutionId)?.country_codes[0] ?? 'US');
}

export const settled = (data: SandboxItemData, accountId: string) => data.transactions.filter((t) => t.account_id === accountId && !t.pending);
