// What each API function may do to the table, decided by its route alone (auth mode and
// `dataAccess`). Pure, so the CDK test can compare every role in the template with the access its
// route should get.
import type { Route } from '../functions/contracts/routes';

/**
 * - `none`: public routes that touch no rows (documents, the Link SDK, GraphiQL): no table access.
 * - `auth-and-meter`: key-authenticated routes that touch no rows beyond the key's own: only the one
 *   conditional UpdateItem on the ApiKey row that authenticates, rate-limits and meters the request
 *   (functions/data/api-keys-repo.ts), plus the table key's KMS actions that write needs.
 * - `read-write`: routes with `dataAccess` (items, tokens, link sessions, ...): TableV2.grantReadWriteData
 *   (table and its indexes, and the table key).
 */
export type TableAccess = 'none' | 'auth-and-meter' | 'read-write';

export const AUTH_AND_METER_ACTIONS: readonly string[] = ['dynamodb:UpdateItem'];

/** KMS actions a principal needs for DynamoDB to use the table's customer-managed key on its behalf. */
export const TABLE_KEY_ACTIONS: readonly string[] = ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'];

export function tableAccessFor(route: Pick<Route, 'id' | 'auth' | 'dataAccess'>): TableAccess {
  if (route.dataAccess) return 'read-write';
  switch (route.auth) {
    case 'none':
      return 'none';
    case 'key':
      return 'auth-and-meter';
    case 'link':
      // A link route authenticates by looking its link token up in the table; without data access
      // it could not answer at all, so the route table is wrong rather than the grant.
      throw new Error(`${route.id}: auth 'link' routes read the link session, so they need dataAccess: true`);
  }
}
