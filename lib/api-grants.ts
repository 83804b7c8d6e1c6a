// What each API function may do to the table, decided by its route alone. Pure, so the CDK test can
// compare every role in the template with the access its route should get.
import type { Route } from '../functions/contracts/routes';

/**
 * - `none`: public documents; no table access at all.
 * - `auth-and-meter`: key-authenticated, not tied to an item; only the one conditional UpdateItem on
 *   the ApiKey row that authenticates, rate-limits and meters the request (functions/data/api-keys-repo.ts).
 * - `read-write`: item routes read and write the item's rows and query the GSI (TableV2.grantReadWriteData).
 */
export type TableAccess = 'none' | 'auth-and-meter' | 'read-write';

export const AUTH_AND_METER_ACTIONS: readonly string[] = ['dynamodb:UpdateItem'];

/** KMS actions a principal needs for DynamoDB to use the table's customer-managed key on its behalf. */
export const TABLE_KEY_ACTIONS: readonly string[] = ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'];

export function tableAccessFor(route: Pick<Route, 'auth' | 'item'>): TableAccess {
  if (route.auth === 'none') return 'none';
  return route.item ? 'read-write' : 'auth-and-meter';
}
