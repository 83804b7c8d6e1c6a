// A loopback fake of the first crypto exchange's consumer API as its public documentation describes
// it: OAuth 2.0 authorization code with PKCE at /oauth2/token (single-use refresh tokens that
// rotate on every exchange), bearer-authenticated v2 resources (/v2/user, /v2/accounts,
// /v2/accounts/:id/transactions) with cursor pagination (limit <= 100, starting_after, next_uri),
// and the documented error body { errors: [{ id, message }] }.
import { createHash } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const CLIENT_ID = 'cx-a-client';
export const CLIENT_SECRET = 'cx-a-client-secret-value';

export interface FakeWallet {
  id: string;
  name: string;
  type: 'wallet' | 'fiat' | 'vault';
  currency: { code: string; name: string; type: 'crypto' | 'fiat' };
  balance: { amount: string; currency: string };
  native_balance?: { amount: string; currency: string };
}

export interface FakeTransaction {
  id: string;
  type: string;
  status: string;
  amount: { amount: string; currency: string };
  native_amount: { amount: string; currency: string };
  description: string | null;
  created_at: string;
  details?: { title?: string; subtitle?: string };
}

export interface CryptoExchangeAFake extends FakeServer {
  user: { id: string; name: string; email: string };
  /** Mutate in place (push, splice): the fake serves these arrays. */
  wallets: FakeWallet[];
  /** Per wallet id, newest first (as the API lists them). */
  transactions: Record<string, FakeTransaction[]>;
  /** What the consent page would redirect back with, for a given PKCE challenge and redirect URI. */
  issueCode(codeChallenge: string, redirectUri: string): string;
  /** The tokens the fake currently honours (the test reads them to build a connection). */
  current: { access_token: string; refresh_token: string };
  /** Makes the current access token expire (the API then answers 401 expired_token). */
  expireAccessToken(): void;
  /** Revokes the grant: every token is refused (401 revoked_token, token endpoint invalid_grant). */
  revoke(): void;
  /** Overrides the JSON of one route (hostile payload tests). */
  override(path: string, body: unknown): void;
}

const apiError = (status: number, id: string, message: string): FakeResponse => ({ status, body: { errors: [{ id, message }] } });
const oauthError = (status: number, error: string): FakeResponse => ({ status, body: { error, error_description: `${error} (fake)` } });

