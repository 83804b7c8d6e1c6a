// Cold-start cost of every route bundle, beside a reference handler that imports only the DynamoDB
// document client. Each bundle is built with esbuild exactly as lib/fincore-function.ts has the CDK
// build it (keep BUNDLE_OPTIONS in step with its `bundling` block), then loaded in fresh Node
// processes. Per bundle it prints:
//
// - size of index.js (minified, source map excluded) and the difference from the reference;
// - module-load time (median of N fresh processes, run with the NODE_OPTIONS the stack sets) as a
//   ratio to the reference's, measured in the same rounds so machine load affects both alike;
// - the cost of formatting the first error stack whose frames are in the bundle, with and without
//   `--enable-source-maps` (the first formatting is when Node parses the bundle's source map).
//
// Targets: at most 250 KB beyond the reference's size, load within 1.5x of the reference's.
// Figures are printed, never asserted. esbuild's metafile names the biggest contributors.
//
//   npx tsx bench/cold-start.ts          (BENCH_COLD_START_RUNS=9 for more rounds)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { ROUTES } from '../functions/contracts/routes';
import { isInvokedByRoutes, routeAccessFor } from '../lib/api-grants';
import { ESM_ALIASES } from '../lib/bundle-aliases';
import { bundledSdksFor, sdkDefines } from '../lib/bundled-sdks';
import { ROOT, fmt, table } from './lib';

const RUNS = Number(process.env.BENCH_COLD_START_RUNS ?? 5);
const KB = 1024;
const SIZE_BUDGET_BEYOND_REFERENCE = 250 * KB;
const LOAD_RATIO_BUDGET = 1.5;
const OUT_DIR = join(ROOT, '.bench', 'cold-start');
/**
 * Deployed functions run without `--enable-source-maps` (lib/fincore-function.ts: the first error
 * stack would parse the whole map, this bench's last column); the bundles still ship their `.map`.
 */
const SOURCE_MAPS_OPTION = '--enable-source-maps';

/**
 * The CDK's esbuild arguments for our `bundling` props: --bundle --target=node22 --platform=node --format=cjs --minify --sourcemap --sources-content=false, no externals.
 * test/unit/route-bundles.test.ts builds route bundles with them too.
 */
export const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  target: 'node22',
  platform: 'node',
  format: 'cjs',
  // As lib/fincore-function.ts: graphql in its ES module build (lib/bundle-aliases.ts).
  alias: ESM_ALIASES,
  // The aliases' paths are relative to the project root, where the CDK runs esbuild.
  absWorkingDir: ROOT,
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  external: [],
  metafile: true,
  logLevel: 'warning',
};

const REFERENCE_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async (event: { id: string }) =>
  ddb.send(new GetCommand({ TableName: process.env.FC_TABLE_NAME, Key: { pk: event.id, sk: event.id } }));
