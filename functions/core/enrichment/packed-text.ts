// The generated enrichment artefacts (the brand directory's entries, the learned model's weights)
// hold their large texts brotli-compressed and base64-encoded: about 300 KB less in every route
// bundle that carries the enrichment engines (docs/benchmarks.md, "Cold start"). The artefact
// modules are required on first use only, so the few milliseconds of unpacking are paid then, once
// per container, never at module load.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** The prefix that marks a packed literal in a generated module, so checks can compare texts, not bytes. */
const PACKED_PREFIX = 'br64:';

export function packText(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const packed = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  return PACKED_PREFIX + packed.toString('base64');
}

export function unpackText(packed: string): string {
  if (!packed.startsWith(PACKED_PREFIX)) throw new Error('not a packed text');
  return brotliDecompressSync(Buffer.from(packed.slice(PACKED_PREFIX.length), 'base64')).toString('utf8');
}

/**
 * A generated module's source with every packed literal replaced by the text it holds: what the
 * generators' --check compares, since another brotli build may pack the same text differently.
 */
export function unpackedSource(source: string): string {
  return source.replace(/'(br64:[A-Za-z0-9+/=]*)'/g, (_m, packed: string) => JSON.stringify(unpackText(packed)));
}
