// The grant tables in lib/ (ROUTE_CAPABILITIES for routes, WORKER_ACCESS for workers) against what
// the code actually calls: every handler's reachable calls of the background ports and the key
// provider (test/cdk/capability-scan.ts). A route whose code starts deliveries, enqueues refreshes or
// seals/opens secrets without being listed would fail on AWS (no environment variable, no IAM
// grant); a listed route that never does holds a grant it does not need. Both fail here.
//
// The same scan holds each route's partition grants (ROUTE_ROWS, tableGrantsFor) to the key builders
// and DynamoDB commands its code reaches: a route that starts touching a row family or making a kind
// of call its grant lacks, or keeps a family or action its code no longer uses, fails here. Which
// action goes with which family, and the index partitions, are checked by the deploy rehearsal
// (test/rehearsal), which records every call the bundled functions make.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROUTES, routeById, type Route } from '../../functions/contracts/routes';
import { keys } from '../../functions/data/keys';
import {
  ROUTE_CAPABILITIES,
  ROUTE_INVOCATIONS,
  PLAID_WEBHOOK_KEY_CONTEXT_KEYS,
  PLAID_WEBHOOK_KEY_PURPOSE,
  PROVIDER_SECRET_CONTEXT_KEYS,
  PROVIDER_SECRET_PURPOSE,
  SECRETS_CONTEXT_KEYS,
  SECRETS_KEY_CONDITIONS,
  WEBHOOK_SECRET_CONTEXT_KEYS,
  WEBHOOK_SECRET_PURPOSE,
  routeAccessFor,
  routeSecretsKeyConditions,
  tableAccessFor,
  tableGrantsFor,
  type RouteCapability,
} from '../../lib/api-grants';
import { WORKER_ACCESS, type WorkerName } from '../../lib/async-jobs-construct';
import { FUNCTIONS_DIR } from '../../lib/fincore-function';
import { createCapabilityScanner, dynamoActionsOf, type CapabilityScanner, type ConditionalStep, type PortCall, type TableUse } from './capability-scan';

/** The handler of each worker (lib/async-jobs-construct.ts builds them from these entries). */
const WORKER_ENTRIES: Record<WorkerName, string> = {
  dispatch: 'workers/webhook-dispatch.ts',
  delivery: 'workers/webhook-delivery.ts',
  deadLetter: 'workers/webhook-dead-letter.ts',
  refresh: 'workers/item-refresh.ts',
  scheduledRefresh: 'workers/scheduled-refresh.ts',
};

const apiEntry = (route: Route) => `api/${route.id}.ts`;

/** Which port calls each capability of ROUTE_CAPABILITIES stands for. */
const CAPABILITY_CALLS: Record<RouteCapability, readonly PortCall[]> = {
  refreshQueue: ['refreshQueue.enqueue'],
  deliveryWorkflow: ['deliveries.start'],
  secretsKey: ['keyProvider.generateDataKey', 'keyProvider.decryptDataKey'],
  model: ['model.refine'],
  connectorConfig: ['connectorConfig.load'],
  consoleIdentity: ['consoleIdentity.fromEnv'],
  consoleEvents: ['eventBus.publish'],
  webhookSecrets: ['webhookSecret.context'],
  providerSecrets: ['providerSecret.context'],
  plaidWebhookKeys: ['plaidWebhookKey.context'],
};

/** The encryption-context purpose each sealed kind's context function stands for. */
const PURPOSE_OF_CONTEXT: Partial<Record<PortCall, string>> = {
  'webhookSecret.context': WEBHOOK_SECRET_PURPOSE,
  'providerSecret.context': PROVIDER_SECRET_PURPOSE,
  'plaidWebhookKey.context': PLAID_WEBHOOK_KEY_PURPOSE,
};
/** Capabilities listed for some routes only (the API's routes all get the events queue with table access). */
const CAPABILITY_SCOPE: Partial<Record<RouteCapability, (route: Route) => boolean>> = {
  consoleEvents: (route) => route.console === true,
};

/** KMS action behind each key-provider call (functions/platform/crypto/kms-key-provider.ts). */
const KMS_ACTION: Partial<Record<PortCall, string>> = {
  'keyProvider.generateDataKey': 'kms:GenerateDataKey',
  'keyProvider.decryptDataKey': 'kms:Decrypt',
};

let scanner: CapabilityScanner;
const scanned = new Map<string, Set<PortCall>>();
const callsOf = (entry: string) => {
  if (!scanned.has(entry)) scanned.set(entry, scanner.scan(entry));
  return scanned.get(entry)!;
};

