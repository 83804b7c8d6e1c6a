// Reading the provider's untrusted JSON: every field the adapter uses is checked, so a missing or
// ill-typed field ends the call with a provider_error naming the field (../payload.ts).
import { fieldReaders } from '../payload';

export type { Json } from '../payload';
export const { invalid, obj, arr, str, optStr, int, bool } = fieldReaders('The aggregator');
