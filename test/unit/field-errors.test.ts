// Schema violations in sentences: every kind of zod issue the route table's schemas can raise names
// its field as a path (`options.count`, `account_ids[2]`) and says what the field accepts, with the
// error code the API has always given it; never zod's own wording or a regular expression.
import { z } from 'zod';
import { closestName, describeSchemaIssues, fieldPath } from '../../functions/contracts/field-errors';
import { routeById } from '../../functions/contracts/routes';
import { DateString } from '../../functions/contracts/schemas';
import { schemaError } from '../../functions/platform/middleware';

const Schema = z.strictObject({
  name: z.string().min(2).max(5).optional(),
  note: z.string().max(10).optional(),
  label: z.string().min(1).optional(),
  count: z.int().min(1).max(500).optional(),
  ratio: z.number().positive().optional(),
  step: z.number().multipleOf(5).optional(),
  kind: z.enum(['transactions', 'identity', 'income']).optional(),
  mode: z.literal('create').optional(),
  account_ids: z.array(z.string()).min(1).max(2).optional(),
  start_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .meta({ description: 'ISO 4217 currency code.' })
    .optional(),
  code: z
    .string()
    .regex(/^[a-z]+$/)
    .optional(),
  webhook: z.url().optional(),
  email: z.email().optional(),
  from: z.iso.datetime().optional(),
  status: z.union([z.int().min(100).max(599), z.enum(['2xx', '4xx'])]).optional(),
  target: z
    .discriminatedUnion('type', [z.strictObject({ type: z.literal('item'), item_id: z.string() }), z.strictObject({ type: z.literal('key'), key_id: z.string() })])
    .optional(),
  options: z.strictObject({ count: z.int().min(1).max(500).optional(), include_original_description: z.boolean().optional() }).optional(),
  tags: z
    .array(z.string())
    .refine((list) => new Set(list).size === list.length, 'tags must not repeat')
    .optional(),
  user: z.strictObject({ client_user_id: z.string() }).optional(),
  prefix: z.string().startsWith('fc_').optional(),
  client_name: z.string(),
});

function describe_(body: Record<string, unknown>): { code: string; message: string } {
  const result = Schema.safeParse(body);
  if (result.success) throw new Error(`accepted: ${JSON.stringify(body)}`);
  return describeSchemaIssues(result.error.issues, body, Schema);
}

const valid = { client_name: 'App' };