/**
 * Port calls a route's function can make on the paths its route runs: its own code, plus the
 * wrapper steps it runs (key authentication and the request log for `auth: 'key'`, the item for
 * `item: true`). A console route never authenticates a key, so metering's usage event is not its.
 */
const routeCallsOf = (route: Route): Set<PortCall> => {
  const calls = new Set(scanner.routeScan(apiEntry(route)));
  const steps: ConditionalStep[] = [...(route.auth === 'key' ? (['authenticate', 'recordInRequestLog'] as const) : []), ...(route.item ? (['resolveItem'] as const) : [])];
  for (const step of steps) scanner.stepScan(step).forEach((c) => calls.add(c));
  return calls;
};

beforeAll(() => {
  const entries = [...new Set([...ROUTES.map(apiEntry), ...Object.values(WORKER_ENTRIES)])];
  // One TypeScript program for every handler: building it is most of this suite's time.
  scanner = createCapabilityScanner(entries);
}, 120_000);

describe('the capability scan itself', () => {
  it('finds each kind of port call where the code makes it (so an empty result means something)', () => {
    expect(callsOf('api/items.refresh.ts')).toContain('refreshQueue.enqueue');
    expect(callsOf('workers/webhook-dispatch.ts')).toContain('deliveries.start');
    // The delivery worker opens webhook signing secrets and Plaid webhook keys (their encryption contexts), nothing else.
    expect(callsOf('workers/webhook-delivery.ts')).toEqual(new Set(['keyProvider.decryptDataKey', 'webhookSecret.context', 'plaidWebhookKey.context']));
    expect(callsOf('api/console.webhooks.secret.rotate.ts')).toContain('webhookSecret.context');
    expect(callsOf('api/console.webhooks.secret.rotate.ts')).not.toContain('providerSecret.context');
    expect(callsOf('api/accounts.balance.get.ts')).toContain('providerSecret.context');
    // The console's page and sign-in steps read the deployment's identity (FC_CONSOLE_COGNITO_*).
    expect(callsOf('api/console.auth.callback.ts')).toContain('consoleIdentity.fromEnv');
    expect([...callsOf('api/webhooks.secret.rotate.ts')]).toEqual(
      expect.arrayContaining(['keyProvider.generateDataKey', 'keyProvider.decryptDataKey']),
    );
    // Through the middleware's metering, every key route may publish usage events.
    expect(callsOf('api/items.get.ts')).toContain('eventBus.publish');
  });

  it('follows calls across modules: replay reaches DeliveryStarter.start only through functions/app/webhooks.ts', () => {
    const source = readFileSync(path.join(FUNCTIONS_DIR, 'api/webhooks.events.replay.ts'), 'utf8');
    expect(source).not.toMatch(/deliveries\.start/);
    expect(callsOf('api/webhooks.events.replay.ts')).toContain('deliveries.start');
  });
});

describe('ROUTE_CAPABILITIES lists exactly the routes whose code uses each capability', () => {
  it.each(Object.keys(CAPABILITY_CALLS) as RouteCapability[])('%s', (capability) => {
    const calls = CAPABILITY_CALLS[capability];
    const scope = CAPABILITY_SCOPE[capability] ?? (() => true);
    const reaching = ROUTES.filter((r) => scope(r) && calls.some((c) => routeCallsOf(r).has(c))).map((r) => r.id).sort();
    expect(reaching).toEqual([...ROUTE_CAPABILITIES[capability]].sort());
  });

  it('names only routes that exist', () => {
    const ids = new Set(ROUTES.map((r) => r.id));
    for (const listed of Object.values(ROUTE_CAPABILITIES).flat()) expect(ids).toContain(listed);
  });

  it('ROUTE_INVOCATIONS names exactly the routes whose code hands calls to other routes\' functions (Lambda Invoke)', () => {
    const reaching = ROUTES.filter((r) => routeCallsOf(r).has('routes.invoke')).map((r) => r.id).sort();
    expect(reaching).toEqual(Object.keys(ROUTE_INVOCATIONS).sort());
    // A deployed MCP function runs none of its tools' code: the scan follows only the deployed branch of the in-process switch.
    expect(routeCallsOf(routeById('mcp.call'))).toEqual(new Set(['routes.invoke', ...scanner.stepScan('authenticate'), ...scanner.stepScan('recordInRequestLog')]));
  });

  it('gives the events queue to every route whose code may publish and that has rows to publish from', () => {
    for (const route of ROUTES) {
      const access = routeAccessFor(route);
      // Public documents go through the same operation wrapper (hence the scan finds metering's
      // publish), but never authenticate a key and touch no rows, so they never emit.
      if (access.table === 'none') continue;
      // Console routes never run key authentication (whose metering may publish a usage event): only
      // the paths they run count (ROUTE_CAPABILITIES.consoleEvents).
      const publishes = (route.console ? routeCallsOf(route) : callsOf(apiEntry(route))).has('eventBus.publish');
      expect({ id: route.id, events: access.eventsQueue }).toEqual({ id: route.id, events: publishes });
    }
  });
});

