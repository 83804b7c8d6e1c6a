// Builds the console web app (functions/console-ui/browser/: React 18 + chart.js, TSX) with esbuild
// into ONE script and ONE stylesheet, and packs them into the committed module
// functions/console-ui/generated/assets.ts, which GET /console/ serves from its own origin
// (functions/console-ui/page.ts), as the GraphiQL page does with its assets (bin/build-graphiql.ts).
//
// Each asset is stored brotli-compressed and base64-encoded, with its SHA-256 (the version in its
// URL) and SHA-384 (its Subresource Integrity), computed here so a page view never hashes anything.
// Committing the output keeps CDK bundling and `tsx` local runs free of a build step.
//
// The build refuses what the page's CSP or its size budget would not take: code that evaluates
// strings (eval, new Function: the CSP has no 'unsafe-eval'), zod or any server module pulled in
// by an import of the contract, and a script over SCRIPT_BUDGET_BYTES.
//
// `--check` rebuilds and fails when the committed module no longer holds exactly what the sources
// build to (it compares the served content and the recorded hashes, not the compressed bytes, which
// may differ between brotli versions); `--write` (the default) rewrites it.
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';

const ROOT = join(__dirname, '..');
const BROWSER_DIR = join(ROOT, 'functions/console-ui/browser');
const OUTPUT = join(ROOT, 'functions/console-ui/generated/assets.ts');

/** React and ReactDOM (~140 KB) plus the bar chart's part of chart.js and the app: well under this. */
export const SCRIPT_BUDGET_BYTES = 450 * 1024;

/** Packages the script may contain; anything else (zod through a contract import, say) is a mistake. */
const ALLOWED_PACKAGES = ['react', 'react-dom', 'scheduler', 'chart.js', '@kurkle/color'];

interface AssetSource {
  /** The name in the asset's URL (`/console/?asset=<name>&v=<version>`). */
  name: string;
  entry: string;
  contentType: string;
}

export const ASSET_SOURCES: readonly AssetSource[] = [
  { name: 'console.css', entry: 'styles.css', contentType: 'text/css; charset=utf-8' },
  { name: 'console.js', entry: 'main.tsx', contentType: 'text/javascript; charset=utf-8' },
];

export interface PackedAsset {
  name: string;
  contentType: string;
  bytes: number;
  /** Hex SHA-256 of the served bytes: the `v` of the asset's URL. */
  sha256: string;
  /** The Subresource Integrity value of the served bytes. */
  integrity: string;
  brotliBase64: string;
}

const BUILD_OPTIONS = {
  bundle: true,
  minify: true,
  // Chromium, Firefox and Safari of the last few years: optional chaining and ?? stay as they are.
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  platform: 'browser',
  charset: 'utf8',
  // The licences of React and chart.js (MIT) stay with the code, at its end.
  legalComments: 'eof',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  write: false,
  logLevel: 'silent',
  absWorkingDir: ROOT,
} satisfies BuildOptions;

function packagesOf(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) names.add(match[1]!);
  }
  return [...names].sort();
}

