// Serving the assets a page packs into a generated module (bin/lib/packed-assets.ts writes them):
// GraphiQL (functions/surfaces/graphiql), the console (functions/console-ui) and the API reference
// (functions/surfaces/docs). Each page is a small shell that loads its assets from its own URL,
// `?asset=<name>&v=<sha-256>`: content-addressed, so a response never changes and is cached for a
// year (immutable), and pinned by Subresource Integrity in the shell. Nothing comes from a CDN.
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { ApiError } from '../contracts/errors';

/** One packed asset, as every generated module records it (the hashes are of the served bytes). */
export interface PackedAsset {
  readonly name: string;
  readonly contentType: string;
  readonly sha256: string;
  readonly integrity: string;
  readonly brotliBase64: string;
}

/** Content-addressed, so a response never changes: cached for a year, never revalidated. */
export const PACKED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** An asset's URL relative to its page: same path, so it works under any stage or domain prefix. */
export function packedAssetUrl(asset: PackedAsset): string {
  return `?asset=${encodeURIComponent(asset.name)}&v=${asset.sha256}`;
}

/**
 * The asset of this name; throws (with the command that rebuilds the module) when it is missing.
 * Pages call it once per process: a module without their assets would serve a page that cannot start.
 */
export function packedAssetNamed<A extends PackedAsset>(assets: readonly A[], name: string, rebuildCommand: string): A {
  const asset = assets.find((a) => a.name === name);
  if (!asset) throw new Error(`the packed assets lack ${name}: run ${rebuildCommand}`);
  return asset;
}

const inflated = new WeakMap<PackedAsset, string>();

/** Decompressed on first use only (a shell needs just the hashes), then kept for the process. */
function contentOf(asset: PackedAsset): string {
  let content = inflated.get(asset);
  if (content === undefined) {
    content = brotliDecompressSync(Buffer.from(asset.brotliBase64, 'base64')).toString('utf8');
    inflated.set(asset, content);
  }
  return content;
}

/**
 * One asset, when both its name and its version (the SHA-256 in the shell's URL) match. Another
 * version is a 404 `route_not_found` with `notFoundMessage`, not this one's bytes: it would be
 * cached for a year under the other hash. The asset may only be loaded by this origin.
 */
export function servePackedAsset(
  assets: readonly PackedAsset[],
  name: string,
  version: string | undefined,
  notFoundMessage: string,
): { statusCode: number; headers: Record<string, string>; body: string } {
  const asset = assets.find((a) => a.name === name);
  if (!asset || version !== asset.sha256) throw new ApiError('route_not_found', notFoundMessage);
  return {
    statusCode: 200,
    headers: {
      'Content-Type': asset.contentType,
      'Cache-Control': PACKED_ASSET_CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    },
    body: contentOf(asset),
  };
}

/** A fresh CSP nonce for one shell response (its scripts and styles run under it only). */
export function newPageNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The headers of a page shell that loads packed assets: HTML that is never framed and never cached
 * (its nonce makes each response unique), under the page's own Content-Security-Policy.
 */
export function shellHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}