describe('WORKER_ACCESS matches what each worker calls', () => {
  it.each(Object.keys(WORKER_ENTRIES) as WorkerName[])('%s', (name) => {
    const calls = callsOf(WORKER_ENTRIES[name]);
    const access = WORKER_ACCESS[name];
    expect({
      eventsQueue: calls.has('eventBus.publish'),
      refreshQueue: calls.has('refreshQueue.enqueue'),
      startsDeliveries: calls.has('deliveries.start'),
      secretsKey: [...calls].flatMap((c) => KMS_ACTION[c] ?? []).sort(),
    }).toEqual({
      eventsQueue: access.eventsQueue,
      refreshQueue: access.refreshQueue,
      startsDeliveries: access.startsDeliveries,
      secretsKey: [...access.secretsKey].sort(),
    });
  });

  it.each((Object.keys(WORKER_ENTRIES) as WorkerName[]).filter((name) => WORKER_ACCESS[name].secretsKeyConditions))(
    '%s: its secrets-key grant names exactly the purposes whose contexts its code sends',
    (name) => {
      const reached = [...callsOf(WORKER_ENTRIES[name])].flatMap((c) => PURPOSE_OF_CONTEXT[c] ?? []).sort();
      expect([...WORKER_ACCESS[name].secretsKeyConditions!.StringEquals['kms:EncryptionContext:purpose']].sort()).toEqual(reached);
    },
  );
});