/** The bytes each asset serves, built from the sources; throws when a guard above fails. */
export function buildContents(): Map<string, string> {
  const contents = new Map<string, string>();
  for (const source of ASSET_SOURCES) {
    const isScript = source.entry.endsWith('.tsx');
    const result = buildSync({
      ...BUILD_OPTIONS,
      entryPoints: [join(BROWSER_DIR, source.entry)],
      tsconfig: join(BROWSER_DIR, 'tsconfig.json'),
      format: isScript ? 'iife' : undefined,
      outfile: join(BROWSER_DIR, 'out', source.name),
    });
    const out = result.outputFiles.find((f) => f.path.endsWith(source.name));
    if (!out) throw new Error(`esbuild wrote no ${source.name}`);
    const content = `${out.text.trimEnd()}\n`;
    if (isScript) {
      const unexpected = packagesOf(result.metafile).filter((name) => !ALLOWED_PACKAGES.includes(name));
      if (unexpected.length > 0) throw new Error(`${source.entry} bundles ${unexpected.join(', ')}: the console script may hold only ${ALLOWED_PACKAGES.join(', ')}`);
      const server = Object.keys(result.metafile.inputs).filter((input) => input.startsWith('functions/') && !/^functions\/(console-ui\/browser|contracts|core\/console-permissions\.ts)/.test(input));
      if (server.length > 0) throw new Error(`${source.entry} bundles server modules: ${server.join(', ')}`);
      if (/\beval\(|\bnew Function\(/.test(content)) throw new Error(`${source.entry} evaluates strings (eval or new Function): the console's CSP forbids it`);
      if (Buffer.byteLength(content) > SCRIPT_BUDGET_BYTES) throw new Error(`${source.name} is ${Buffer.byteLength(content)} bytes, over the ${SCRIPT_BUDGET_BYTES} budget`);
    }
    contents.set(source.name, content);
  }
  return contents;
}

function sha(algorithm: 'sha256' | 'sha384', content: string, encoding: 'hex' | 'base64'): string {
  return createHash(algorithm).update(content, 'utf8').digest(encoding);
}

function describe(source: AssetSource, content: string): Omit<PackedAsset, 'brotliBase64'> {
  return {
    name: source.name,
    contentType: source.contentType,
    bytes: Buffer.byteLength(content, 'utf8'),
    sha256: sha('sha256', content, 'hex'),
    integrity: `sha384-${sha('sha384', content, 'base64')}`,
  };
}

export function packAssets(contents: Map<string, string>): PackedAsset[] {
  return ASSET_SOURCES.map((source) => {
    const content = contents.get(source.name)!;
    const compressed = brotliCompressSync(Buffer.from(content, 'utf8'), {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(content) },
    });
    return { ...describe(source, content), brotliBase64: compressed.toString('base64') };
  });
}

export function renderAssetsModule(assets: readonly PackedAsset[]): string {
  const lines = [
    '// Generated by bin/build-console-ui.ts from functions/console-ui/browser/: do not edit. After changing the',
    '// console app (or the react, react-dom or chart.js version), run `npm run build:console-ui` and commit the result',
    '// (`--check` fails while this is stale).',
    '',
    '/** One asset of the console page, brotli-compressed; the hashes are of the decompressed (served) bytes. */',
    'export interface PackedConsoleAsset {',
    '  readonly name: string;',
    '  readonly contentType: string;',
    '  readonly bytes: number;',
    '  readonly sha256: string;',
    '  readonly integrity: string;',
    '  readonly brotliBase64: string;',
    '}',
    '',
    'export const CONSOLE_ASSETS: readonly PackedConsoleAsset[] = [',
  ];
  for (const asset of assets) {
    lines.push('  {');
    for (const [key, value] of Object.entries(asset)) lines.push(`    ${key}: ${JSON.stringify(value)},`);
    lines.push('  },');
  }
  lines.push('];');
  return `${lines.join('\n')}\n`;
}

/** The packed bytes as text; null when they do not decompress. */
function unpacked(brotliBase64: string): string | null {
  try {
    return brotliDecompressSync(Buffer.from(brotliBase64, 'base64')).toString('utf8');
  } catch {
    return null;
  }
}

/** What is wrong with the committed assets against what the sources build to (empty when current). */
export function staleAssets(committed: readonly PackedAsset[], built: Map<string, string> = buildContents()): string[] {
  const problems: string[] = [];
  if (committed.map((a) => a.name).join(',') !== ASSET_SOURCES.map((s) => s.name).join(',')) problems.push('the asset list differs');
  for (const source of ASSET_SOURCES) {
    const asset = committed.find((a) => a.name === source.name);
    const content = built.get(source.name);
    if (!asset || content === undefined) continue;
    const expected = describe(source, content);
    for (const key of ['contentType', 'bytes', 'sha256', 'integrity'] as const) {
      if (asset[key] !== expected[key]) problems.push(`${source.name}: ${key} differs`);
    }
    if (unpacked(asset.brotliBase64) !== content) problems.push(`${source.name}: content differs`);
  }
  return problems;
}

async function main(): Promise<void> {
  const output = relative(ROOT, OUTPUT);
  if (process.argv.includes('--check')) {
    let problems: string[];
    try {
      const { CONSOLE_ASSETS } = (await import(OUTPUT)) as { CONSOLE_ASSETS: readonly PackedAsset[] };
      problems = staleAssets(CONSOLE_ASSETS);
    } catch (err) {
      problems = [`cannot check it (${(err as Error).message})`];
    }
    if (problems.length > 0) {
      console.error(`${output} is stale: ${problems.join('; ')}. Run \`npm run build:console-ui\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${output} is up to date.`);
    return;
  }
  const assets = packAssets(buildContents());
  const generated = renderAssetsModule(assets);
  writeFileSync(OUTPUT, generated);
  const sizes = assets.map((a) => `${a.name} ${a.bytes} B -> ${Math.round((a.brotliBase64.length * 3) / 4)} B brotli`).join(', ');
  console.log(`wrote ${output} (${Buffer.byteLength(generated)} bytes: ${sizes})`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
