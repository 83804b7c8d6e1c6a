// Packages a Lambda bundle takes in their ES module build, by esbuild alias (lib/fincore-function.ts,
// and bench/cold-start.ts and the bundle tests that build as the stack does).
//
// esbuild on platform node resolves a package's CommonJS `main` first, and a CommonJS build comes
// into a bundle whole. graphql-js ships both builds without an `exports` map: its ES module build
// lets esbuild drop what the GraphQL function never runs (262 KB of graphql as CommonJS, 137 KB
// tree-shaken). Only packages named here change; everything else (the reference bundle of the
// cold-start bench included) is built exactly as esbuild's defaults have it. Paths are relative to
// the project root, the directory the CDK runs esbuild in.
export const ESM_ALIASES: Readonly<Record<string, string>> = {
  graphql: './node_modules/graphql/index.mjs',
};

/** The aliases as the CDK's `esbuildArgs` (`--alias:<package>=<path>`). */
export function aliasEsbuildArgs(): Record<string, string[]> {
  return { '--alias': Object.entries(ESM_ALIASES).map(([name, target]) => `${name}=${target}`) };
}
