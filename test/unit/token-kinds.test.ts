// A token of the wrong kind is named as what it is, with where it goes, and the error keeps its code.
import { z } from 'zod';
import { describeSchemaIssues } from '../../functions/contracts/field-errors';
import { OUR_TOKEN_PREFIXES, recogniseToken, tokenFieldMismatch, tokenKindHint } from '../../functions/contracts/token-kinds';
import { generateApiKey } from '../../functions/core/api-keys';
import { TOKEN_PREFIX, mintToken } from '../../functions/core/tokens';
import { routeById } from '../../functions/contracts/routes';

const link = mintToken('link');
const pub = mintToken('public');
const access = mintToken('access');
const plaidAccess = 'access-sandbox-de3ce8ef-33f8-452c-a685-8671031fc0f6';
const plaidPublic = 'public-sandbox-b0e2c4ee-a763-4df5-bfe9-46a46bce993d';

describe('recogniseToken', () => {
  it('knows the prefixes the API mints, the API keys and Plaid tokens', () => {
    expect(OUR_TOKEN_PREFIXES).toEqual(TOKEN_PREFIX);
    expect([link, pub, access].map(recogniseToken)).toEqual(['link', 'public', 'access']);
    expect(recogniseToken(generateApiKey('test'))).toBe('api_key');
    expect(recogniseToken(generateApiKey('live'))).toBe('api_key');
    expect(recogniseToken(plaidAccess)).toBe('plaid_access');
    expect(recogniseToken(plaidPublic)).toBe('plaid_public');
    expect(recogniseToken('link-production-8f2ee6a2-0e4a-4c0c-8a52-6f1f5b2b1e11')).toBe('plaid_link');
    expect(recogniseToken('hello')).toBeUndefined();
  });
});

describe('tokenKindHint', () => {
  it.each<[string, string, 'public' | 'access' | 'link', RegExp]>([
    ['a link token for a public token', link, 'public', /^This is a link token \(it opens Link\)\. Exchange the public_token that Link's onSuccess gives you\.$/],
    ['an access token for a public token', access, 'public', /^This is an access token .*already happened/],
    ['a public token for an access token', pub, 'access', /^This is a public token .*exchange it at POST \/v1\/link\/token\/exchange/],
    ['a link token for an access token', link, 'access', /^This is a link token \(it opens Link\)\. Send the item's access_token/],
    ['a Plaid access token', plaidAccess, 'access', /^This is a Plaid access token .*works with Plaid only/],
    ['a Plaid public token', plaidPublic, 'public', /^This is a Plaid public token/],
    ['an API key', generateApiKey('test'), 'access', /^This is a secret API key \(fc_sk_\.\.\.\): it authenticates your server in the Authorization header/],
    ['a public token for a link token', pub, 'link', /^This is a public token .*Send a link token/],
  ])('%s', (_name, value, expected, pattern) => {
    expect(tokenKindHint(value, expected)).toMatch(pattern);
  });

  it('says nothing for the right kind or an unrecognisable value', () => {
    expect(tokenKindHint(pub, 'public')).toBeUndefined();
    expect(tokenKindHint('garbage', 'public')).toBeUndefined();
  });

  it('never echoes the token it got', () => {
    const key = generateApiKey('live');
    for (const kind of ['public', 'access', 'link'] as const) for (const value of [link, pub, access, key, plaidAccess]) expect(tokenKindHint(value, kind) ?? '').not.toContain(value);
  });
});

describe("a body's token fields", () => {
  it('a link token as public_token keeps invalid_public_token', () => {
    expect(tokenFieldMismatch({ public_token: link })).toEqual({
      code: 'invalid_public_token',
      message: "`public_token` is not a public token. This is a link token (it opens Link). Exchange the public_token that Link's onSuccess gives you.",
    });
    expect(tokenFieldMismatch({ public_token: pub })).toBeUndefined();
    expect(tokenFieldMismatch({ public_token: 'unknown' })).toBeUndefined();
  });

  it('an access_token that fails its pattern keeps invalid_field, and says which kind it got', () => {
    const schema = routeById('items.get').request!;
    for (const [value, kind] of [
      [pub, 'public token'],
      [link, 'link token'],
      [plaidAccess, 'Plaid access token'],
      [generateApiKey('test'), 'secret API key'],
    ] as const) {
      const result = schema.safeParse({ access_token: value });
      expect(result.success).toBe(false);
      const described = describeSchemaIssues(result.error!.issues, { access_token: value }, schema);
      expect(described.code).toBe('invalid_field');
      expect(described.message).toContain(`\`access_token\` is not an access token. This is a ${kind}`);
    }
  });

  it("a refinement's own code stays (the Plaid-compatible API's invalid_access_token)", () => {
    const Plaidish = z.strictObject({ access_token: z.string().refine((t) => t.startsWith('fc_at_'), { message: 'not ours', params: { code: 'invalid_access_token' } }) });
    const result = Plaidish.safeParse({ access_token: plaidAccess });
    expect(describeSchemaIssues(result.error!.issues, { access_token: plaidAccess }, Plaidish)).toMatchObject({
      code: 'invalid_access_token',
      message: expect.stringContaining('This is a Plaid access token'),
    });
  });
});