describe('describeSchemaIssues', () => {
  it.each<[string, Record<string, unknown>, string, string | RegExp]>([
    ['a missing required field', {}, 'missing_field', '`client_name` is required: send a string.'],
    ['a missing nested field', { ...valid, user: {} }, 'missing_field', '`user.client_user_id` is required: send a string.'],
    ['a wrong type', { client_name: 7 }, 'invalid_field', '`client_name` must be a string, not 7.'],
    ['null for a string', { client_name: null }, 'invalid_field', '`client_name` must be a string, not null.'],
    ['a string for a boolean', { ...valid, options: { include_original_description: 'yes' } }, 'invalid_field', '`options.include_original_description` must be true or false, not a string.'],
    ['a string for an integer', { ...valid, count: '5' }, 'invalid_field', '`count` must be an integer, not a string.'],
    ['a fraction for an integer', { ...valid, count: 1.5 }, 'invalid_field', '`count` must be an integer, not 1.5.'],
    ['an integer under its range', { ...valid, count: 0 }, 'invalid_field', '`count` must be an integer from 1 to 500.'],
    ['an integer over its range, nested', { ...valid, options: { count: 501 } }, 'invalid_field', '`options.count` must be an integer from 1 to 500.'],
    ['an exclusive bound', { ...valid, ratio: 0 }, 'invalid_field', '`ratio` must be a number greater than 0.'],
    ['a multiple', { ...valid, step: 3 }, 'invalid_field', '`step` must be a multiple of 5.'],
    ['a short string with both bounds', { ...valid, name: 'a' }, 'invalid_field', '`name` must be 2 to 5 characters long.'],
    ['a long string', { ...valid, note: 'x'.repeat(11) }, 'invalid_field', '`note` must be at most 10 characters long.'],
    ['an empty string', { ...valid, label: '' }, 'invalid_field', '`label` must not be empty.'],
    ['an empty array', { ...valid, account_ids: [] }, 'invalid_field', '`account_ids` must have at least one item.'],
    ['a long array', { ...valid, account_ids: ['a', 'b', 'c'] }, 'invalid_field', '`account_ids` must have at most 2 items.'],
    ['an element of the wrong type', { ...valid, account_ids: ['a', 2] }, 'invalid_field', '`account_ids[1]` must be a string, not 2.'],
    ['an enum', { ...valid, kind: 'crypto' }, 'invalid_field', '`kind` must be one of: transactions, identity, income.'],
    ['an enum slip', { ...valid, kind: 'transaction' }, 'invalid_field', '`kind` must be one of: transactions, identity, income. Did you mean transactions?'],
    ['a literal', { ...valid, mode: 'update' }, 'invalid_field', '`mode` must be "create".'],
    ['a pattern with its own words', { ...valid, start_date: '2026/01/01' }, 'invalid_field', '`start_date` must be a date as YYYY-MM-DD.'],
    ['a pattern with a description', { ...valid, currency: 'usd' }, 'invalid_field', '`currency` must be in this format: ISO 4217 currency code.'],
    ['a bare pattern', { ...valid, code: 'A1' }, 'invalid_field', '`code` is not in the format this field accepts (regex).'],
    ['a URL', { ...valid, webhook: 'not a url' }, 'invalid_field', '`webhook` must be an absolute URL such as https://example.com/webhook.'],
    ['an e-mail address', { ...valid, email: 'nope' }, 'invalid_field', '`email` must be an e-mail address.'],
    ['a date and time', { ...valid, from: 'yesterday' }, 'invalid_field', '`from` must be an ISO 8601 date and time such as 2026-07-01T12:00:00Z.'],
    ['a prefix', { ...valid, prefix: 'x' }, 'invalid_field', '`prefix` must start with "fc_".'],
    ['a union of types', { ...valid, status: true }, 'invalid_field', '`status` must be an integer or one of 2xx, 4xx, not true.'],
    ['a union member out of bounds', { ...valid, status: 42 }, 'invalid_field', '`status` must be an integer from 100 to 599.'],
    ['a discriminator', { ...valid, target: { type: 'org' } }, 'invalid_field', '`target.type` must be one of: item, key.'],
    ['a missing discriminator', { ...valid, target: {} }, 'missing_field', '`target.type` is required: send one of: item, key.'],
    ['a field of the chosen union member', { ...valid, target: { type: 'key' } }, 'missing_field', '`target.key_id` is required: send a string.'],
    ['a refinement', { ...valid, tags: ['a', 'a'] }, 'invalid_field', '`tags` must not repeat.'],
    ['an unknown field close to a real one', { ...valid, acount_ids: ['a'] }, 'unknown_field', '`acount_ids` is not a field of this request; did you mean `account_ids`?'],
    ['an unknown nested field', { ...valid, options: { cuont: 3 } }, 'unknown_field', '`options.cuont` is not a field of `options`; did you mean `options.count`?'],
    ['an unknown field far from any', { ...valid, surprise_field: true }, 'unknown_field', /^`surprise_field` is not a field of this request\.( Its fields are: .*)?$/],
    ['an unknown field in a small object', { ...valid, user: { client_user_id: 'u', zzz: 1 } }, 'unknown_field', '`user.zzz` is not a field of `user`. Its fields are: client_user_id.'],
  ])('%s', (_kind, body, code, message) => {
    const described = describe_(body);
    expect(described.code).toBe(code);
    if (typeof message === 'string') expect(described.message).toBe(message);
    else expect(described.message).toMatch(message);
    // Never zod's own words, a regular expression or the raw issue code.
    expect(described.message).not.toMatch(/Invalid input|Too small|Too big|expected string|\^\[|unrecognized_keys|invalid_type/);
  });

  it('describes up to three problems and counts the rest', () => {
    const described = describe_({ client_name: 1, count: 'x', kind: 'x', mode: 'x', name: 1 });
    expect(described.code).toBe('invalid_field');
    expect(described.message.match(/must be/g)).toHaveLength(3);
    expect(described.message).toMatch(/There are 2 more problems\.$/);
  });

  it('says one thing per field, even when its pattern and its refinement both fail', () => {
    const Dated = z.strictObject({ start_date: DateString });
    const result = Dated.safeParse({ start_date: '01/02/2026' });
    expect(result.error!.issues.length).toBeGreaterThan(1);
    expect(describeSchemaIssues(result.error!.issues, { start_date: '01/02/2026' }, Dated).message).toBe('`start_date` must be a date as YYYY-MM-DD.');
  });

  it("keeps a refinement's own code", () => {
    const WithCode = z.strictObject({ alpha: z.string().optional(), beta: z.string().optional() }).refine((v) => v.alpha !== undefined || v.beta !== undefined, {
      message: 'give one of the two',
      path: ['alpha'],
      params: { code: 'missing_field' },
    });
    const result = WithCode.safeParse({});
    expect(result.success).toBe(false);
    expect(describeSchemaIssues(result.error!.issues, {}, WithCode)).toEqual({ code: 'missing_field', message: '`alpha`: give one of the two.' });
  });

  it('echoes an unknown name at a bounded length', () => {
    const long = 'k'.repeat(5000);
    const described = describe_({ ...valid, [long]: 1 });
    expect(described.code).toBe('unknown_field');
    expect(described.message.length).toBeLessThan(400);
  });

  it('still names the field without the schema (no suggestion then)', () => {
    const result = Schema.safeParse({ ...valid, acount_ids: [] });
    expect(describeSchemaIssues(result.error!.issues, { ...valid, acount_ids: [] })).toEqual({ code: 'unknown_field', message: '`acount_ids` is not a field of this request.' });
  });
});

describe('on real routes, through schemaError', () => {
  const errorOf = (routeId: Parameters<typeof routeById>[0], body: Record<string, unknown>) => {
    const schema = routeById(routeId).request!;
    const result = schema.safeParse(body);
    expect(result.success).toBe(false);
    return schemaError(result.error!, body, schema);
  };

  it('transactions.sync: count out of range', () => {
    expect(errorOf('transactions.sync', { access_token: 'fc_at_x', count: 501 })).toMatchObject({ code: 'invalid_field', message: '`count` must be an integer from 1 to 500.' });
  });

  it('link.token.create: a product that does not exist, and a misspelt field', () => {
    const product = errorOf('link.token.create', { client_name: 'A', user: { client_user_id: 'u' }, products: ['transaction'] });
    expect(product.code).toBe('invalid_field');
    expect(product.message).toMatch(/^`products\[0\]` must be one of: transactions, .*Did you mean transactions\?$/);
    const misspelt = errorOf('link.token.create', { client_name: 'A', user: { client_user_id: 'u' }, products: ['transactions'], webhok: 'https://x.example' });
    expect(misspelt).toMatchObject({ code: 'unknown_field', message: '`webhok` is not a field of this request; did you mean `webhook`?' });
  });

  it('a URL of another scheme, or with a port out of range, says what the field accepts', () => {
    const base = { user: { client_user_id: 'u' }, products: ['transactions'] };
    for (const webhook of ['ftp://example.com/hook', 'https://example.com:99999/hook']) {
      const error = errorOf('link.token.create', { ...base, webhook });
      expect([webhook, error.code]).toEqual([webhook, 'invalid_field']);
      expect(error.message).toMatch(/^`webhook` must be an http\(s\) URL with a valid host and port: https for live keys \(http only on a loopback host/);
      expect(error.message).not.toContain('absolute URL');
    }
    expect(errorOf('link.token.create', { ...base, redirect_uri: 'ftp://example.com/done' }).message).toBe(
      '`redirect_uri` must be an https URL with a valid host and port (or http on localhost, 127.0.0.1 or [::1] for test keys).',
    );
    expect(errorOf('webhooks.endpoints.create', { url: 'ftp://example.com/hook' }).message).toMatch(/^`url` must be an http\(s\) URL with a valid host and port/);
  });

  it('a missing field that takes null too says so', () => {
    expect(errorOf('item.webhook.update', { access_token: 'fc_at_x' })).toMatchObject({ code: 'missing_field', message: '`webhook` is required: send a string or null.' });
    expect(errorOf('transactions.sync', {})).toMatchObject({ code: 'missing_field', message: '`access_token` is required: send a string.' });
  });

  it('link.token.create: update.account_selection_enabled without update_item_id is refused, not ignored', () => {
    const base = { user: { client_user_id: 'u' }, products: ['transactions'] };
    expect(errorOf('link.token.create', { ...base, update: { account_selection_enabled: true } })).toMatchObject({
      code: 'invalid_field',
      message: expect.stringMatching(/^`update\.account_selection_enabled` needs update_item_id: /),
    });
    for (const body of [{ ...base, update: { account_selection_enabled: true }, update_item_id: 'item_1' }, { ...base, update: { account_selection_enabled: false } }]) {
      expect(routeById('link.token.create').request.safeParse(body).success).toBe(true);
    }
  });
});

describe('fieldPath and closestName', () => {
  it('writes indexes in brackets and keys with dots', () => {
    expect(fieldPath(['options', 'count'])).toBe('options.count');
    expect(fieldPath(['account_ids', 2])).toBe('account_ids[2]');
    expect(fieldPath(['transactions', 0, 'amount'])).toBe('transactions[0].amount');
  });

  it('suggests only what is close', () => {
    expect(closestName('acess_token', ['access_token', 'cursor'])).toBe('access_token');
    expect(closestName('Access-Token', ['access_token', 'cursor'])).toBe('access_token');
    expect(closestName('zebra', ['access_token', 'cursor'])).toBeUndefined();
  });
});
