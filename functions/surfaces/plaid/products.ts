// Product names between Plaid and us. Ours are a subset of Plaid's under Plaid's names, except
// income (Plaid's current name is `income_verification`; its older `income` is read too) and
// recurring (Plaid's `recurring_transactions`). Plaid products we do not serve (auth, transfer,
// signal, ...) are refused as Plaid's INVALID_PRODUCT; `balance` and `transactions_refresh` need no
// product here (balances come with every item, refresh with transactions) and are dropped.
import type { Products } from 'plaid';
import type { Product } from '../../contracts/schemas';
import { invalidProduct } from '../../core/plaid/errors';
import type { Wire } from './wire';

export type PlaidProduct = Wire<Products>;

const PLAID_NAME_OF: Readonly<Record<Product, PlaidProduct>> = {
  transactions: 'transactions',
  identity: 'identity',
  income: 'income_verification',
  assets: 'assets',
  investments: 'investments',
  liabilities: 'liabilities',
  recurring: 'recurring_transactions',
};

const OURS_OF: Readonly<Record<string, Product>> = {
  ...Object.fromEntries(Object.entries(PLAID_NAME_OF).map(([ours, plaid]) => [plaid, ours as Product])),
  income: 'income',
};

/** Needed by no endpoint here: accepted in a product list and dropped. */
const IMPLIED: ReadonlySet<string> = new Set(['balance', 'transactions_refresh']);

export const plaidProductsOf = (products: readonly Product[]): PlaidProduct[] => products.map((p) => PLAID_NAME_OF[p]);

/** Plaid product names -> ours, without repeats; null when one of them is not served here. */
export function servedProductsOf(products: readonly string[]): Product[] | null {
  const ours = new Set<Product>();
  for (const name of products) {
    if (IMPLIED.has(name)) continue;
    if (!Object.hasOwn(OURS_OF, name)) return null;
    ours.add(OURS_OF[name]);
  }
  return [...ours];
}

/** Plaid product names -> ours, without repeats; INVALID_PRODUCT for one we do not serve. */
export function ourProductsOf(products: readonly string[]): Product[] {
  const ours = servedProductsOf(products);
  if (ours === null) {
    const unserved = products.filter((name) => !IMPLIED.has(name) && !Object.hasOwn(OURS_OF, name));
    throw invalidProduct(`Not served by the Fincore Plaid-compatible API: ${unserved.join(', ')}. Served products: ${Object.keys(OURS_OF).join(', ')}.`);
  }
  return ours;
}
