// The console page's server side: the committed assets are exactly what the app's sources build to
// (and the check notices when they are not), the shell loads only those two assets (by nonce and
// integrity, from its own URL) under a CSP with no unsafe source, and an asset is served only at
// the version its URL names.
import { createHash } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';
import { ASSET_SOURCES, SCRIPT_BUDGET_BYTES, buildContents, staleAssets } from '../../bin/build-console-ui';
import { ApiError } from '../../functions/contracts/errors';
import { CONSOLE_ASSETS } from '../../functions/console-ui/generated/assets';
import { CONSOLE_ASSET_CACHE_CONTROL, consolePage, renderConsoleShell, serveConsoleAsset } from '../../functions/console-ui/page';

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

// One esbuild run for the file: the build is deterministic, so every check compares against it.
let built: Map<string, string>;
beforeAll(() => {
  built = buildContents();
}, 60_000);

describe('the console assets', () => {
  it('are what the app\'s sources build to (run `npm run build:console-ui` when this fails)', () => {
    expect(CONSOLE_ASSETS.map((a) => a.name)).toEqual(['console.css', 'console.js']);
    expect(staleAssets(CONSOLE_ASSETS, built)).toEqual([]);
  });

  it('the check notices a changed source, a tampered hash, a different packed content and a missing asset', () => {
    const changedSource = new Map(built);
    changedSource.set('console.js', `${built.get('console.js')!}/* changed */\n`);
    expect(staleAssets(CONSOLE_ASSETS, changedSource)).toEqual([
      'console.js: bytes differs',
      'console.js: sha256 differs',
      'console.js: integrity differs',
      'console.js: content differs',
    ]);

    const tamperedHash = CONSOLE_ASSETS.map((a) => (a.name === 'console.css' ? { ...a, sha256: '0'.repeat(64) } : a));
    expect(staleAssets(tamperedHash, built)).toEqual(['console.css: sha256 differs']);

    const otherContent = CONSOLE_ASSETS.map((a) => (a.name === 'console.css' ? { ...a, brotliBase64: brotliCompressSync(Buffer.from('body{}')).toString('base64') } : a));
    expect(staleAssets(otherContent, built)).toEqual(['console.css: content differs']);

    expect(staleAssets(CONSOLE_ASSETS.slice(1), built)).toContain('the asset list differs');
  });

  it('hold one script within its budget that evaluates no strings, and one stylesheet', () => {
    expect(ASSET_SOURCES.map((s) => s.contentType)).toEqual(['text/css; charset=utf-8', 'text/javascript; charset=utf-8']);
    const script = serveConsoleAsset('console.js', CONSOLE_ASSETS[1]!.sha256).body;
    expect(Buffer.byteLength(script)).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES);
    expect(script).not.toMatch(/\beval\(|\bnew Function\(/);
    // React is the production build (the development build warns in the console and is 3x larger).
    expect(script).not.toContain('react.development');
    expect(script).not.toMatch(/sourceMappingURL/);
  });

  it('serves each at its own version only, cached as immutable, with the hashes the shell pins', () => {
    for (const asset of CONSOLE_ASSETS) {
      const res = serveConsoleAsset(asset.name, asset.sha256);
      expect(res.statusCode).toBe(200);
      expect(res.isBase64Encoded).toBe(false);
      expect(res.headers['Content-Type']).toBe(asset.contentType);
      expect(res.headers['Cache-Control']).toBe(CONSOLE_ASSET_CACHE_CONTROL);
      expect(res.headers['Cross-Origin-Resource-Policy']).toBe('same-origin');
      expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
      expect(createHash('sha384').update(res.body, 'utf8').digest('base64')).toBe(asset.integrity.replace(/^sha384-/, ''));
      expect(createHash('sha256').update(res.body, 'utf8').digest('hex')).toBe(asset.sha256);
    }
    for (const [name, version] of [
      ['console.js', '0'.repeat(64)],
      ['console.js', undefined],
      ['console.css', CONSOLE_ASSETS[1]!.sha256],
      ['app.js', CONSOLE_ASSETS[1]!.sha256],
      ['../page.ts', undefined],
    ] as const) {
      const err = thrown(() => serveConsoleAsset(name, version));
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(404);
      expect((err as ApiError).code).toBe('route_not_found');
    }
  });
});

describe('the console shell', () => {
  it('loads only its two assets, each by nonce and integrity, under a CSP with no unsafe source and no other origin', () => {
    const page = renderConsoleShell();
    const csp = page.headers['Content-Security-Policy']!;
    const nonce = nonceOf(csp);
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      'img-src data:',
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(page.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    expect(page.isBase64Encoded).toBe(false);

    // No inline script or style at all: the one <script> has a src, and there is no <style>.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![2]).toBe('');
    expect(scripts[0]![1]).toContain(`nonce="${nonce}"`);
    expect(page.body).not.toMatch(/<style|style="/);
    const stylesheet = /<link rel="stylesheet" ([^>]*)>/.exec(page.body)![1]!;
    expect(stylesheet).toContain(`nonce="${nonce}"`);

    const loaded = [...page.body.matchAll(/(?:src|href)="(\?asset=[^"]*)" integrity="([^"]*)"/g)].map(([, url, integrity]) => ({ url: url!, integrity }));
    expect(loaded).toEqual(CONSOLE_ASSETS.map((a) => ({ url: `?asset=${a.name}&amp;v=${a.sha256}`, integrity: a.integrity })));
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(page.body).toContain('<div id="console-root">');
    expect(page.body).toContain('<html lang="en">');
  });

  it('tells the app how users sign in (local password or Cognito)', () => {
    expect(renderConsoleShell().body).toContain('<meta name="fc-console-identity" content="local">');
    expect(renderConsoleShell({ identity: 'cognito' }).body).toContain('<meta name="fc-console-identity" content="cognito">');
  });

  it('has a fresh nonce on every response', () => {
    const nonces = new Set(Array.from({ length: 5 }, () => nonceOf(renderConsoleShell().headers['Content-Security-Policy']!)));
    expect(nonces.size).toBe(5);
  });
});

describe('the console route', () => {
  it('answers the shell at the path with a trailing slash, an asset when the query names one', () => {
    const shell = consolePage({ path: '/console/', query: null, identity: 'cognito' });
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain('content="cognito"');
    const css = CONSOLE_ASSETS[0]!;
    expect(consolePage({ path: '/console/', query: { asset: css.name, v: css.sha256 } }).headers['Content-Type']).toBe(css.contentType);
    expect((thrown(() => consolePage({ path: '/console/', query: { asset: 'console.js', v: 'stale' } })) as ApiError).status).toBe(404);
  });

  it('redirects the path without the slash with a relative Location, which keeps a stage prefix', () => {
    for (const path of ['/console', '/prod/console']) {
      const res = consolePage({ path, query: {} });
      expect(res.statusCode).toBe(308);
      expect(res.headers.Location).toBe('console/');
      expect(new URL(res.headers.Location!, `https://api.example.com${path}`).pathname).toBe(`${path}/`);
    }
  });
});