export async function startCryptoExchangeAFake(): Promise<CryptoExchangeAFake> {
  let serial = 0;
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  let accessExpired = false;
  let revoked = false;
  const overrides = new Map<string, unknown>();

  const newTokens = () => {
    serial += 1;
    return { access_token: `access-${serial}-${'a'.repeat(16)}`, refresh_token: `refresh-${serial}-${'r'.repeat(16)}` };
  };

  function paginate(request: FakeRequest, rows: { id: string }[]): FakeResponse {
    const limit = Number(request.query.get('limit') ?? '25');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return apiError(400, 'invalid_request', 'limit must be between 1 and 100');
    if ((request.query.get('order') ?? 'desc') !== 'desc') return apiError(400, 'invalid_request', 'the fake serves desc only');
    const after = request.query.get('starting_after');
    const start = after ? rows.findIndex((r) => r.id === after) + 1 : 0;
    if (after && start === 0) return apiError(400, 'invalid_request', 'unknown starting_after');
    const data = rows.slice(start, start + limit);
    const more = start + limit < rows.length;
    const last = data[data.length - 1]?.id;
    return {
      status: 200,
      body: {
        pagination: {
          ending_before: null,
          starting_after: after ?? null,
          next_starting_after: more ? last : null,
          limit,
          order: 'desc',
          previous_uri: null,
          next_uri: more ? `${request.path}?limit=${limit}&order=desc&starting_after=${last}` : null,
        },
        data,
      },
    };
  }

  const state = {
    user: { id: 'user-7f3e', name: 'Ada Lovelace', email: 'ada@example.com' },
    wallets: [] as FakeWallet[],
    transactions: {} as Record<string, FakeTransaction[]>,
    current: newTokens(),
  };

  function token(request: FakeRequest): FakeResponse {
    const form = (request.parsed ?? {}) as Record<string, string>;
    if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') return oauthError(400, 'invalid_request');
    if (form.client_id !== CLIENT_ID || form.client_secret !== CLIENT_SECRET) return oauthError(401, 'invalid_client');
    if (form.grant_type === 'authorization_code') {
      const issued = codes.get(form.code ?? '');
      if (!issued) return oauthError(400, 'invalid_grant');
      codes.delete(form.code);
      if (issued.redirectUri !== form.redirect_uri) return oauthError(400, 'invalid_grant');
      const challenge = createHash('sha256').update(form.code_verifier ?? '').digest('base64url');
      if (challenge !== issued.challenge) return oauthError(400, 'invalid_grant');
      revoked = false;
      accessExpired = false;
      state.current = newTokens();
      return { status: 200, body: { ...state.current, token_type: 'bearer', expires_in: 3600, scope: 'wallet:accounts:read' } };
    }
    if (form.grant_type === 'refresh_token') {
      // single use: only the latest refresh token is honoured, and using it replaces both tokens
      if (revoked || form.refresh_token !== state.current.refresh_token) return oauthError(400, 'invalid_grant');
      accessExpired = false;
      state.current = newTokens();
      return { status: 200, body: { ...state.current, token_type: 'bearer', expires_in: 3600 } };
    }
    return oauthError(400, 'unsupported_grant_type');
  }

  function api(request: FakeRequest): FakeResponse {
    const auth = request.headers.authorization ?? '';
    if (revoked) return apiError(401, 'revoked_token', 'The access token was revoked');
    if (auth !== `Bearer ${state.current.access_token}`) return apiError(401, 'invalid_token', 'The access token is invalid');
    if (accessExpired) return apiError(401, 'expired_token', 'The access token expired');
    if (overrides.has(request.path)) return { status: 200, body: overrides.get(request.path) };
    if (request.path === '/v2/user') return { status: 200, body: { data: { ...state.user, username: 'ada', resource: 'user' } } };
    if (request.path === '/v2/accounts') return paginate(request, state.wallets);
    const match = /^\/v2\/accounts\/([^/]+)\/transactions$/.exec(request.path);
    if (match) {
      const id = decodeURIComponent(match[1]);
      if (!state.wallets.some((w) => w.id === id)) return apiError(404, 'not_found', 'Not found');
      return paginate(request, state.transactions[id] ?? []);
    }
    return apiError(404, 'not_found', 'Not found');
  }

  const server = await startFakeServer((request) => {
    if (request.method === 'POST' && request.path === '/oauth2/token') return token(request);
    if (request.method === 'POST' && request.path === '/oauth2/revoke') {
      const form = (request.parsed ?? {}) as Record<string, string>;
      if (form.client_id !== CLIENT_ID || form.client_secret !== CLIENT_SECRET) return oauthError(401, 'invalid_client');
      revoked = true;
      return { status: 200, body: {} };
    }
    if (request.method === 'GET' && request.path.startsWith('/v2/')) return api(request);
    return apiError(404, 'not_found', 'Not found');
  });

  const fake = Object.assign(server, {
    user: state.user,
    wallets: state.wallets,
    transactions: state.transactions,
    issueCode(codeChallenge: string, redirectUri: string) {
      serial += 1;
      const code = `code-${serial}`;
      codes.set(code, { challenge: codeChallenge, redirectUri });
      return code;
    },
    expireAccessToken: () => {
      accessExpired = true;
    },
    revoke: () => {
      revoked = true;
    },
    override: (path: string, body: unknown) => {
      overrides.set(path, body);
    },
  });
  // the tokens change on every exchange: read them live
  Object.defineProperty(fake, 'current', { get: () => state.current });
  return fake as CryptoExchangeAFake;
}
