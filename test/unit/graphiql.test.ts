// The GraphiQL page's server side: the committed assets are exactly the pinned packages' files, the
// shell loads only those (by nonce and integrity, from its own URL), and an asset is served only at
// the version its URL names.
import { createHash } from 'node:crypto';
import { staleAssets, withoutEmbeddedFonts } from '../../bin/build-graphiql';
import { brotliDecompressSync } from 'node:zlib';
import { ApiError } from '../../functions/contracts/errors';
import { GRAPHIQL_ASSETS } from '../../functions/surfaces/graphiql/generated/assets';
import {
  GRAPHIQL_ASSET_CACHE_CONTROL,
  GRAPHIQL_HEADERS_PLACEHOLDER,
  renderGraphiqlShell,
  serveGraphiqlAsset,
} from '../../functions/surfaces/graphiql/page';

function nonceOf(csp: string): string {
  const match = /script-src 'nonce-([^']+)'/.exec(csp);
  if (!match) throw new Error(`no script nonce in ${csp}`);
  return match[1]!;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
}

describe('GraphiQL assets', () => {
  it('are the pinned graphiql, react and react-dom files (run `npx tsx bin/build-graphiql.ts` when this fails)', () => {
    expect(staleAssets(GRAPHIQL_ASSETS)).toEqual([]);
    expect(GRAPHIQL_ASSETS.map((a) => a.origin)).toEqual([
      'graphiql@3.9.0/graphiql.min.css',
      'react@18.3.1/umd/react.production.min.js',
      'react-dom@18.3.1/umd/react-dom.production.min.js',
      'graphiql@3.9.0/graphiql.min.js',
    ]);
  });

  it('serve GraphiQL\'s stylesheet without its embedded fonts, and nothing else of it changed', () => {
    const css = brotliDecompressSync(Buffer.from(GRAPHIQL_ASSETS.find((a) => a.name === 'graphiql.css')!.brotliBase64, 'base64')).toString('utf8');
    expect(css).not.toContain('url(data:font/');
    expect(css).not.toContain('@font-face');
    // The families the fonts were for stay, with their fallbacks.
    expect(css).toContain('--font-family:"Roboto",sans-serif');
    expect(css).toContain('--font-family-mono:"Fira Code",monospace');
    const sample = '.a{color:red}@font-face{font-family:X;src:url(data:font/woff2;base64,AAAA) format("woff2")}.b{color:blue}';
    expect(withoutEmbeddedFonts(sample)).toBe('.a{color:red}.b{color:blue}');
    expect(() => withoutEmbeddedFonts('.a{color:red}')).toThrow(/embeds no @font-face/);
    expect(() => withoutEmbeddedFonts('.a{background:url(data:font/woff2;base64,AAAA)}@font-face{src:url(data:font/woff2;base64,AA)}')).toThrow(/still embeds a font/);
  });

  it('notices a stale asset', () => {
    const tampered = GRAPHIQL_ASSETS.map((a, i) => (i === 1 ? { ...a, sha256: '0'.repeat(64) } : a));
    expect(staleAssets(tampered)).toEqual(['react.js: sha256 differs']);
    expect(staleAssets(GRAPHIQL_ASSETS.slice(1))).toContain('the asset list differs');
  });

  it('serves each at its own version only, cached as immutable, with the hashes the page pins', () => {
    for (const asset of GRAPHIQL_ASSETS) {
      const res = serveGraphiqlAsset(asset.name, asset.sha256);
      expect(res.statusCode).toBe(200);
      expect(res.headers['Content-Type']).toBe(asset.contentType);
      expect(res.headers['Cache-Control']).toBe(GRAPHIQL_ASSET_CACHE_CONTROL);
      expect(res.headers['Cross-Origin-Resource-Policy']).toBe('same-origin');
      expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
      expect(createHash('sha384').update(res.body, 'utf8').digest('base64')).toBe(asset.integrity.replace(/^sha384-/, ''));
      expect(res.body).not.toContain('sourceMappingURL');
    }
    for (const [name, version] of [
      ['graphiql.js', '0'.repeat(64)],
      ['graphiql.js', undefined],
      ['graphiql.min.js', GRAPHIQL_ASSETS[3]!.sha256],
      ['../package.json', undefined],
    ] as const) {
      const err = thrown(() => serveGraphiqlAsset(name, version));
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(404);
    }
  });
});

describe('the GraphiQL shell', () => {
  it('loads only its own assets, each by nonce and integrity, under a CSP with no unsafe source and no other origin', () => {
    const page = renderGraphiqlShell();
    const csp = page.headers['Content-Security-Policy']!;
    const nonce = nonceOf(csp);
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      'font-src data:',
      'img-src data:',
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]);
    expect(page.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });

    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map(([, attrs]) => attrs!);
    expect(scripts).toHaveLength(4);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    const loaded = [...page.body.matchAll(/(?:src|href)="([^"]*)"(?: integrity="([^"]*)")?/g)].map(([, url, integrity]) => ({ url: url!, integrity }));
    expect(loaded.map((l) => l.url)).toEqual(GRAPHIQL_ASSETS.map((a) => `?asset=${a.name}&amp;v=${a.sha256}`));
    expect(loaded.map((l) => l.integrity)).toEqual(GRAPHIQL_ASSETS.map((a) => a.integrity));
    // The nonce is base64 (it may hold + and /): matched literally, not as a pattern.
    const literal = nonce.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(page.body).toMatch(new RegExp(`<link rel="stylesheet" [^>]*nonce="${literal}"`));
    expect(page.body).toContain(`<style nonce="${nonce}">`);
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('prefills the headers editor with a placeholder, never a key, and points GraphiQL at its own URL', () => {
    const { body } = renderGraphiqlShell();
    expect(JSON.parse(GRAPHIQL_HEADERS_PLACEHOLDER)).toEqual({ Authorization: 'Bearer <your test key>' });
    expect(body).not.toMatch(/fc_sk_(test|live)_[A-Za-z0-9]/);
    expect(body).toContain('shouldPersistHeaders: false');
    expect(body).toContain('GraphiQL.createFetcher({ url: location.origin + location.pathname })');
    // The inline configuration cannot close its element: < and > are escaped in it.
    const bootstrap = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(body)![1]!;
    expect(bootstrap).not.toContain('<');
    expect(bootstrap).toContain('\\u003cyour test key\\u003e');
  });

  it('has a fresh nonce on every response', () => {
    const nonces = new Set(Array.from({ length: 5 }, () => nonceOf(renderGraphiqlShell().headers['Content-Security-Policy']!)));
    expect(nonces.size).toBe(5);
  });
});
