// A route's Lambda bundle as the stack builds it (bench/cold-start.ts BUNDLE_OPTIONS and the route's
// build-time switches), in memory: its code and the source files that put bytes into it.
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { BUNDLE_OPTIONS, routeDefines } from '../../bench/cold-start';

const ROOT = join(__dirname, '..', '..');

export interface RouteBundle {
  code: string;
  /** Inputs with bytes in the output, relative to the project root. */
  inputs: string[];
}

export async function routeBundle(routeId: string): Promise<RouteBundle> {
  const result = await build({
    ...BUNDLE_OPTIONS,
    sourcemap: false,
    write: false,
    metafile: true,
    logLevel: 'silent',
    entryPoints: [join(ROOT, 'functions', 'api', `${routeId}.ts`)],
    define: routeDefines(routeId),
  });
  const output = Object.values((result.metafile as Metafile).outputs)[0];
  return { code: result.outputFiles![0].text, inputs: Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => input) };
}
