// The hosted Link page (GET /link?token=...) under hostile input: its security headers on every
// answer (flow page and error pages, framed or not), and values an integrator or attacker controls
// (client_name, redirect_uri, the token, embed/origin, the request id) never reaching the HTML as
// markup. The page is checked as text: every tag and attribute in it, and the configuration block.
import { makeKey, startTestStack, type CallResult, type TestStack } from '../support/stack';

let stack: TestStack;
const key = makeKey('test');
/** A parent origin a test key may embed the page in without configuration (loopback). */
const PARENT = 'http://127.0.0.1:8080';

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Acme', plan: 'enterprise', keys: [key] }]);
});
afterAll(() => stack.stop());

const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '</title><script>alert(1)</script>',
  '<!--<script>alert(1)//-->',
  '\u2028</script>\u2029',
  '{{constructor.constructor("alert(1)")()}}',
  '<iframe srcdoc="<script>alert(1)</script>">',
];

const page = (query: string, headers: Record<string, string> = {}) => stack.call(`/link?${query}`, { method: 'GET', key: null, headers });

async function linkToken(body: Record<string, unknown>): Promise<string> {
  const res = await stack.call('/v1/link/token/create', { key, body: { user: { client_user_id: 'u' }, products: ['transactions'], ...body } });
  expect({ status: res.status, body }).toEqual({ status: 200, body });
  return res.json.link_token;
}

/** The elements this page is built from: anything else in it was injected. */
const ALLOWED_TAGS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'div', 'header', 'span', 'main', 'noscript', 'h1', 'p', 'section', 'strong', 'button', 'script', 'svg', 'path', 'circle', 'line', 'polyline', 'rect', 'g']);

interface ParsedPage {
  scripts: { attributes: string; content: string }[];
  /** Every start tag outside <script> and <style> content: name and attribute names. */
  tags: { name: string; attributes: string[] }[];
}

/** Splits the page into its scripts and its markup; script and style content is not markup. */
function parsePage(html: string): ParsedPage {
  const scripts: ParsedPage['scripts'] = [];
  const markup = html
    .replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (_m, attributes: string, content: string) => {
      scripts.push({ attributes, content });
      return '';
    })
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, '');
  const tags = [...markup.matchAll(/<([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)].map(([, name, rest]) => ({
    name: name.toLowerCase(),
    attributes: [...rest.matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g)].map((a) => a[1].toLowerCase()),
  }));
  return { scripts, tags };
}

function cspDirectives(res: CallResult): Map<string, string> {
  const csp = res.headers.get('content-security-policy') ?? '';
  return new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0], d.slice(d.split(/\s+/)[0].length).trim()] as [string, string]));
}

/** Headers every Link page answer carries; `framedBy` is the origin allowed to frame it, if any. */
function expectPageHeaders(res: CallResult, framedBy: string | null) {
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = cspDirectives(res);
  expect(res.headers.get('content-security-policy')).not.toMatch(/[\r\n,]/);
  expect(csp.get('default-src')).toBe("'none'");
  const scriptSrc = csp.get('script-src') ?? '';
  expect(scriptSrc).toMatch(/^'nonce-[A-Za-z0-9+/]{16,}={0,2}'$/);
  expect(csp.get('base-uri')).toBe("'none'");
  expect(csp.get('object-src') ?? csp.get('default-src')).toBe("'none'");
  if (framedBy) {
    expect(csp.get('frame-ancestors')).toBe(framedBy);
    expect(res.headers.get('x-frame-options')).toBeNull();
  } else {
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  }
  // Every executable script carries this response's nonce; the rest are JSON data blocks.
  const nonce = scriptSrc.slice("'nonce-".length, -1);
  for (const script of parsePage(res.text).scripts) {
    if (/type="application\/json"/.test(script.attributes)) continue;
    expect(script.attributes).toContain(`nonce="${nonce}"`);
  }
}

/** No element or attribute beyond the page's own; data blocks that cannot close their element. */
function expectNoInjectedMarkup(html: string) {
  const { tags, scripts } = parsePage(html);
  const foreign = tags.filter((t) => !ALLOWED_TAGS.has(t.name) || t.attributes.some((a) => a.startsWith('on') || a === 'srcdoc' || a === 'src' || a === 'href' || a === 'formaction'));
  expect(foreign).toEqual([]);
  expect(html).not.toMatch(/javascript:/i);
  for (const script of scripts.filter((s) => /type="application\/json"/.test(s.attributes))) {
    expect(script.content).not.toMatch(/[<>\u2028\u2029]/);
    expect(() => JSON.parse(script.content)).not.toThrow();
  }
  // Exactly the page's own scripts: at most one data block and one program.
  expect(scripts.length).toBeLessThanOrEqual(2);
}