describe('the secrets-key grant conditions match the encryption context the code sends', () => {
  it('binds webhook secrets to application_id, environment and purpose webhook_secret', () => {
    // functions/app/webhooks.ts builds the context every encryptSecret/decryptSecret call passes.
    const source = readFileSync(path.join(FUNCTIONS_DIR, 'app/webhooks.ts'), 'utf8');
    const purpose = /const WEBHOOK_SECRET_PURPOSE = '([^']+)'/.exec(source)?.[1];
    expect(purpose).toBe(WEBHOOK_SECRET_PURPOSE);
    const context = /const secretContext = \([^)]*\) => \(\{([^}]*)\}\)/.exec(source)?.[1];
    expect(context).toBeDefined();
    const keys = [...context!.matchAll(/(\w+):/g)].map((m) => m[1]).sort();
    expect(keys).toEqual([...WEBHOOK_SECRET_CONTEXT_KEYS].sort());
    for (const key of keys) expect(SECRETS_CONTEXT_KEYS).toContain(key);
    // Every seal and open there passes that context.
    const calls = source.match(/(encrypt|decrypt)Secret\(deps\.keyProvider, [^;]*/g) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toMatch(/, secretContext\(t\)\)/);
  });

  it('binds provider secrets to application_id, environment, item_id and purpose provider_secrets', () => {
    // functions/app/provider-secrets.ts builds the context of every provider-secret seal and open.
    const source = readFileSync(path.join(FUNCTIONS_DIR, 'app/provider-secrets.ts'), 'utf8');
    expect(/export const PROVIDER_SECRET_PURPOSE = '([^']+)'/.exec(source)?.[1]).toBe(PROVIDER_SECRET_PURPOSE);
    const context = /const contextOf = \([^)]*\) => \(\{([^}]*)\}\)/.exec(source)?.[1];
    expect(context).toBeDefined();
    const keys = [...context!.matchAll(/(\w+):/g)].map((m) => m[1]).sort();
    expect(keys).toEqual([...PROVIDER_SECRET_CONTEXT_KEYS].sort());
    expect(SECRETS_KEY_CONDITIONS.StringEquals['kms:EncryptionContext:purpose']).toEqual([WEBHOOK_SECRET_PURPOSE, PROVIDER_SECRET_PURPOSE]);
    const calls = source.match(/(encrypt|decrypt)Secret\(deps\.keyProvider, [^;]*/g) ?? [];
    expect(calls.length).toBe(2);
    for (const call of calls) expect(call).toMatch(/, contextOf\((owner|item)\)\)/);
  });

  it('binds Plaid webhook keys to application_id, environment, kid and purpose plaid_webhook_key', () => {
    // functions/app/plaid-webhook-keys.ts builds the context of every seal and open of a key's private half.
    const source = readFileSync(path.join(FUNCTIONS_DIR, 'app/plaid-webhook-keys.ts'), 'utf8');
    expect(/export const PLAID_WEBHOOK_KEY_PURPOSE = '([^']+)'/.exec(source)?.[1]).toBe(PLAID_WEBHOOK_KEY_PURPOSE);
    const context = /const keyContext = \([^)]*\) => \(\{([^}]*)\}\)/.exec(source)?.[1];
    expect(context).toBeDefined();
    // `name: value` and shorthand `name` alike.
    const keys = context!.split(',').map((member) => member.split(':')[0].trim()).filter(Boolean).sort();
    expect(keys).toEqual([...PLAID_WEBHOOK_KEY_CONTEXT_KEYS].sort());
    const calls = source.match(/(encrypt|decrypt)Secret\(deps\.keyProvider, [^;]*/g) ?? [];
    expect(calls.length).toBe(2);
    for (const call of calls) expect(call).toMatch(/, keyContext\(t, kid\)\)/);
  });

  it('gives each route only the purposes its code seals or opens, with only their context keys', () => {
    for (const id of ROUTE_CAPABILITIES.secretsKey) {
      const webhook = (ROUTE_CAPABILITIES.webhookSecrets as readonly string[]).includes(id);
      const provider = (ROUTE_CAPABILITIES.providerSecrets as readonly string[]).includes(id);
      const plaid = (ROUTE_CAPABILITIES.plaidWebhookKeys as readonly string[]).includes(id);
      const conditions = routeSecretsKeyConditions(id);
      expect({ id, purposes: conditions.StringEquals['kms:EncryptionContext:purpose'] }).toEqual({
        id,
        purposes: [...(webhook ? [WEBHOOK_SECRET_PURPOSE] : []), ...(provider ? [PROVIDER_SECRET_PURPOSE] : []), ...(plaid ? [PLAID_WEBHOOK_KEY_PURPOSE] : [])],
      });
      expect([...conditions['ForAllValues:StringEquals']['kms:EncryptionContextKeys']].sort()).toEqual(
        [
          ...new Set([
            ...(webhook ? WEBHOOK_SECRET_CONTEXT_KEYS : []),
            ...(provider ? PROVIDER_SECRET_CONTEXT_KEYS : []),
            ...(plaid ? PLAID_WEBHOOK_KEY_CONTEXT_KEYS : []),
          ]),
        ].sort(),
      );
    }
    // Only the Plaid-compatible API opens Plaid webhook keys among the routes.
    expect(ROUTE_CAPABILITIES.plaidWebhookKeys).toEqual(['plaid.call']);
    // The console's webhook routes can never unwrap an item's provider tokens.
    expect(routeSecretsKeyConditions('console.webhooks.endpoints.create').StringEquals['kms:EncryptionContext:purpose']).toEqual([WEBHOOK_SECRET_PURPOSE]);
    expect(routeSecretsKeyConditions('console.webhooks.endpoints.create')['ForAllValues:StringEquals']['kms:EncryptionContextKeys']).not.toContain('item_id');
  });
});

/**
 * The partition patterns a key builder's rows can have: the builder called with a wildcard for every
 * argument (`keys.item('*').pk` is `ITEM#*`), as prefixes: everything after the first wildcard is
 * any value. Builders of index entries only (no `pk`) name no table partition.
 */
function tablePartitionsOf(builder: string): string[] {
  const build = (keys as unknown as Record<string, (...args: unknown[]) => unknown>)[builder];
  if (typeof build !== 'function') throw new Error(`keys.${builder} is not a key builder`);
  const built = build(...Array.from({ length: build.length }, () => '*'));
  const pks = Array.isArray(built) ? built : [(built as { pk?: unknown }).pk];
  return pks.filter((pk): pk is string => typeof pk === 'string').map((pk) => (pk.includes('*') ? pk.slice(0, pk.indexOf('*') + 1) : pk));
}

/** Whether two LeadingKeys patterns (a trailing or inner `*` matching anything) can match the same key. */
function overlap(a: string, b: string): boolean {
  const literal = (p: string) => (p.includes('*') ? p.slice(0, p.indexOf('*')) : p);
  const [la, lb] = [literal(a), literal(b)];
  if (!a.includes('*') && !b.includes('*')) return a === b;
  if (!a.includes('*')) return a.startsWith(lb);
  if (!b.includes('*')) return b.startsWith(la);
  return la.startsWith(lb) || lb.startsWith(la);
}

