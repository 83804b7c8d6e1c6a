// The Link page's wording for what the contract defines, in the session's language (../i18n).
// Which products, institution types and error codes exist comes from functions/contracts (as types
// only, so nothing but these strings reaches the bundle): a product or type added to the contract
// without a label in every catalogue, or a fatal error code the contract no longer has
// (../protocol.ts), fails the type check.
import type { Product } from '../../../contracts/schemas';
import type { Translate } from '../i18n';
import { LINK_FATAL_ERRORS, type InstitutionTypeName, type LinkFatalErrorCode } from '../protocol';

/** Errors that end the flow (error screen + Exit): ../protocol.ts LINK_FATAL_ERRORS. */
export const FATAL_ERRORS = LINK_FATAL_ERRORS;
export type FatalErrorCode = LinkFatalErrorCode;

export function isFatalCode(code: string): code is FatalErrorCode {
  return (FATAL_ERRORS as readonly string[]).includes(code);
}

/** The error screen's title and what the user can do next. */
export function fatalCopy(t: Translate, code: FatalErrorCode): { title: string; next: string } {
  return { title: t(`fatal.${code}.title`), next: t(`fatal.${code}.next`) };
}

export function typeLabel(t: Translate, type: InstitutionTypeName): string {
  return t(`type.${type}`);
}

export function productLabel(t: Translate, product: Product): string {
  return t(`product.${product}`);
}