describe('Link page headers', () => {
  it('the flow page, standalone: nonce CSP, no framing, no caching, no referrer', async () => {
    const token = await linkToken({});
    const res = await page(`token=${token}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res, null);
    expectNoInjectedMarkup(res.text);
  });

  it('the flow page inside the SDK: framed only by the declared origin', async () => {
    const token = await linkToken({});
    const res = await page(`token=${token}&embed=1&origin=${encodeURIComponent(PARENT)}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res, PARENT);
    expectNoInjectedMarkup(res.text);
  });

  it('an embedding origin the application has not allowed gets the error page, framed by nobody, without the token', async () => {
    const token = await linkToken({});
    const res = await page(`token=${token}&embed=1&origin=${encodeURIComponent('https://attacker.example')}`);
    expect(res.status).toBe(400);
    expectPageHeaders(res, null);
    expect(res.text).not.toContain(token);
  });

  it('a nonce is never reused', async () => {
    const token = await linkToken({});
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) nonces.add(cspDirectives(await page(`token=${token}`)).get('script-src') ?? '');
    expect(nonces.size).toBe(5);
  });

  const BAD_TOKENS = ['', 'fc_link_', 'fc_link_doesnotexist', 'fc_at_abc', 'fc_link_' + 'A'.repeat(300), ...XSS_PAYLOADS, 'fc_link_abc%00', 'fc_link_abc\u202e'];
  it.each(BAD_TOKENS.map((t) => [JSON.stringify(t), t]))('an unusable token %s: the error page, same headers, token not reflected as markup', async (_label, token) => {
    for (const embed of [null, PARENT]) {
      const res = await page(`token=${encodeURIComponent(token)}${embed ? `&embed=1&origin=${encodeURIComponent(embed)}` : ''}`);
      expect(res.status).toBe(400);
      expectPageHeaders(res, embed);
      expectNoInjectedMarkup(res.text);
    }
  });

  const HOSTILE_ORIGINS = [
    "https://app.example.com 'unsafe-inline'",
    'https://app.example.com; script-src *',
    'https://app.example.com,https://evil.example',
    'https://app.example.com\r\nSet-Cookie: x=1',
    '*',
    "'self'",
    'null',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://app.example.com/path',
    'https://user@app.example.com',
    'https://app.example.com/?q=1',
    'ftp://app.example.com',
    'https://app.example.com\u202e',
    '',
  ];
  it.each(HOSTILE_ORIGINS.map((o) => [JSON.stringify(o), o]))('embed with origin %s: refused, and nothing of it reaches the headers', async (_label, origin) => {
    const token = await linkToken({});
    const res = await page(`token=${token}&embed=1&origin=${encodeURIComponent(origin)}`);
    expect(res.status).toBe(400);
    expectPageHeaders(res, null);
    expectNoInjectedMarkup(res.text);
    // the refused page holds no flow, so no token
    expect(res.text).not.toContain(token);
  });

  it('a hostile embed flag is refused like a missing origin', async () => {
    const token = await linkToken({});
    for (const embed of ['true', '2', '1 ', '<script>']) {
      const res = await page(`token=${token}&embed=${encodeURIComponent(embed)}&origin=${encodeURIComponent('https://app.example.com')}`);
      expect(res.status).toBe(400);
      expectPageHeaders(res, null);
    }
  });
});

describe('values reflected into the Link page', () => {
  it.each(XSS_PAYLOADS.map((p) => [JSON.stringify(p), p]))('client_name %s is text, never markup', async (_label, payload) => {
    const token = await linkToken({ client_name: payload });
    for (const embed of [null, PARENT]) {
      const res = await page(`token=${token}${embed ? `&embed=1&origin=${encodeURIComponent(embed)}` : ''}`);
      expect(res.status).toBe(200);
      expectPageHeaders(res, embed);
      expectNoInjectedMarkup(res.text);
      expect(res.text).not.toContain(payload);
      // It still arrives intact as data, for the page script to render as text.
      const config = parsePage(res.text).scripts.find((s) => /type="application\/json"/.test(s.attributes));
      expect(JSON.stringify(JSON.parse(config!.content))).toContain(JSON.stringify(payload).slice(1, -1));
    }
  });

  it('redirect_uri must be http(s): script and data URIs are refused at token creation', async () => {
    for (const redirect of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd']) {
      const res = await stack.call('/v1/link/token/create', { key, body: { user: { client_user_id: 'u' }, products: ['transactions'], redirect_uri: redirect } });
      expect({ redirect, status: res.status, code: res.json?.error?.code }).toEqual({ redirect, status: 400, code: 'invalid_field' });
    }
  });

  it('a redirect_uri with markup in it stays inside the data block', async () => {
    const redirect = 'https://app.example.com/done?x="><script>alert(1)</script>&y=</script>';
    const token = await linkToken({ redirect_uri: redirect });
    const res = await page(`token=${token}`);
    expect(res.status).toBe(200);
    expectNoInjectedMarkup(res.text);
    expect(res.text).not.toContain('<script>alert(1)</script>');
  });

  it('a hostile request id header is never reflected as markup', async () => {
    for (const requestId of XSS_PAYLOADS) {
      const res = await page('token=fc_link_unknown', { 'X-Request-Id': requestId.replace(/[\u2028\u2029]/g, '') });
      expect(res.status).toBe(400);
      expectNoInjectedMarkup(res.text);
    }
  });
});
