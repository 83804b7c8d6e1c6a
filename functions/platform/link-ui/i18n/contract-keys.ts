// The catalogue keys that what the contract defines requires: a label per product and institution
// type, and a title and next step per error that ends the flow. Types only (nothing reaches a bundle).
import type { Product } from '../../../contracts/schemas';
import type { InstitutionTypeName, LinkFatalErrorCode, LinkPageProblem } from '../protocol';

export type ContractMessages = Record<
  | `product.${Product}`
  | `type.${InstitutionTypeName}`
  | `fatal.${LinkFatalErrorCode}.title`
  | `fatal.${LinkFatalErrorCode}.next`
  | `problem.${LinkPageProblem}.${'title' | 'explanation' | 'next'}`,
  string
>;