/**
 * Row families a route's code references but never touches on the path it runs, with the reason. The
 * scan follows references, so a shared function's other branch counts; each entry says why the grant
 * may leave the family out (the rehearsal then proves the route works without it).
 */
const REFERENCED_NOT_TOUCHED: Record<string, Record<string, string>> = {
  'sandbox.public_token.create': {
    'LINK#*': 'commitLinkConnection spends a Link session only when there is one; the sandbox path passes none',
  },
  'console.auth.signup': {
    'USERID#*': 'createUser binds a Cognito identity only when given one; a password sign-up gives none',
  },
};

describe('the partition grants (ROUTE_ROWS) match the rows and calls each route\'s code reaches', () => {
  const none: TableUse = { keyBuilders: new Set(), commands: new Set(), transactionParts: new Set() };
  /** What a route's function can do to the table: its own code, plus the wrapper steps its route runs. */
  const useOf = (route: Route): TableUse => {
    const parts = [
      scanner.tableUse(apiEntry(route)),
      route.auth === 'key' ? scanner.stepTableUse('authenticate') : none,
      route.auth === 'key' ? scanner.stepTableUse('recordInRequestLog') : none,
      route.item ? scanner.stepTableUse('resolveItem') : none,
    ];
    return {
      keyBuilders: new Set(parts.flatMap((p) => [...p.keyBuilders])),
      commands: new Set(parts.flatMap((p) => [...p.commands])),
      transactionParts: new Set(parts.flatMap((p) => [...p.transactionParts])),
    };
  };
  const partitioned = ROUTES.filter((r) => ['auth-and-meter', 'partitions'].includes(tableAccessFor(r)));

  it('finds the table access where the code has it (so an empty result means something)', () => {
    const metering = scanner.stepTableUse('authenticate');
    expect([...metering.keyBuilders].flatMap(tablePartitionsOf)).toContain('KEY#*');
    expect(dynamoActionsOf(metering)).toContain('dynamodb:UpdateItem');
    expect([...scanner.stepTableUse('resolveItem').keyBuilders].sort()).toEqual(['accessToken', 'item']);
    // The wrapper's conditional steps stay out of a route's own code: the public documents touch nothing.
    expect(scanner.tableUse('api/discovery.openapi.ts').keyBuilders.size).toBe(0);
    // Transactions count per item kind: exchanging a public token puts, updates and deletes in one.
    expect([...dynamoActionsOf(useOf(ROUTES.find((r) => r.id === 'link.token.exchange')!))]).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']),
    );
  });

  it.each(partitioned.map((r) => [r.id, r] as const))('%s: every partition family its code reaches is granted, and nothing else', (id, route) => {
    const grants = tableGrantsFor(route);
    const granted = grants.filter((g) => !g.index).flatMap((g) => g.partitions);
    const excused = Object.keys(REFERENCED_NOT_TOUCHED[id] ?? {});
    const reached = [...new Set([...useOf(route).keyBuilders].flatMap(tablePartitionsOf))].filter((p) => !excused.includes(p)).sort();
    expect({ id, notGranted: reached.filter((r) => !granted.some((g) => overlap(g, r))) }).toEqual({ id, notGranted: [] });
    expect({ id, unused: granted.filter((g) => !reached.some((r) => overlap(g, r))) }).toEqual({ id, unused: [] });
  });

  it.each(partitioned.map((r) => [r.id, r] as const))('%s: every kind of DynamoDB call its code makes is granted, and nothing else', (id, route) => {
    const granted = [...new Set(tableGrantsFor(route).flatMap((g) => g.actions))].sort();
    expect({ id, actions: granted }).toEqual({ id, actions: [...dynamoActionsOf(useOf(route))].sort() });
  });

  it('gives the routes without table access no code that touches the table', () => {
    for (const route of ROUTES.filter((r) => tableAccessFor(r) === 'none')) {
      expect({ id: route.id, calls: [...dynamoActionsOf(useOf(route))] }).toEqual({ id: route.id, calls: [] });
    }
  });

  it('excuses only families the grant really leaves out', () => {
    for (const [id, families] of Object.entries(REFERENCED_NOT_TOUCHED)) {
      const route = ROUTES.find((r) => r.id === id)!;
      const granted = tableGrantsFor(route).flatMap((g) => g.partitions);
      const reached = [...useOf(route).keyBuilders].flatMap(tablePartitionsOf);
      for (const family of Object.keys(families)) {
        expect({ id, family, reached: reached.includes(family), granted: granted.some((g) => overlap(g, family)) }).toEqual({ id, family, reached: true, granted: false });
      }
    }
  });
});
