// Builds the console web app (functions/console-ui/browser/: React 18 + chart.js, TSX) with esbuild
// into ONE script and ONE stylesheet, and packs them into the committed module
// functions/console-ui/generated/assets.ts, which GET /console/ serves from its own origin
// (functions/console-ui/page.ts), as the GraphiQL page does with its assets (bin/build-graphiql.ts).
//
// How they are packed, hashed and checked (`--check`) is the shared packer's (bin/lib/packed-assets.ts).
//
// The build refuses what the page's CSP or its size budget would not take: code that evaluates
// strings (eval, new Function: the CSP has no 'unsafe-eval'), zod or any server module pulled in
// by an import of the contract, and a script over SCRIPT_BUDGET_BYTES.
//
// `--check` rebuilds and fails when the committed module no longer holds exactly what the sources
// build to; `--write` (the default) rewrites it.
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { ROOT, mainOf, packAsset, staleAssets as staleAgainst, type AssetBuilder, type AssetContent, type PackedAsset } from './lib/packed-assets';

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

/** The assets the sources build to, in the module's order. */
function expectedFrom(contents: Map<string, string>): AssetContent[] {
  return ASSET_SOURCES.map((source) => ({ name: source.name, contentType: source.contentType, content: contents.get(source.name)! }));
}

export function packAssets(contents: Map<string, string>): PackedAsset[] {
  return expectedFrom(contents).map(packAsset);
}

/** What is wrong with the committed assets against what the sources build to (empty when current). */
export function staleAssets(committed: readonly PackedAsset[], built: Map<string, string> = buildContents()): string[] {
  return staleAgainst(committed, expectedFrom(built));
}

export const CONSOLE_UI_BUILDER: AssetBuilder = {
  output: OUTPUT,
  rebuildCommand: 'npm run build:console-ui',
  expected: () => expectedFrom(buildContents()),
  layout: {
    header: [
      '// Generated by bin/build-console-ui.ts from functions/console-ui/browser/: do not edit. After changing the',
      '// console app (or the react, react-dom or chart.js version), run `npm run build:console-ui` and commit the result',
      '// (`--check` fails while this is stale).',
    ],
    interfaceDoc: 'One asset of the console page, brotli-compressed; the hashes are of the decompressed (served) bytes.',
    interfaceName: 'PackedConsoleAsset',
    listName: 'CONSOLE_ASSETS',
  },
};

if (require.main === module) mainOf(CONSOLE_UI_BUILDER);
