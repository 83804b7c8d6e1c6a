// The grant tables in lib/ (ROUTE_CAPABILITIES for routes, WORKER_ACCESS for workers) against what
// the code actually calls: every handler's reachable calls of the background ports and the key
// provider (test/cdk/capability-scan.ts). A route whose code starts deliveries, enqueues refreshes or
// seals/opens secrets without being listed would fail on AWS (no environment variable, no IAM
// grant); a listed route that never does holds a grant it does not need. Both fail here.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROUTES, type Route } from '../../functions/contracts/routes';
import { ROUTE_CAPABILITIES, SECRETS_CONTEXT_KEYS, WEBHOOK_SECRET_PURPOSE, routeAccessFor, type RouteCapability } from '../../lib/api-grants';
import { PLANNED_ROUTE_ENTRY, routeEntry } from '../../lib/api-route-stack';
import { WORKER_ACCESS, type WorkerName } from '../../lib/async-jobs-construct';
import { FUNCTIONS_DIR } from '../../lib/fincore-function';
import { createCapabilityScanner, type CapabilityScanner, type PortCall } from './capability-scan';

/** The handler of each worker (lib/async-jobs-construct.ts builds them from these entries). */
const WORKER_ENTRIES: Record<WorkerName, string> = {
  dispatch: 'workers/webhook-dispatch.ts',
  delivery: 'workers/webhook-delivery.ts',
  deadLetter: 'workers/webhook-dead-letter.ts',
  refresh: 'workers/item-refresh.ts',
  scheduledRefresh: 'workers/scheduled-refresh.ts',
};

const apiEntry = (route: Route) => routeEntry(route, (r) => `api/${r.id}.ts`);

/** Which port calls each capability of ROUTE_CAPABILITIES stands for. */
const CAPABILITY_CALLS: Record<RouteCapability, readonly PortCall[]> = {
  refreshQueue: ['refreshQueue.enqueue'],
  deliveryWorkflow: ['deliveries.start'],
  secretsKey: ['keyProvider.generateDataKey', 'keyProvider.decryptDataKey'],
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

beforeAll(() => {
  const entries = [...new Set([...ROUTES.map(apiEntry), ...Object.values(WORKER_ENTRIES)])];
  // One TypeScript program for every handler: building it is most of this suite's time.
  scanner = createCapabilityScanner(entries);
}, 120_000);

describe('the capability scan itself', () => {
  it('finds each kind of port call where the code makes it (so an empty result means something)', () => {
    expect(callsOf('api/items.refresh.ts')).toContain('refreshQueue.enqueue');
    expect(callsOf('workers/webhook-dispatch.ts')).toContain('deliveries.start');
    expect(callsOf('workers/webhook-delivery.ts')).toEqual(new Set(['keyProvider.decryptDataKey']));
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
    const reaching = ROUTES.filter((r) => calls.some((c) => callsOf(apiEntry(r)).has(c))).map((r) => r.id).sort();
    expect(reaching).toEqual([...ROUTE_CAPABILITIES[capability]].sort());
  });

  it('names only routes that exist', () => {
    const ids = new Set(ROUTES.map((r) => r.id));
    for (const listed of Object.values(ROUTE_CAPABILITIES).flat()) expect(ids).toContain(listed);
  });

  it('gives the events queue to every route whose code may publish and that has rows to publish from', () => {
    for (const route of ROUTES) {
      const access = routeAccessFor(route);
      // Public documents go through the same operation wrapper (hence the scan finds metering's
      // publish), but never authenticate a key and touch no rows, so they never emit.
      if (access.table === 'none') continue;
      expect({ id: route.id, events: access.eventsQueue }).toEqual({ id: route.id, events: callsOf(apiEntry(route)).has('eventBus.publish') });
    }
  });

  it('scans the planned-route entry too: planned routes use no background capability', () => {
    const calls = callsOf(PLANNED_ROUTE_ENTRY);
    for (const capability of Object.keys(CAPABILITY_CALLS) as RouteCapability[]) {
      for (const call of CAPABILITY_CALLS[capability]) expect(calls.has(call)).toBe(false);
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
    expect(keys).toEqual([...SECRETS_CONTEXT_KEYS].sort());
    // Every seal and open there passes that context.
    const calls = source.match(/(encrypt|decrypt)Secret\(deps\.keyProvider, [^;]*/g) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toMatch(/, secretContext\(t\)\)/);
  });
});
