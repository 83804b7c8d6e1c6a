// The type every language's catalogue has: exactly the English catalogue's keys, each a string.
import type { EN } from './en';

export type MessageKey = keyof typeof EN;
export type Catalogue = Readonly<Record<MessageKey, string>>;
