// llms.txt (an index, one link per section) and llms-full.txt (everything, enum values and the
// webhooks included), as generated from the route table and the catalogues.
import * as z from 'zod';
import { DOCS_PATH, ERRORS_DOCS_PATH } from '../../functions/contracts/docs-links';
import { publicErrorCodes } from '../../functions/contracts/errors';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../functions/contracts/events';
import { ROUTES, inPublicContract } from '../../functions/contracts/routes';
import { PAYMENT_CHANNELS } from '../../functions/contracts/schemas';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../functions/core/webhook-signature';
import { buildLlmsTxt, fullTextAnchor, referenceTagAnchor, retryScheduleText } from '../../functions/platform/llms';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../functions/workers/webhook-schedule';

const BASE = 'https://api.example.test';
const index = buildLlmsTxt(BASE, 'index');
const full = buildLlmsTxt(BASE, 'full');
const PUBLIC_ROUTES = ROUTES.filter(inPublicContract);
const TAGS = [...new Set(PUBLIC_ROUTES.map((r) => r.tag))];

/** The Markdown links of a text: [label](url). */
function links(text: string): { label: string; url: string }[] {
  return [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\)/gm)].map(([, label, url]) => ({ label: label!, url: url! }));
}

/** The `## ` headings of a text, as anchors. */
function anchors(text: string): string[] {
  return [...text.matchAll(/^## (.+)$/gm)].map(([, heading]) => fullTextAnchor(heading!));
}

/** Every enum and literal value a JSON Schema holds, however deep (named parts in $defs included). */
function enumValues(schema: unknown, into: Set<unknown> = new Set()): Set<unknown> {
  if (Array.isArray(schema)) for (const s of schema) enumValues(s, into);
  else if (schema !== null && typeof schema === 'object') {
    const record = schema as Record<string, unknown>;
    if (Array.isArray(record.enum)) for (const v of record.enum) into.add(v);
    if ('const' in record) into.add(record.const);
    for (const [key, value] of Object.entries(record)) if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') enumValues(value, into);
  }
  return into;
}

describe('llms.txt', () => {
  it('links each tag once, to its section of the API reference, naming its operations', () => {
    for (const tag of TAGS) {
      const tagLinks = links(index).filter((l) => l.label === tag);
      expect(tagLinks).toEqual([{ label: tag, url: `${BASE}${DOCS_PATH}#${referenceTagAnchor(tag)}` }]);
    }
    expect(referenceTagAnchor('Hosted Link')).toBe('tag/Hosted-Link');
    for (const route of PUBLIC_ROUTES) {
      const line = index.split('\n').find((l) => l.startsWith(`- [${route.tag}](`))!;
      expect(line).toContain(`${route.method} ${route.path}`);
    }
  });

  it('links the reference, the error catalogue and the guides, each guide to a heading of llms-full.txt', () => {
    const byLabel = new Map(links(index).map((l) => [l.label, l.url]));
    expect(byLabel.get('API reference')).toBe(`${BASE}${DOCS_PATH}`);
    expect(byLabel.get('Error codes')).toBe(`${BASE}${ERRORS_DOCS_PATH}`);
    const headings = anchors(full);
    for (const guide of ['Quickstart', 'Migrating from Plaid', 'Webhook events']) {
      const url = byLabel.get(guide)!;
      expect(url.startsWith(`${BASE}/llms-full.txt#`)).toBe(true);
      expect(headings).toContain(url.split('#')[1]);
    }
    // One link per section, none repeated.
    const urls = links(index).map((l) => l.url);
    expect(new Set(urls).size).toBe(urls.length);
  });
});

describe('llms-full.txt', () => {
  it('describes every public operation under its tag, with a curl example', () => {
    for (const tag of TAGS) expect(full).toContain(`\n## ${tag}\n`);
    for (const route of PUBLIC_ROUTES) {
      const block = full.slice(full.indexOf(`### ${route.method} ${route.path}\n`));
      expect(block).toMatch(new RegExp(`^### ${route.method} ${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?Example:\\ncurl `));
    }
  });

  it('spells out every enum and literal value of every request, response and event payload', () => {
    const schemas = [
      ...PUBLIC_ROUTES.flatMap((r) => [r.request && z.toJSONSchema(r.request, { io: 'input', unrepresentable: 'any' }), r.responseKind === 'json' && z.toJSONSchema(r.response, { io: 'output', unrepresentable: 'any' })]),
      ...EVENT_TYPES.map((type) => z.toJSONSchema(EVENT_CATALOGUE[type].data, { io: 'output', unrepresentable: 'any' })),
    ].filter(Boolean);
    const values = enumValues(schemas);
    expect(values.size).toBeGreaterThan(30);
    const missing = [...values].filter((v) => !full.includes(JSON.stringify(v)));
    expect(missing).toEqual([]);
  });

  it('lists enums as their values and literals as constants, not as bare types', () => {
    expect(full).toContain(`payment_channel (one of ${PAYMENT_CHANNELS.map((c) => JSON.stringify(c)).join(', ')}, required)`);
    expect(full).toContain('transactions_update_status (one of "not_ready", "initial_update_complete", "historical_update_complete", required)');
    expect(full).toContain(`webhook_type (one of ${EVENT_TYPES.map((t) => JSON.stringify(t)).join(', ')}, required)`);
    expect(full).toContain('jsonrpc (always "2.0", required)');
    // Named schemas (Transaction) are expanded field by field, not left as "any".
    expect(full).toContain('added[].category_detailed (string or null, required)');
    expect(full).not.toMatch(/\((array of )?any, required\)\n {2}- (added|item)\b/);
  });

  it('covers webhooks: every event type with its payload fields, the signature scheme and the retry schedule', () => {
    const section = full.slice(full.indexOf('\n## Webhook events\n'), full.indexOf('\n## Error codes\n'));
    for (const type of EVENT_TYPES) {
      const block = section.slice(section.indexOf(`### ${type}\n`));
      expect(block.startsWith(`### ${type}\n`)).toBe(true);
      for (const field of Object.keys(EVENT_CATALOGUE[type].data.shape)) expect(block).toMatch(new RegExp(`\\n {2}- ${field} \\(`));
    }
    expect(section).toContain(`${SIGNATURE_HEADER}: one or more comma-separated \`v1=<hex>\` entries, each HMAC-SHA256`);
    expect(section).toContain(`\`<${TIMESTAMP_HEADER}>.<raw body>\``);
    expect(section).toContain(`more than ${DEFAULT_TOLERANCE_SECONDS} s from your clock`);
    expect(section).toContain(`Retry schedule: ${retryScheduleText()}`);
    expect(retryScheduleText()).toContain(`(${WEBHOOK_RETRY_DELAYS_SECONDS.length} attempts in all)`);
    expect(retryScheduleText([0, 60, 7200])).toBe('the first attempt at once, then retries 1 min and 2 h after the previous attempt failed (3 attempts in all)');
  });

  it('has the migration points: category, payment channel, pending to posted, errors, webhooks, fire_webhook', () => {
    const section = full.slice(full.indexOf('\n## Migrating from Plaid\n'), full.indexOf('\n## Webhook events\n'));
    for (const point of ['Transaction.category', '"in store"', '"in_store"', 'Pending to posted', 'pending_transaction_id', '- Errors:', '- Webhooks:', 'Sandbox fire_webhook', '`webhook_type`']) {
      expect(section).toContain(point);
    }
    // The Plaid-compatible API is named by its base path only (it is Plaid's contract, documented in docs/plaid-migration.md).
    expect(full).not.toContain('/plaid/');
  });

  it('links every error code to its entry on the error page', () => {
    for (const code of publicErrorCodes()) expect(full).toContain(`See ${BASE}${ERRORS_DOCS_PATH}#${code}.`);
  });
});
