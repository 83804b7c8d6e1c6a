// The one packer behind the pages that serve their own third-party or bundled assets from our origin
// (GraphiQL: bin/build-graphiql.ts, the console: bin/build-console-ui.ts, the API reference:
// bin/build-docs-ui.ts). Each builder decides WHAT it serves (files from node_modules, an esbuild
// output); this module decides HOW it is committed and checked, identically for all three:
//
// - each asset is stored brotli-compressed and base64-encoded in a generated TypeScript module, with
//   its SHA-256 (the cache-busting version in its URL) and SHA-384 (its Subresource Integrity),
//   computed here so a page view never hashes anything. Committing the output keeps CDK bundling and
//   `tsx` local runs free of a build step, and puts the assets in the one bundle that serves them;
// - `--check` fails when the committed module no longer holds exactly the expected content (it
//   compares the decompressed content and the recorded hashes, not the compressed bytes, which may
//   differ between brotli versions); `--write` (the default) rewrites it.
//
// The server side of the same contract (URLs, lookup, serving) is functions/platform/packed-assets.ts.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';

export const ROOT = join(__dirname, '..', '..');

/** What one asset serves, before packing. */
export interface AssetContent {
  /** The name in the asset's URL (`?asset=<name>&v=<version>`). */
  name: string;
  contentType: string;
  /** The served text (UTF-8). */
  content: string;
  /** package@version/file, for the reader of the generated module; absent for assets built from our sources. */
  origin?: string;
}

export interface PackedAsset {
  name: string;
  origin?: string;
  contentType: string;
  bytes: number;
  /** Hex SHA-256 of the served bytes: the `v` of the asset's URL. */
  sha256: string;
  /** The Subresource Integrity value of the served bytes. */
  integrity: string;
  brotliBase64: string;
}

function sha(algorithm: 'sha256' | 'sha384', content: string, encoding: 'hex' | 'base64'): string {
  return createHash(algorithm).update(content, 'utf8').digest(encoding);
}

/** Everything recorded about an asset but its packed bytes, in the generated module's field order. */
export function describeAsset(asset: AssetContent): Omit<PackedAsset, 'brotliBase64'> {
  return {
    name: asset.name,
    ...(asset.origin === undefined ? {} : { origin: asset.origin }),
    contentType: asset.contentType,
    bytes: Buffer.byteLength(asset.content, 'utf8'),
    sha256: sha('sha256', asset.content, 'hex'),
    integrity: `sha384-${sha('sha384', asset.content, 'base64')}`,
  };
}

export function packAsset(asset: AssetContent): PackedAsset {
  const compressed = brotliCompressSync(Buffer.from(asset.content, 'utf8'), {
    params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(asset.content) },
  });
  return { ...describeAsset(asset), brotliBase64: compressed.toString('base64') };
}

/**
 * A file of an installed package as we serve it: without its trailing sourceMappingURL comment (we
 * do not serve the maps, so that comment would only send an open DevTools after a URL that does not
 * exist). Refuses a file that is not valid UTF-8: the body of a Lambda proxy response is a string,
 * so the file must survive the round trip unchanged.
 */
export function packageFile(source: { name: string; packageName: string; file: string; contentType: string }): AssetContent {
  const packageDir = join(ROOT, 'node_modules', source.packageName);
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const raw = readFileSync(join(packageDir, source.file));
  const text = raw.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(raw)) throw new Error(`${source.packageName}/${source.file} is not valid UTF-8`);
  const content = text.replace(/\n?\/\/# sourceMappingURL=[^\n]*\n?$|\n?\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '\n');
  return { name: source.name, contentType: source.contentType, content, origin: `${source.packageName}@${version}/${source.file}` };
}

/** How a builder's generated module names and introduces itself. */
export interface ModuleLayout {
  /** The module's opening comment lines (who generated it, how to regenerate it). */
  header: readonly string[];
  /** The doc comment of the asset interface. */
  interfaceDoc: string;
  interfaceName: string;
  /** The doc comment of the list, if any. */
  listDoc?: string;
  /** The list the module exports (what `--check` reads back). */
  listName: string;
}

export function renderAssetsModule(assets: readonly PackedAsset[], layout: ModuleLayout): string {
  const withOrigin = assets.some((a) => a.origin !== undefined);
  const lines = [
    ...layout.header,
    '',
    `/** ${layout.interfaceDoc} */`,
    `export interface ${layout.interfaceName} {`,
    '  readonly name: string;',
    ...(withOrigin ? ['  readonly origin: string;'] : []),
    '  readonly contentType: string;',
    '  readonly bytes: number;',
    '  readonly sha256: string;',
    '  readonly integrity: string;',
    '  readonly brotliBase64: string;',
    '}',
    '',
    ...(layout.listDoc ? [`/** ${layout.listDoc} */`] : []),
    `export const ${layout.listName}: readonly ${layout.interfaceName}[] = [`,
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

/** What is wrong with the committed assets against the expected content (empty when they are current). */
export function staleAssets(committed: readonly PackedAsset[], expected: readonly AssetContent[]): string[] {
  const problems: string[] = [];
  if (committed.map((a) => a.name).join(',') !== expected.map((s) => s.name).join(',')) problems.push('the asset list differs');
  for (const source of expected) {
    const asset = committed.find((a) => a.name === source.name);
    if (!asset) continue;
    const { name: _name, ...recorded } = describeAsset(source);
    for (const [key, value] of Object.entries(recorded)) {
      if (asset[key as keyof typeof recorded] !== value) problems.push(`${source.name}: ${key} differs`);
    }
    if (unpacked(asset.brotliBase64) !== source.content) problems.push(`${source.name}: content differs`);
  }
  return problems;
}

export interface AssetBuilder {
  /** The generated module, absolute. */
  output: string;
  /** The command that rewrites the module, for the stale message. */
  rebuildCommand: string;
  /** What the assets should be now; may throw when a guard of the builder fails. */
  expected: () => AssetContent[];
  layout: ModuleLayout;
}

/** A builder's command line: `--check` compares, anything else writes. */
export async function runAssetBuilder(builder: AssetBuilder, argv: readonly string[] = process.argv): Promise<void> {
  const output = relative(ROOT, builder.output);
  if (argv.includes('--check')) {
    let problems: string[];
    try {
      const module = (await import(builder.output)) as Record<string, readonly PackedAsset[]>;
      const committed = module[builder.layout.listName];
      if (!committed) throw new Error(`it exports no ${builder.layout.listName}`);
      problems = staleAssets(committed, builder.expected());
    } catch (err) {
      problems = [`cannot check it (${(err as Error).message})`];
    }
    if (problems.length > 0) {
      console.error(`${output} is stale: ${problems.join('; ')}. Run \`${builder.rebuildCommand}\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${output} is up to date.`);
    return;
  }
  const assets = builder.expected().map(packAsset);
  const generated = renderAssetsModule(assets, builder.layout);
  writeFileSync(builder.output, generated);
  const sizes = assets.map((a) => `${a.name} ${a.bytes} B -> ${Math.round((a.brotliBase64.length * 3) / 4)} B brotli`).join(', ');
  console.log(`wrote ${output} (${Buffer.byteLength(generated)} bytes: ${sizes})`);
}

/** Runs a builder as a script, exiting non-zero on any error. */
export function mainOf(builder: AssetBuilder): void {
  runAssetBuilder(builder).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
