// Assets, liabilities and net worth of one item (POST /v1/assets/get), by the three rules of spec
// §4 Assets (docs/products.md):
// 1. One currency. The reporting currency is the one asked for or, when none is, the currency that
//    holds the largest absolute balance. Accounts in any other currency are left out of every total,
//    never converted, and listed in `excluded_accounts`.
// 2. Balances are the source of truth. An investment or crypto balance already includes its
//    holdings: holdings are never added on top. `breakdown.holdings` is informational only.
// 3. For investment and crypto accounts the larger of balances.current and the holdings value counts,
//    once.
// Pure: no I/O, no clock. Sums are in integer cents, so totals carry at most two decimals.
import type { z } from 'zod';
import type { ExcludedAccount as ExcludedAccountSchema } from '../contracts/product-schemas';
import type { Account as AccountSchema } from '../contracts/schemas';

export type Account = z.infer<typeof AccountSchema>;
export type ExcludedAccount = z.infer<typeof ExcludedAccountSchema>;

export interface AssetsBreakdown {
  /** Sum of depository balances.current. */
  depository: number;
  /** Sum over investment accounts of max(balances.current, holdings value). */
  investment: number;
  /** Sum over crypto accounts of max(balances.current, holdings value). */
  crypto: number;
  /** Sum of the holdings values of the included investment and crypto accounts. Informational: never part of a total. */
  holdings: number;
  /** Sum of credit balances.current (amount owed). */
  credit: number;
  /** Sum of loan balances.current (principal outstanding). */
  loan: number;
}

export interface AssetsSummary {
  total_assets: number;
  total_liabilities: number;
  net_worth: number;
  iso_currency_code: string;
}

export interface AssetsResponse extends AssetsSummary {
  /** The accounts the totals are made of: every account in the reporting currency. */
  accounts: Account[];
  summary: AssetsSummary;
  breakdown: AssetsBreakdown;
  /** Accounts left out because their currency differs from the reporting currency. */
  excluded_accounts: ExcludedAccount[];
  generated_at: string;
}

/** Reporting currency when none is requested and the item has no accounts. */
export const DEFAULT_ASSETS_CURRENCY = 'USD';

const toCents = (x: number) => Math.round(x * 100);
const fromCents = (c: number) => (c === 0 ? 0 : c / 100);

/**
 * The currency holding the largest sum of absolute balances.current; a tie goes to the
 * alphabetically first code, no accounts to DEFAULT_ASSETS_CURRENCY.
 */
export function reportingCurrency(accounts: readonly Account[]): string {
  const weight = new Map<string, number>();
  for (const a of accounts) {
    const code = a.balances.iso_currency_code;
    weight.set(code, (weight.get(code) ?? 0) + Math.abs(toCents(a.balances.current)));
  }
  let best: string | null = null;
  for (const [code, w] of weight) {
    if (best === null || w > weight.get(best)! || (w === weight.get(best)! && code < best)) best = code;
  }
  return best ?? DEFAULT_ASSETS_CURRENCY;
}

/**
 * The /v1/assets/get response for `accounts`. `holdingsValueByAccount` maps an investment or crypto
 * account_id to the market value of its holdings (absent: the balance alone counts). `currency`
 * forces the reporting currency; null picks it with reportingCurrency().
 *
 * Depository balances count at balances.current (the ledger balance: pending outflows are still the
 * owner's money); credit and loan balances.current are amounts owed and count as liabilities at face
 * value (a negative card balance, an overpayment, lowers total_liabilities).
 */
export function computeAssets(
  accounts: readonly Account[],
  holdingsValueByAccount: Readonly<Record<string, number>>,
  currency: string | null,
  generatedAt: string,
): AssetsResponse {
  const code = currency ?? reportingCurrency(accounts);
  const included: Account[] = [];
  const excluded: ExcludedAccount[] = [];
  const c = { depository: 0, investment: 0, crypto: 0, holdings: 0, credit: 0, loan: 0 };

  for (const account of accounts) {
    if (account.balances.iso_currency_code !== code) {
      excluded.push({ account_id: account.account_id, iso_currency_code: account.balances.iso_currency_code, reason: 'currency_mismatch' });
      continue;
    }
    included.push(account);
    const balance = toCents(account.balances.current);
    switch (account.type) {
      case 'depository':
        c.depository += balance;
        break;
      case 'investment':
      case 'crypto': {
        const reported = Object.prototype.hasOwnProperty.call(holdingsValueByAccount, account.account_id)
          ? holdingsValueByAccount[account.account_id]
          : undefined;
        const holdings = typeof reported === 'number' && Number.isFinite(reported) ? toCents(reported) : null;
        if (holdings !== null) c.holdings += holdings;
        c[account.type] += holdings === null ? balance : Math.max(balance, holdings);
        break;
      }
      case 'credit':
        c.credit += balance;
        break;
      case 'loan':
        c.loan += balance;
        break;
    }
  }

  const assets = c.depository + c.investment + c.crypto;
  const liabilities = c.credit + c.loan;
  const summary: AssetsSummary = {
    total_assets: fromCents(assets),
    total_liabilities: fromCents(liabilities),
    net_worth: fromCents(assets - liabilities),
    iso_currency_code: code,
  };
  return {
    accounts: included,
    ...summary,
    summary: { ...summary },
    breakdown: {
      depository: fromCents(c.depository),
      investment: fromCents(c.investment),
      crypto: fromCents(c.crypto),
      holdings: fromCents(c.holdings),
      credit: fromCents(c.credit),
      loan: fromCents(c.loan),
    },
    excluded_accounts: excluded,
    generated_at: generatedAt,
  };
}
