// A route's Lambda bundle carries its own route's declaration and schemas, and none of the other
// routes': handlers bind to their route's const (`defineOperation(accountsGet, ...)`), and every
// top-level value of the contract modules is `@__PURE__` with side-effect-free arguments, so esbuild
// drops what a handler does not reference (functions/contracts/routes.ts). The bundles are built as
// the stack builds them (bench/cold-start.ts BUNDLE_OPTIONS), in memory; the whole table still
// reaches the functions that need it, and the OpenAPI function's tree-shaken bundle still generates
// the committed openapi.json (its component names come from zod's global registry, which a dropped
// schema would leave out).
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_OPTIONS, routeDefines } from '../../bench/cold-start';
import * as contract from '../../functions/contracts/routes';
import { ROUTES, type Route } from '../../functions/contracts/routes';

const ROOT = join(__dirname, '..', '..');
const CONTRACTS_DIR = join(ROOT, 'functions', 'contracts');
const AI_SCHEMAS = 'functions/contracts/ai-schemas.ts';

/** The stack's options, in memory and without the source map (it does not change the code). */
const IN_MEMORY: BuildOptions = { ...BUNDLE_OPTIONS, sourcemap: false, write: false, metafile: true, logLevel: 'silent' };

interface Built {
  code: string;
  /** Bytes each input file contributes to the output (absent: nothing). */
  bytesOf: (input: string) => number;
}

async function bundle(options: BuildOptions): Promise<Built> {
  const result = await build({ ...IN_MEMORY, ...options });
  const output = Object.values((result.metafile as Metafile).outputs)[0];
  return { code: result.outputFiles![0].text, bytesOf: (input) => output.inputs[input]?.bytesInOutput ?? 0 };
}

const routeBundle = (route: Route) => bundle({ entryPoints: [join(ROOT, 'functions', 'api', `${route.id}.ts`)], define: routeDefines(route.id) });

/** The operationId-style name a route's const has: `accounts.get` -> `accountsGet` (as openapi.json's operationIds). */
const constNameOf = (id: string) => id.split(/[._-]/).map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join('');

/**
 * A string that shows a route's declaration is in a bundle: the longest run of its summary that
 * esbuild writes out unescaped (no quotes, backslashes or non-ASCII). Checked unique below.
 */
const markerOf = (route: Route) => ([...(route.summary.match(/[A-Za-z0-9 ,.:;()/=+?&<>_-]+/g) ?? [])].sort((a, b) => b.length - a.length)[0] ?? '').trim();

const byId = (id: string) => ROUTES.find((r) => r.id === id)!;

// Plain routes of each kind (item, the Link page and its API, webhooks management, public, the
// console's API and page) and an AI route, whose rules answers' schemas are the largest of the contract.
const PLAIN_ROUTES = ['accounts.get', 'transactions.sync', 'link.session', 'link.page', 'webhooks.secret.rotate', 'health.get', 'console.session', 'console.keys.create', 'console.usage.get', 'console.page'];
const AI_ROUTE = 'ai.subscriptions';

describe('route declarations', () => {
  it('are each exported as the const named after the route id, the one object the table holds', () => {
    const exported = contract as unknown as Record<string, unknown>;
    expect(ROUTES.filter((route) => exported[constNameOf(route.id)] !== route).map((route) => route.id)).toEqual([]);
    // And every route-shaped export is in the table (a declaration left out of DECLARED_ROUTES would have no endpoint).
    const routeShaped = Object.entries(exported).filter(([, value]) => typeof value === 'object' && value !== null && 'path' in value && 'method' in value && 'summary' in value);
    expect(routeShaped.filter(([, value]) => !ROUTES.includes(value as Route)).map(([name]) => name)).toEqual([]);
    expect(routeShaped).toHaveLength(ROUTES.length);
  });

  it('have summaries that tell them apart in a bundle', () => {
    for (const route of ROUTES) {
      const marker = markerOf(route);
      expect({ id: route.id, long: marker.length >= 20 }).toEqual({ id: route.id, long: true });
      const alsoIn = ROUTES.filter((other) => other !== route && `${other.summary} ${other.description ?? ''}`.includes(marker)).map((other) => other.id);
      expect({ id: route.id, alsoIn }).toEqual({ id: route.id, alsoIn: [] });
    }
  });
});

describe('tree-shaking of the contract', () => {
  it('a module that imports a contract module and uses none of it carries none of it', async () => {
    const modules = readdirSync(CONTRACTS_DIR).filter((file) => file.endsWith('.ts'));
    const leftovers = await Promise.all(
      modules.map(async (file) => {
        const built = await bundle({ stdin: { contents: `import './functions/contracts/${file}';`, resolveDir: ROOT, loader: 'ts' } });
        // A top-level value esbuild cannot prove free of side effects (a bare call, a computed
        // argument, a template string) stays, with whatever it references.
        const kept = modules.map((other) => `functions/contracts/${other}`).filter((input) => built.bytesOf(input) > 0);
        return { module: file, kept };
      }),
    );
    expect(leftovers.filter(({ kept }) => kept.length > 0)).toEqual([]);
  }, 60_000);

  it("each route's bundle carries its own route and no other route's declaration; only AI routes carry the AI schemas", async () => {
    const ids = [...PLAIN_ROUTES, AI_ROUTE];
    const built = await Promise.all(ids.map((id) => routeBundle(byId(id))));
    const found = ids.map((id, i) => {
      const { code, bytesOf } = built[i];
      const own = byId(id);
      return {
        id,
        own: code.includes(markerOf(own)) && code.includes(JSON.stringify(own.path)),
        others: ROUTES.filter((route) => route !== own && code.includes(markerOf(route))).map((route) => route.id),
        aiSchemas: bytesOf(AI_SCHEMAS) > 0,
      };
    });
    expect(found).toEqual(ids.map((id) => ({ id, own: true, others: [], aiSchemas: id === AI_ROUTE })));
  }, 60_000);

  it('the OpenAPI function, tree-shaken, still serves the committed openapi.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fc-route-bundles-'));
    try {
      const built = await bundle({ stdin: { contents: "export { buildOpenApi } from './functions/platform/openapi';", resolveDir: ROOT, loader: 'ts' } });
      // Every route's declaration is in it: the document describes them all.
      expect(ROUTES.filter((route) => !built.code.includes(markerOf(route))).map((route) => route.id)).toEqual([]);
      const file = join(dir, 'openapi-bundle.js');
      writeFileSync(file, built.code);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the freshly built bundle
      const { buildOpenApi } = require(file) as { buildOpenApi: () => object };
      expect(`${JSON.stringify(buildOpenApi(), null, 2)}\n`).toBe(readFileSync(join(ROOT, 'openapi.json'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
