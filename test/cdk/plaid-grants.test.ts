// The Plaid-compatible API's function (`plaid.call`) runs the REST handlers of the routes its
// endpoints wrap (functions/contracts/plaid-endpoints.ts), so its grants are computed from theirs
// (lib/api-grants.ts), plus its own: the Plaid-shaped endpoints it registers and the Plaid webhook
// keys, all under APP#, sealed under their own KMS purpose. test/cdk/route-capabilities.test.ts holds
// the result to the code the scan reaches; this holds the derivation itself, route by route.
import { PLAID_SURFACE_ROUTES } from '../../functions/contracts/plaid-endpoints';
import { routeById } from '../../functions/contracts/routes';
import {
  PLAID_WEBHOOK_KEY_CONTEXT_KEYS,
  PLAID_WEBHOOK_KEY_PURPOSE,
  PROVIDER_SECRET_PURPOSE,
  ROUTE_CAPABILITIES,
  WEBHOOK_SECRET_PURPOSE,
  routeAccessFor,
  routeSecretsKeyConditions,
  tableGrantsFor,
  type RouteCapability,
} from '../../lib/api-grants';

const plaidCall = routeById('plaid.call');
/** Each (resource, action, partition) a set of statements allows. */
const allowed = (route: Parameters<typeof tableGrantsFor>[0]) =>
  new Set(tableGrantsFor(route).flatMap((g) => g.actions.flatMap((action) => g.partitions.map((p) => `${g.index ?? 'table'} ${action} ${p}`))));

describe('plaid.call', () => {
  it('is allowed every table action on every partition each wrapped route is allowed', () => {
    const surface = allowed(plaidCall);
    for (const id of PLAID_SURFACE_ROUTES) {
      const missing = [...allowed(routeById(id))].filter((grant) => !surface.has(grant));
      expect({ route: id, missing }).toEqual({ route: id, missing: [] });
    }
  });

  it('is allowed nothing beyond them but its own rows under APP# (Plaid-shaped endpoints, Plaid webhook keys) and the Link session it marks Plaid-shaped', () => {
    const union = new Set(PLAID_SURFACE_ROUTES.flatMap((id) => [...allowed(routeById(id))]));
    const beyond = [...allowed(plaidCall)].filter((grant) => !union.has(grant));
    // /link/token/create marks the session the route just put: the item it connects gets Plaid's bodies at its webhook URL.
    for (const grant of beyond) expect(grant).toMatch(/^table dynamodb:((GetItem|PutItem|UpdateItem|Query) APP#\*|UpdateItem LINK#\*)$/);
    // The Plaid webhook keys: read, and the first one put (with its current copy) in one transaction.
    expect([...allowed(plaidCall)]).toEqual(expect.arrayContaining(['table dynamodb:GetItem APP#*', 'table dynamodb:PutItem APP#*']));
  });

  it.each((Object.keys(ROUTE_CAPABILITIES) as RouteCapability[]).filter((c) => c !== 'plaidWebhookKeys' && c !== 'secretsKey'))(
    'has %s exactly when one of its wrapped routes has it',
    (capability) => {
      const listed = ROUTE_CAPABILITIES[capability] as readonly string[];
      expect(listed.includes('plaid.call')).toBe(PLAID_SURFACE_ROUTES.some((id) => listed.includes(id)));
    },
  );

  it('opens webhook secrets, provider secrets and Plaid webhook keys, each only under its own encryption context', () => {
    expect(routeAccessFor(plaidCall)).toMatchObject({ table: 'partitions', secretsKey: true, refreshQueue: true, connectorConfig: true, model: false, deliveryWorkflow: false });
    const conditions = routeSecretsKeyConditions('plaid.call');
    expect(conditions.StringEquals['kms:EncryptionContext:purpose']).toEqual([WEBHOOK_SECRET_PURPOSE, PROVIDER_SECRET_PURPOSE, PLAID_WEBHOOK_KEY_PURPOSE]);
    expect(conditions['ForAllValues:StringEquals']['kms:EncryptionContextKeys']).toEqual(expect.arrayContaining([...PLAID_WEBHOOK_KEY_CONTEXT_KEYS]));
    // No other route may unwrap a Plaid webhook key.
    expect(ROUTE_CAPABILITIES.plaidWebhookKeys).toEqual(['plaid.call']);
  });
});
