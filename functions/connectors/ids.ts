// Stable ids for what connectors report. A provider's own ids can be long, can repeat across
// providers and sometimes carry personal data (an IBAN as an account id), so the API never shows
// them: every account and transaction id is a hash of the connector, the item's login and the
// provider's id. The same upstream object always maps to the same id (re-reads and overlapping
// pages add nothing twice), and ids of different items or connectors never collide.
import { createHash } from 'node:crypto';

/** `acc_…` / `txn_…` / `sec_…`: 24 hex chars of SHA-256 over the parts, NUL-separated. */
export function stableId(prefix: 'acc' | 'txn' | 'sec' | 'hld' | 'inv', ...parts: readonly string[]): string {
  return `${prefix}_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24)}`;
}
