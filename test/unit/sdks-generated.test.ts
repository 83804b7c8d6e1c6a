// The client libraries' generated files are current with openapi.json (the driver in check mode, in
// process), the Postman collection and .http file carry a valid example body for every operation,
// the webhook vectors agree with the reference implementation, and the SDK runner's checks hold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeById } from '../../functions/contracts/routes';
import { loadContract, ROOT } from '../../bin/sdks/contract';
import { check, checkGenerated, loadLanguages, plan } from '../../bin/sdks/generate';
import type { SdkLanguage } from '../../bin/sdks/language';
import { exampleRequests, COLLECTION_VARIABLES } from '../../bin/sdks/collections';
import { referenceOutcome, VECTORS_PATH, type WebhookVectorFile } from '../../bin/sdks/vectors';
import { parseSmokeLines, summaryDifferences } from '../../bin/test-sdks';

/** Values a real run would hold in the collection's variables: well formed for every schema. */
const VARIABLE_VALUES: Record<string, string> = {
  access_token: 'fc_at_abc123',
  public_token: 'fc_pub_abc123',
  endpoint_id: 'whep_abc123',
  event_id: 'evt_abc123',
};
const substitute = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => VARIABLE_VALUES[name] ?? `{{${name}}}`);

describe('generated client-library files', () => {
  const contract = loadContract();

  it('are current with openapi.json (npm run sdks regenerates them)', async () => {
    const { stale, orphans } = await checkGenerated();
    expect({ stale, orphans }).toEqual({ stale: [], orphans: [] });
  }, 120_000);

  it('named enums are string types, not object models', () => {
    expect(contract.models.map((m) => m.name)).not.toContain('Product');
    const request = contract.models.find((m) => m.name === 'SandboxPublicTokenCreateRequest')!;
    expect(request.fields.find((f) => f.name === 'products')!.type).toEqual({
      kind: 'array',
      items: { kind: 'string', enum: ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'] },
    });
  });

  it('the check notices a changed or missing generated file', () => {
    const fake: SdkLanguage = {
      name: 'not-a-language',
      aptPackages: [],
      toolchainProbe: ['true'],
      emit: () => ({ 'generated.txt': 'x' }),
      test: [],
      smoke: [],
    };
    const planned = plan(contract, [fake]);
    expect(check(planned).stale).toEqual(['sdks/not-a-language/generated.txt', 'sdks/not-a-language/.generated']);
    const vectors = planned.files.find((f) => f.path === 'sdks/webhook-vectors.json')!;
    vectors.content += ' ';
    expect(check(planned).stale).toContain('sdks/webhook-vectors.json');
  });

  it('refuses a language that writes outside its folder', () => {
    const escaping: SdkLanguage = { name: 'escape', aptPackages: [], toolchainProbe: ['true'], emit: () => ({ '../package.json': '{}' }), test: [], smoke: [] };
    expect(() => plan(contract, [escaping])).toThrow(/must stay inside sdks\/escape/);
  });

  it('every language module is named after its file and has test and smoke commands', async () => {
    const languages = await loadLanguages();
    expect(languages.map((l) => l.name)).toContain('typescript');
    for (const language of languages) {
      expect(language.test.length).toBeGreaterThan(0);
      expect(language.smoke.length).toBeGreaterThan(0);
      expect(language.toolchainProbe.length).toBeGreaterThan(0);
    }
  });
});

describe('Postman collection and .http file', () => {
  const contract = loadContract();
  const requests = exampleRequests(contract);

  it('have one request per SDK operation', () => {
    expect(requests.map((r) => r.operation.routeId).sort()).toEqual(contract.operations.map((o) => o.routeId).sort());
    const postman = JSON.parse(readFileSync(join(ROOT, 'sdks/postman/fincore.postman_collection.json'), 'utf8')) as {
      info: { schema: string };
      item: { name: string; item: { request: { url: { raw: string } } }[] }[];
      variable: { key: string }[];
    };
    expect(postman.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    const urls = postman.item.flatMap((folder) => folder.item.map((i) => i.request.url.raw));
    expect(urls.sort()).toEqual(contract.operations.map((o) => `{{base_url}}${o.path}`).sort());
    expect(postman.variable.map((v) => v.key).sort()).toEqual(Object.keys(COLLECTION_VARIABLES).sort());
    const http = readFileSync(join(ROOT, 'sdks/http/fincore.http'), 'utf8');
    for (const operation of contract.operations) expect(http).toContain(`${operation.httpMethod} {{base_url}}${operation.path}\n`);
  });

  it('run top to bottom: every call after the call whose answer it uses, and the calls that end the item last', () => {
    const order = requests.map((r) => r.operation.routeId);
    const at = (routeId: string) => order.indexOf(routeId);
    expect(at('sandbox.public_token.create')).toBe(0);
    expect(at('link.token.exchange')).toBe(1);
    for (const user of order.filter((id) => id !== 'sandbox.public_token.create' && id !== 'link.token.exchange')) expect({ user, after: at(user) > 1 }).toEqual({ user, after: true });
    expect(at('webhooks.endpoints.create')).toBeLessThan(at('sandbox.fire_webhook'));
    expect(at('sandbox.fire_webhook')).toBeLessThan(at('webhooks.events.replay'));
    expect(order.slice(-2)).toEqual(['sandbox.item.reset_login', 'items.remove']);
    const http = readFileSync(join(ROOT, 'sdks/http/fincore.http'), 'utf8');
    const positions = order.map((id) => http.indexOf(`# @name ${id.replace(/[^A-Za-z0-9]+/g, '_')}\n`));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it.each(requests.map((r) => [r.operation.routeId, r] as const))('%s: the example body passes the route schema', (routeId, request) => {
    const schema = routeById(routeId).request;
    if (request.body === null) {
      expect(schema).toBeNull();
      return;
    }
    expect(schema).not.toBeNull();
    const parsed = schema!.safeParse(JSON.parse(substitute(request.body)));
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });
});

describe('webhook vectors', () => {
  const file = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as WebhookVectorFile;

  it('every expected outcome is what the reference implementation answers', () => {
    for (const vector of file.vectors) expect([vector.name, referenceOutcome(vector)]).toEqual([vector.name, vector.expected]);
  });

  it('cover every outcome, rotation, non-finite inputs and unicode bodies', () => {
    const outcomes = new Set(file.vectors.map((v) => ('error' in v.expected ? v.expected.error : v.expected.ok ? 'ok' : v.expected.reason)));
    expect([...outcomes].sort()).toEqual(
      ['invalid_argument', 'invalid_body', 'malformed_signature', 'malformed_timestamp', 'missing_signature', 'missing_timestamp', 'ok', 'signature_mismatch', 'timestamp_outside_window'].sort(),
    );
    expect(file.vectors.some((v) => (v.signature ?? '').split(',').filter((e) => e.trim().startsWith('v1=')).length >= 2 && 'ok' in v.expected && v.expected.ok)).toBe(true);
    expect(file.vectors.filter((v) => v.now === 'NaN' || v.tolerance_seconds === 'Infinity').length).toBeGreaterThan(0);
    expect(file.vectors.some((v) => Buffer.byteLength(v.body) !== v.body.length && 'ok' in v.expected && v.expected.ok)).toBe(true);
    expect(new Set(file.vectors.map((v) => v.name)).size).toBe(file.vectors.length);
  });
});

describe('SDK runner checks', () => {
  const expected = {
    accounts: 6,
    added: 2480,
    pages: 5,
    error: {
      status: 400,
      type: 'invalid_request',
      code: 'invalid_field',
      request_id_present: true,
      documentation_url: 'http://localhost:4010/docs/errors#invalid_field',
      display_message: null,
    },
    webhook_type: 'transactions.sync_updates_available',
  };

  it('reads the SMOKE lines among other output', () => {
    expect(parseSmokeLines(`building\nSMOKE {"language":"go"}\r\ndone\n`)).toEqual([{ language: 'go' }]);
    expect(parseSmokeLines('no summary here')).toEqual([]);
  });

  it('accepts an agreeing summary and names every difference', () => {
    expect(summaryDifferences('go', { language: 'go', ...expected }, expected)).toEqual([]);
    expect(summaryDifferences('go', { language: 'golang', ...expected, added: 2479, error: { ...expected.error, request_id_present: false } }, expected)).toEqual([
      'language is "golang", not "go"',
      'added is 2479, expected 2480',
      'error.request_id_present is false, expected true',
    ]);
    // A library that drops the error's documentation link or end-user message disagrees.
    expect(summaryDifferences('go', { language: 'go', ...expected, error: { ...expected.error, documentation_url: undefined, display_message: '' } }, expected)).toEqual([
      'error.documentation_url is undefined, expected "http://localhost:4010/docs/errors#invalid_field"',
      'error.display_message is "", expected null',
    ]);
    expect(summaryDifferences('go', null, expected)).toEqual(['the SMOKE line is not a JSON object']);
  });
});