`;

interface Bundle {
  name: string;
  file: string;
  bytes: number;
  metafile: Metafile;
}

interface Sample {
  loadMs: number;
  /** Milliseconds to format the first error stack that has frames in the bundle; NaN if none was seen. */
  firstStackMs: number;
}

async function buildBundle(
  name: string,
  entry: BuildOptions['entryPoints'] | { stdin: BuildOptions['stdin'] },
  define?: Record<string, string>,
): Promise<Bundle> {
  const outfile = join(OUT_DIR, name, 'index.js');
  const result = await build({
    ...BUNDLE_OPTIONS,
    define,
    ...(Array.isArray(entry) ? { entryPoints: entry } : (entry as { stdin: BuildOptions['stdin'] })),
    outfile,
  });
  return { name, file: outfile, bytes: statSync(outfile).size, metafile: result.metafile! };
}

// Runs in the child: loads the bundle, then calls its handler with an event whose first property
// read formats a fresh error's stack (its frames are the bundle's) and then aborts the handler.
const PROBE = `
const { performance } = require('node:perf_hooks');
const t0 = performance.now();
const mod = require(process.argv[1]);
const loadMs = performance.now() - t0;
let firstStackMs = NaN;
const event = new Proxy({}, { get() {
  if (Number.isNaN(firstStackMs)) {
    const t = performance.now();
    void new Error('probe').stack;
    firstStackMs = performance.now() - t;
  }
  throw new Error('cold-start probe: stop here');
} });
const done = () => { process.stdout.write(JSON.stringify({ loadMs, firstStackMs })); process.exit(0); };
Promise.resolve().then(() => mod.handler(event, { awsRequestId: 'probe', getRemainingTimeInMillis: () => 30000 })).then(done, done);
`;

function sample(bundle: Bundle, nodeOptions: string): Sample {
  const out = execFileSync(process.execPath, ['-e', PROBE, bundle.file], {
    encoding: 'utf8',
    timeout: 20_000,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      PATH: process.env.PATH,
      NODE_OPTIONS: nodeOptions,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      FC_STAGE: 'sandbox',
      FC_TABLE_NAME: 'fincore-bench',
      // Nothing listens here: a handler that gets as far as DynamoDB fails fast instead of hanging.
      FC_DYNAMODB_ENDPOINT: 'http://127.0.0.1:9',
    },
  });
  return JSON.parse(out) as Sample;
}

const median = (values: number[]): number => {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2;
};

const kb = (bytes: number) => fmt(bytes / KB, 0);

/** Groups a metafile input path by npm package, or by our folder under functions/. */
function contributor(input: string): string {
  const nm = input.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = input.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const ours = /^functions\/([^/]+)/.exec(input);
  if (ours) return `functions/${ours[1]}`;
  return input;
}

function contributions(bundle: Bundle): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const output of Object.values(bundle.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const key = contributor(input);
      bytes.set(key, (bytes.get(key) ?? 0) + bytesInOutput);
    }
  }
  return bytes;
}

/** The build-time SDK switches the stack gives this route's function (lib/api-route-stack.ts). */
export function routeDefines(routeId: string | undefined): Record<string, string> | undefined {
  const route = ROUTES.find((r) => r.id === routeId);
  return route ? sdkDefines(bundledSdksFor(routeAccessFor(route)), { answersInlineCalls: isInvokedByRoutes(route.id) }) : undefined;
}

export async function runColdStart(): Promise<void> {
  console.log(`\n== Cold start: route bundles vs a DynamoDB-document-client-only handler (${RUNS} rounds, node ${process.version}) ==`);
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });

  const apiDir = join(ROOT, 'functions', 'api');
  const entries: Array<{ name: string; path: string; routeId: string }> = readdirSync(apiDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => ({ name: f.replace(/\.ts$/, ''), path: join(apiDir, f), routeId: f.replace(/\.ts$/, '') }));
  const reference = await buildBundle('reference', {
    stdin: { contents: REFERENCE_SOURCE, resolveDir: ROOT, sourcefile: 'reference-handler.ts', loader: 'ts' },
  });
  const bundles: Bundle[] = [];
  for (const entry of entries) bundles.push(await buildBundle(entry.name, [entry.path], routeDefines(entry.routeId)));

  // Interleaved rounds: each round measures the reference, then every bundle, so a busy moment on
  // the machine lands on both sides of a ratio rather than on one bundle.
  const all = [reference, ...bundles];
  const deployed = new Map<string, Sample[]>(all.map((b) => [b.name, []]));
  const mapped = new Map<string, Sample[]>(all.map((b) => [b.name, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const bundle of all) {
      deployed.get(bundle.name)!.push(sample(bundle, ''));
      mapped.get(bundle.name)!.push(sample(bundle, SOURCE_MAPS_OPTION));
    }
  }

  const loadOf = (name: string) => median(deployed.get(name)!.map((s) => s.loadMs));
  const referenceLoad = loadOf('reference');
  const rows = all.map((bundle) => {
    const load = loadOf(bundle.name);
    const stackPlain = median(deployed.get(bundle.name)!.map((s) => s.firstStackMs));
    const stackMapped = median(mapped.get(bundle.name)!.map((s) => s.firstStackMs));
    return {
      bundle: bundle.name,
      KB: kb(bundle.bytes),
      'KB beyond ref': bundle === reference ? '-' : kb(bundle.bytes - reference.bytes),
      'load ms': fmt(load, 1),
      'load ms (source maps)': fmt(median(mapped.get(bundle.name)!.map((s) => s.loadMs)), 1),
      'x ref': fmt(load / referenceLoad),
      'first stack ms': fmt(stackPlain),
      'first stack ms (maps)': fmt(stackMapped),
    };
  });
  console.log(table(rows));

  const sizes = bundles.map((b) => b.bytes).sort((a, b) => a - b);
  const ratios = bundles.map((b) => loadOf(b.name) / referenceLoad).sort((a, b) => a - b);
  const overSize = bundles.filter((b) => b.bytes - reference.bytes > SIZE_BUDGET_BEYOND_REFERENCE);
  const overLoad = bundles.filter((b) => loadOf(b.name) / referenceLoad > LOAD_RATIO_BUDGET);
  console.log(`Reference: ${kb(reference.bytes)} KB, load ${fmt(referenceLoad, 1)} ms (as deployed: no ${SOURCE_MAPS_OPTION}).`);
  console.log(`Route bundles (${bundles.length}): size min/median/max ${kb(sizes[0])} / ${kb(median(sizes))} / ${kb(sizes[sizes.length - 1])} KB; load ratio min/median/max ${fmt(ratios[0])} / ${fmt(median(ratios))} / ${fmt(ratios[ratios.length - 1])}x.`);
  console.log(`Target size <= reference + ${SIZE_BUDGET_BEYOND_REFERENCE / KB} KB: ${overSize.length === 0 ? 'met' : `NOT met (${overSize.length} of ${bundles.length} over)`}.`);
  console.log(`Target load <= ${LOAD_RATIO_BUDGET}x reference: ${overLoad.length === 0 ? 'met' : `NOT met (${overLoad.length} of ${bundles.length} over)`}.`);

  // Biggest contributors: median bytes per package across the route bundles, and the reference's share.
  const perBundle = bundles.map(contributions);
  const referenceBytes = contributions(reference);
  const keys = new Set(perBundle.flatMap((m) => [...m.keys()]));
  const contributorRows = [...keys]
    .map((key) => ({ key, median: median(perBundle.map((m) => m.get(key) ?? 0)), in: perBundle.filter((m) => m.has(key)).length }))
    .sort((a, b) => b.median - a.median)
    .slice(0, 15)
    .map(({ key, median: bytes, in: count }) => ({
      contributor: key,
      'median KB per route bundle': kb(bytes),
      'in bundles': `${count}/${bundles.length}`,
      'KB in reference': kb(referenceBytes.get(key) ?? 0),
    }));
  console.log('\nBiggest contributors (esbuild metafile, bytes in the minified output):');
  console.log(table(contributorRows));
}

if (require.main === module) {
  runColdStart().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
