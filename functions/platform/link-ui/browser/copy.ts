// The Link page's wording for what the contract defines. Which products, institution types and
// error codes exist comes from functions/contracts (as types only, so nothing but these strings
// reaches the bundle): a product or type added to the contract without a label, or a fatal error
// code the contract no longer has, fails the type check.
import type { ErrorCode } from '../../../contracts/errors';
import type { Product } from '../../../contracts/schemas';
import type { InstitutionTypeName } from '../protocol';

export const TYPE_LABELS: Record<InstitutionTypeName, string> = {
  bank: 'Bank',
  credit_union: 'Credit union',
  payment_app: 'Payment app',
  investment: 'Investment',
  crypto_exchange: 'Crypto exchange',
  crypto_wallet: 'Crypto wallet',
  business: 'Business',
};

export const PRODUCT_LABELS: Record<Product, string> = {
  transactions: 'transactions',
  identity: 'identity',
  income: 'income',
  assets: 'assets',
  investments: 'investments',
  liabilities: 'liabilities',
  recurring: 'recurring payments',
};

interface FatalCopy {
  title: string;
  /** What the user can do next. */
  next: string;
}

/**
 * Errors that end the flow (error screen + Exit). Every other error is shown inline and the user
 * can retry or go back: invalid_credentials and invalid_mfa_code above all.
 */
export const FATAL_ERRORS = {
  item_locked: { title: 'Your login is locked', next: 'Unlock your login with your institution, then try again.' },
  too_many_attempts: { title: 'Too many attempts', next: 'Ask the app for a new link to try again.' },
  link_token_used: { title: 'This link was already used', next: 'Ask the app for a new link.' },
  link_token_expired: { title: 'This link has expired', next: 'Ask the app for a new link.' },
  invalid_link_token: { title: 'This link isn\u2019t valid', next: 'Ask the app for a new link.' },
  provider_error: { title: 'We couldn\u2019t reach your institution', next: 'Try again later.' },
  institution_mismatch: { title: 'This institution can\u2019t be changed', next: 'Ask the app for a new link.' },
  no_mfa_pending: { title: 'Your sign-in was interrupted', next: 'Ask the app for a new link.' },
} as const satisfies Partial<Record<ErrorCode, FatalCopy>>;

export type FatalErrorCode = keyof typeof FATAL_ERRORS;
