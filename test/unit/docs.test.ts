// The browsable docs' server side: the curl sample of every operation in openapi.json, the API
// reference's shell and packed Redoc bundle (GET /docs), and the error catalogue page (GET /docs/errors).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { BUNDLE_EDITS, DOCS_UI_BUILDER, editedBundle } from '../../bin/build-docs-ui';
import { staleAssets } from '../../bin/lib/packed-assets';
import { loadContract } from '../../bin/sdks/contract';
import { DOCS_PATH, ERRORS_DOCS_PATH, errorDocumentationPath } from '../../functions/contracts/docs-links';
import { ERRORS, isPublicErrorCode, publicErrorCodes, statusOf, type ErrorCode } from '../../functions/contracts/errors';
import { ROUTES, inPublicContract, routeById, type Route, type RouteId } from '../../functions/contracts/routes';
import { connectorFor, connectorNamed } from '../../functions/connectors';
import type { LinkMethod } from '../../functions/core/connector-port';
import { findInstitution } from '../../functions/core/institutions';
import { curlSample } from '../../functions/platform/openapi';
import { renderErrorsPage } from '../../functions/surfaces/docs/errors-page';
import { DOCS_ASSETS } from '../../functions/surfaces/docs/generated/assets';
import { renderDocsShell, serveDocsAsset } from '../../functions/surfaces/docs/page';
import { trailingSlashRedirect } from '../../functions/surfaces/docs/redirect';

const OPENAPI_PATH = join(__dirname, '..', '..', 'openapi.json');
const committed = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
  info: { description: string };
  paths: Record<string, Record<string, { operationId: string; 'x-codeSamples'?: { lang: string; label: string; source: string }[] }>>;
};

/**
 * The words of a POSIX shell command as the shell passes them to the program: single quotes keep
 * everything literally, double quotes keep `$VAR` as written (the samples' variables stay visible),
 * a backslash escapes the next character, and before a newline joins the lines.
 */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i]!;
    if (c === '\\' && command[i + 1] === '\n') {
      i += 1;
    } else if (c === '\\') {
      word = (word ?? '') + (command[i + 1] ?? '');
      i += 1;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed single quote in ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = command.indexOf('"', i + 1);
      if (end < 0) throw new Error(`unclosed double quote in ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === ' ' || c === '\n') {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** What a curl sample asks for: method, URL, headers, body. */
function parseCurl(source: string): { method: string; url: string; headers: string[]; body: string | undefined } {
  const words = shellWords(source);
  expect(words[0]).toBe('curl');
  let method = 'GET';
  let url = '';
  const headers: string[] = [];
  let body: string | undefined;
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '-X') method = words[++i]!;
    else if (word === '-H') headers.push(words[++i]!);
    else if (word === '-d') body = words[++i]!;
    else url = word;
  }
  return { method, url, headers, body };
}

describe('the curl samples in openapi.json (x-codeSamples)', () => {
  const publicRoutes = ROUTES.filter(inPublicContract);

  it.each(publicRoutes.map((route) => [route.id, route] as const))('%s has one whose request the route accepts', (_id, route) => {
    const op = committed.paths[route.path]![route.method.toLowerCase()]!;
    expect(op['x-codeSamples']).toEqual([{ lang: 'Shell', label: 'curl', source: curlSample(route) }]);
    const { method, url, headers, body } = parseCurl(op['x-codeSamples']![0]!.source);
    expect(method).toBe(route.method);
    expect(url).toBe(`$FINCORE_BASE_URL${route.path}`);
    expect(headers.includes('Authorization: Bearer $FINCORE_API_KEY')).toBe(route.auth === 'key');
    if (route.request === null) {
      // The sandbox bank's Allow / Deny is a browser form, not JSON.
      if (route.id === 'link.sandbox.oauth.decide') {
        expect(headers).toContain('Content-Type: application/x-www-form-urlencoded');
        expect(Object.fromEntries(new URLSearchParams(body!))).toEqual({ session: expect.any(String), state: expect.any(String), decision: 'allow' });
        return;
      }
      expect(body).toBeUndefined();
      return;
    }
    expect(headers).toContain('Content-Type: application/json');
    const parsed = route.request.safeParse(JSON.parse(body!));
    expect(parsed.error?.issues).toBeUndefined();
  });

  it('connects, on a route that implies a consent method, an institution of that method', () => {
    // The method each route is for, and how an institution of the sample is connected (a sandbox one
    // the way test keys connect it, any other by the first connector of its chain).
    const implied: Record<string, readonly LinkMethod[]> = { 'link.oauth.start': ['oauth'], 'link.consent': ['api_key', 'address'], 'link.connect': ['credentials'] };
    const methodOf = (institutionId: string): LinkMethod => {
      const institution = findInstitution(institutionId)!;
      expect(institution).toBeDefined();
      return institution.sandbox ? connectorFor('test', institution, {}).linkMethod : connectorNamed(institution.connectors[0]!, {}).linkMethod;
    };
    for (const [id, methods] of Object.entries(implied)) {
      const { body } = parseCurl(curlSample(routeById(id as RouteId)));
      const institutionId = (JSON.parse(body!) as { institution_id: string }).institution_id;
      expect([id, institutionId, methods.includes(methodOf(institutionId))]).toEqual([id, institutionId, true]);
    }
    const resume = parseCurl(curlSample(routeById('link.oauth.resume')));
    const received = new URL((JSON.parse(resume.body!) as { received_redirect_uri: string }).received_redirect_uri);
    expect(received.searchParams.get('oauth_state_id')).not.toBeNull();
  });

  it('quotes a body with a single quote so the shell passes it unchanged', () => {
    const base = routeById('transactions.sync');
    const route: Route = { ...base, id: 'test.quoted', request: z.strictObject({ note: z.string().meta({ example: "it's {\"x\"} $HOME `id`" }) }) };
    const { body } = parseCurl(curlSample(route));
    expect(JSON.parse(body!)).toEqual({ note: "it's {\"x\"} $HOME `id`" });
  });

  it('fails the generation when a sample no longer matches its route (it would mislead the reader)', () => {
    const base = routeById('transactions.sync');
    const route: Route = { ...base, id: 'test.unsatisfiable', request: z.strictObject({ n: z.int().min(5).meta({ example: 1 }) }) };
    expect(() => curlSample(route)).toThrow('the sample body of test.unsatisfiable does not match its request schema');
  });

  it('are ignored by the SDK generator: the contract it reads is the same without them', () => {
    const stripped = structuredClone(committed);
    for (const methods of Object.values(stripped.paths)) for (const op of Object.values(methods)) delete op['x-codeSamples'];
    const strippedPath = join(tmpdir(), `fc-openapi-${process.pid}.json`);
    writeFileSync(strippedPath, JSON.stringify(stripped));
    try {
      expect(loadContract(strippedPath)).toEqual(loadContract(OPENAPI_PATH));
    } finally {
      rmSync(strippedPath);
    }
  });

  it('the description links the reference and the error catalogue', () => {
    expect(committed.info.description).toContain(`\`${DOCS_PATH}\``);
    expect(committed.info.description).toContain(`[error catalogue](docs/errors)`);
  });
});

