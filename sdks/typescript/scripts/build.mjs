// Builds dist/: ESM (dist/esm, with the .d.ts files tsc writes) and CommonJS (dist/cjs, marked by its
// own package.json, with a copy of the declarations so `require` consumers get types resolved as
// CommonJS). esbuild and typescript are the repository's devDependencies (or this package's, once
// published on its own).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const entryPoints = ['index', 'webhooks', 'link', 'react'].map((name) => join(root, 'src', `${name}.ts`));
const common = { entryPoints, bundle: true, external: ['react'], target: 'es2020', platform: 'neutral', logLevel: 'warning', sourcemap: true };

rmSync(dist, { recursive: true, force: true });
await build({ ...common, format: 'esm', outdir: join(dist, 'esm'), splitting: true, chunkNames: 'chunks/[name]-[hash]' });
await build({ ...common, format: 'cjs', outdir: join(dist, 'cjs') });
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

// The same declarations, under dist/cjs where the nested package.json makes them CommonJS.
function copyDeclarations(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'chunks') copyDeclarations(join(from, entry.name), join(to, entry.name));
    else if (entry.name.endsWith('.d.ts')) cpSync(join(from, entry.name), join(to, entry.name));
  }
}
copyDeclarations(join(dist, 'esm'), join(dist, 'cjs'));
console.log('built dist/esm and dist/cjs');
