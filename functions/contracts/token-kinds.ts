// Which kind of token a string is, by its prefix, and what to say when it is sent where another kind
// belongs: a link token where the public token goes, a public token where the access token goes, a
// Plaid token or a secret API key in a token field. The error keeps its code; its message names the
// kind it got and where that kind goes.
//
// Pure (contracts only): the schema wording (./field-errors.ts), the middleware's body check and the
// GraphQL gateway use it alike. The prefixes are functions/core/tokens.ts TOKEN_PREFIX and the API
// key's (test/unit/token-kinds.test.ts holds them together).
import type { ErrorCode } from './errors';

/** The tokens this API mints, by kind (functions/core/tokens.ts TOKEN_PREFIX). */
export const OUR_TOKEN_PREFIXES = { link: 'fc_link_', public: 'fc_pub_', access: 'fc_at_' } as const;
export type OurTokenKind = keyof typeof OUR_TOKEN_PREFIXES;

export type RecognisedToken = OurTokenKind | 'api_key' | 'plaid_link' | 'plaid_public' | 'plaid_access';

/** Plaid's tokens: `access-sandbox-<uuid>`, `public-production-...`, `link-development-...`. */
const PLAID_TOKEN = /^(access|public|link)-(sandbox|development|production)-[0-9a-f-]{8,}$/i;
const API_KEY = /^fc_sk_(test|live)_/;

/** The kind of token `value` is, when its form says so. */
export function recogniseToken(value: string): RecognisedToken | undefined {
  const trimmed = value.trim();
  if (API_KEY.test(trimmed)) return 'api_key';
  for (const [kind, prefix] of Object.entries(OUR_TOKEN_PREFIXES) as [OurTokenKind, string][]) if (trimmed.startsWith(prefix)) return kind;
  const plaid = PLAID_TOKEN.exec(trimmed);
  if (plaid) return `plaid_${plaid[1].toLowerCase() as 'access' | 'public' | 'link'}`;
  return undefined;
}

const NAMES: Readonly<Record<OurTokenKind, string>> = { link: 'a link token', public: 'a public token', access: 'an access token' };
const FIELDS: Readonly<Record<OurTokenKind, string>> = { link: 'link_token', public: 'public_token', access: 'access_token' };

/** What to send instead, by the kind the field expects. */
const WANTED: Readonly<Record<OurTokenKind, string>> = {
  public: "Exchange the public_token that Link's onSuccess gives you.",
  access:
    "Send the item's access_token (fc_at_...): exchange the public_token from Link's onSuccess at POST /v1/link/token/exchange (or /plaid/item/public_token/exchange) to get it.",
  link: 'Send a link token (fc_link_...) from POST /v1/link/token/create.',
};

/**
 * The sentences for a token of another kind than the field expects: which kind it is and where it
 * goes, then what belongs here. Undefined when the value is of the expected kind or of no kind its
 * form reveals (then the usual message stands).
 */
export function tokenKindHint(value: string, expected: OurTokenKind): string | undefined {
  const got = recogniseToken(value);
  if (got === undefined || got === expected) return undefined;
  switch (got) {
    case 'link':
      return `This is a link token (it opens Link). ${WANTED[expected]}`;
    case 'public':
      return expected === 'access'
        ? "This is a public token (fc_pub_...) from Link's onSuccess: exchange it at POST /v1/link/token/exchange (or /plaid/item/public_token/exchange) and send the access_token that returns."
        : `This is a public token (fc_pub_...): it is what Link's onSuccess gives you, to exchange for an access token. ${WANTED[expected]}`;
    case 'access':
      return expected === 'public'
        ? "This is an access token (fc_at_...): the exchange already happened, and this token is what it returns. Use it on the item's endpoints; exchange only the public_token that Link's onSuccess gives you."
        : `This is an access token (fc_at_...): it reads an item's data. ${WANTED[expected]}`;
    case 'api_key':
      return `This is a secret API key (fc_sk_...): it authenticates your server in the Authorization header (or as \`secret\` on the Plaid-compatible API) and never goes in ${FIELDS[expected]}. Rotate it if this request was logged anywhere. ${WANTED[expected]}`;
    default: {
      const kind = got.slice('plaid_'.length);
      return `This is a Plaid ${kind} token (${kind}-sandbox-... style): it works with Plaid only. Fincore issues its own tokens: create a link token at POST /v1/link/token/create (or /plaid/link/token/create), open Fincore Link with it, and exchange the public_token it gives you.`;
    }
  }
}

/** The token fields requests carry, by the kind each expects. */
export const TOKEN_FIELDS: Readonly<Record<string, OurTokenKind>> = { access_token: 'access', public_token: 'public', link_token: 'link' };

/** The code each token field's refusal has always had where the field's schema accepts any string. */
const REFUSAL_CODES: Readonly<Record<OurTokenKind, ErrorCode>> = { access: 'invalid_access_token', public: 'invalid_public_token', link: 'invalid_link_token' };

/** "`public_token` is not a public token. This is a link token (it opens Link). ..." */
export function tokenFieldSentence(field: string, value: string): string | undefined {
  const expected = Object.hasOwn(TOKEN_FIELDS, field) ? TOKEN_FIELDS[field] : undefined;
  const hint = expected ? tokenKindHint(value, expected) : undefined;
  return expected && hint ? `\`${field}\` is not ${NAMES[expected]}. ${hint}` : undefined;
}

/**
 * A parsed body's top-level token field holding a token of another kind (its schema takes any
 * string, so the lookup would only say "not valid"): the field's usual code, with a message naming
 * the kind it got. Undefined when every token field is of its kind or of no recognisable kind.
 */
export function tokenFieldMismatch(body: unknown): { code: ErrorCode; message: string } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const [field, kind] of Object.entries(TOKEN_FIELDS)) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value !== 'string') continue;
    const message = tokenFieldSentence(field, value);
    if (message) return { code: REFUSAL_CODES[kind], message };
  }
  return undefined;
}