describe('GET /docs (the API reference shell and Redoc)', () => {
  it('packs Redoc exactly as bin/build-docs-ui.ts builds it (run `npm run build:docs-ui` when this fails)', () => {
    expect(DOCS_ASSETS.map((a) => [a.name, a.origin])).toEqual([['redoc.js', 'redoc@2.5.2/bundles/redoc.standalone.js']]);
    expect(staleAssets(DOCS_ASSETS, DOCS_UI_BUILDER.expected())).toEqual([]);
  });

  it('serves a bundle with its edits applied: the webpack nonce from the loading script, and no other origin named', () => {
    const script = serveDocsAsset('redoc.js', DOCS_ASSETS[0]!.sha256).body;
    for (const edit of BUNDLE_EDITS) {
      expect(script).toContain(edit.replace);
      expect(script).not.toContain(edit.find);
    }
    expect(script).not.toContain('cdn.redoc.ly');
    // The trailing map comment goes (we serve no maps); the CSS the bundle embeds keeps its own inline one.
    expect(script.trimEnd()).not.toMatch(/\/\/# sourceMappingURL=[^\n]*$/);
    expect(createHash('sha384').update(script, 'utf8').digest('base64')).toBe(DOCS_ASSETS[0]!.integrity.replace(/^sha384-/, ''));
  });

  it('refuses a bundle where an edit no longer matches exactly once', () => {
    expect(() => editedBundle('var x=1;')).toThrow('holds `r.nc=void 0` 0 times, not once');
    expect(() => editedBundle('r.nc=void 0;r.nc=void 0')).toThrow('2 times');
  });

  it('loads only the packed script and its bootstrap, both by nonce, and starts Redoc over the sibling openapi.json', () => {
    const res = renderDocsShell();
    const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers['Content-Security-Policy']!)![1]!;
    expect(res.headers['Cache-Control']).toBe('no-store');
    expect(res.body).toContain(`<script src="?asset=redoc.js&amp;v=${DOCS_ASSETS[0]!.sha256}" integrity="${DOCS_ASSETS[0]!.integrity}" nonce="${nonce}"></script>`);
    expect(res.body.match(/<script/g)).toHaveLength(2);
    expect(res.body).not.toMatch(/https?:\/\//);
    expect(res.body).toContain('<a href="docs/errors">Error codes</a>');
    // A fresh nonce per response.
    expect(renderDocsShell().headers['Content-Security-Policy']).not.toBe(res.headers['Content-Security-Policy']);
  });

  it('answers another version of the asset with route_not_found (it would be cached for a year under that hash)', () => {
    expect(() => serveDocsAsset('redoc.js', '0'.repeat(64))).toThrow(expect.objectContaining({ code: 'route_not_found' }));
    expect(() => serveDocsAsset('other.js', DOCS_ASSETS[0]!.sha256)).toThrow(expect.objectContaining({ code: 'route_not_found' }));
  });

  it('redirects a trailing slash to the page with a relative Location, and leaves the page paths alone', () => {
    expect(trailingSlashRedirect('/docs/')?.headers.Location).toBe('../docs');
    expect(trailingSlashRedirect('/prod/docs/errors/')?.headers.Location).toBe('../errors');
    expect(trailingSlashRedirect('/docs')).toBeNull();
    expect(trailingSlashRedirect('/docs/errors')).toBeNull();
  });
});

describe('GET /docs/errors (the error catalogue page)', () => {
  const page = renderErrorsPage();

  it('is where documentation_url points: /docs/errors#<code>', () => {
    expect(errorDocumentationPath('invalid_api_key')).toBe(`${ERRORS_DOCS_PATH}#invalid_api_key`);
    expect(ERRORS_DOCS_PATH).toBe('/docs/errors');
  });

  it('has one entry per code, anchored by the code, with its status, type, message and what to do', () => {
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      const section = new RegExp(`<section id="${code}">([\\s\\S]*?)</section>`).exec(page.body)![1]!;
      expect(section).toContain(`<dt>HTTP status</dt><dd>${statusOf(code)}</dd>`);
      expect(section).toContain(`<dt>Type</dt><dd><code>${ERRORS[code].type}</code></dd>`);
      expect(section).toMatch(/<dt>What to do<\/dt><dd>[^<]{20,}/);
      expect(section).toContain('<dt>Message</dt>');
    }
  });

  it('has an entry for every code of the catalogue, so every documentation_url anchor exists: the console\'s own in a "Console API" part after the public ones', () => {
    const ids = [...page.body.matchAll(/<section id="([^"]+)">/g)].map(([, id]) => id);
    const consoleCodes = (Object.keys(ERRORS) as ErrorCode[]).filter((c) => !isPublicErrorCode(c));
    expect(consoleCodes).toEqual(expect.arrayContaining(['csrf_failed', 'item_not_found']));
    expect(ids).toEqual([...publicErrorCodes(), ...consoleCodes]);
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      expect(ids).toContain(errorDocumentationPath(code).split('#')[1]);
    }
    const consolePart = page.body.slice(page.body.indexOf('<h2 id="console-api">Console API</h2>'));
    expect(consolePart.length).toBeLessThan(page.body.length);
    for (const code of consoleCodes) {
      expect(consolePart).toContain(`<section id="${code}">`);
      expect(consolePart).toContain(`<a href="#${code}"><code>${code}</code></a>`);
    }
    const session = /<section id="session_required">([\s\S]*?)<\/section>/.exec(page.body)![1]!;
    expect(session).not.toContain('Authorization: Bearer');
  });

  it('runs no script and allows its one inline stylesheet by hash', () => {
    expect(page.body).not.toContain('<script');
    const css = /<style>([^<]*)<\/style>/.exec(page.body)![1]!;
    const hash = createHash('sha256').update(css, 'utf8').digest('base64');
    expect(page.headers['Content-Security-Policy']).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });

  it('escapes the catalogue\'s text and turns its `code` spans into <code>', () => {
    const section = /<section id="invalid_cursor">([\s\S]*?)<\/section>/.exec(page.body)![1]!;
    expect(section).toContain('Resync from scratch');
    const product = /<section id="product_not_ready">([\s\S]*?)<\/section>/.exec(page.body)![1]!;
    expect(product).toContain('<code>transactions_update_status</code>');
    expect(page.body).not.toContain('`');
  });
});
