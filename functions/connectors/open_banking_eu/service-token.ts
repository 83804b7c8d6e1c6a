// The operator's service token for the provider (POST /token/new/ with the secret id and key, then
// POST /token/refresh/ with the refresh token). Creating one is rate limited by the provider
// (100 an hour per company), and the composition builds a new adapter for every call, so tokens
// are cached per process, keyed by base URL and secret id. Their lifetimes are measured from
// receipt on a monotonic counter (never the wall clock, which may jump), with a safety margin; a
// token the provider refuses anyway is dropped and replaced once by the caller.
import { ConnectorError, type ProviderHttp } from '../../core/connector-port';
import { rateLimitResetSeconds, readTokenGrant } from './mapping';

export interface CachedServiceToken {
  access: string;
  accessValidUntilMs: number;
  refresh: string | null;
  refreshValidUntilMs: number;
}

/** Where tokens are kept between adapter instances (a Map; tests pass their own). */
export type ServiceTokenCache = Map<string, CachedServiceToken>;

/** Tokens are treated as expired this long before the provider's own expiry. */
const EXPIRY_MARGIN_MS = 60_000;

export interface ServiceTokenDeps {
  http: ProviderHttp;
  baseUrl: string;
  secretId: string;
  secretKey: string;
  cache: ServiceTokenCache;
  /** A monotonic millisecond counter (performance.now in production). */
  nowMs: () => number;
}

export interface ServiceTokens {
  /** A valid access token, from the cache, a refresh or a new grant. */
  access(): Promise<string>;
  /** Drops `access` from the cache when the provider refused it (the next access() gets another). */
  invalidate(access: string): void;
}

const CREDENTIALS_REFUSED =
  'The open banking provider refused the operator credentials (OPEN_BANKING_EU_CLIENT_ID / OPEN_BANKING_EU_CLIENT_SECRET): check the secret id and key in its portal.';

export function serviceTokens(deps: ServiceTokenDeps): ServiceTokens {
  const key = `${deps.baseUrl}\u0000${deps.secretId}`;

  function failure(status: number, headers: Record<string, string>, body: unknown, what: string): ConnectorError {
    if (status === 429) {
      const retryAfterSeconds = rateLimitResetSeconds(headers, body);
      return new ConnectorError('rate_limited', `The open banking provider rate limited ${what}.`, { status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });
    }
    return new ConnectorError('provider_error', `The open banking provider answered ${status} to ${what}.`, { status });
  }

  function remember(grant: ReturnType<typeof readTokenGrant>, previous: CachedServiceToken | undefined, receivedAt: number): CachedServiceToken {
    const token: CachedServiceToken = {
      access: grant.access,
      accessValidUntilMs: receivedAt + grant.accessExpiresSeconds * 1000 - EXPIRY_MARGIN_MS,
      // A refresh grant returns no new refresh token: the one it was made with stays valid.
      refresh: grant.refresh ?? previous?.refresh ?? null,
      refreshValidUntilMs:
        grant.refresh !== null ? receivedAt + (grant.refreshExpiresSeconds ?? 0) * 1000 - EXPIRY_MARGIN_MS : (previous?.refreshValidUntilMs ?? 0),
    };
    deps.cache.set(key, token);
    return token;
  }

  async function grantNew(): Promise<CachedServiceToken> {
    const receivedAt = deps.nowMs();
    const res = await deps.http.send({ method: 'POST', url: `${deps.baseUrl}/token/new/`, json: { secret_id: deps.secretId, secret_key: deps.secretKey } });
    if (res.status === 401 || res.status === 403) throw new ConnectorError('provider_error', CREDENTIALS_REFUSED, { status: res.status });
    if (res.status < 200 || res.status >= 300) throw failure(res.status, res.headers, res.json, 'a service token request');
    return remember(readTokenGrant(res.json), undefined, receivedAt);
  }

  /** A refreshed access token, or null when the provider no longer accepts the refresh token. */
  async function grantRefreshed(previous: CachedServiceToken & { refresh: string }): Promise<CachedServiceToken | null> {
    const receivedAt = deps.nowMs();
    const res = await deps.http.send({ method: 'POST', url: `${deps.baseUrl}/token/refresh/`, json: { refresh: previous.refresh } });
    if (res.status === 401 || res.status === 403) return null;
    if (res.status < 200 || res.status >= 300) throw failure(res.status, res.headers, res.json, 'a service token refresh');
    return remember(readTokenGrant(res.json), previous, receivedAt);
  }

  return {
    async access() {
      const cached = deps.cache.get(key);
      const now = deps.nowMs();
      if (cached && now < cached.accessValidUntilMs) return cached.access;
      if (cached?.refresh && now < cached.refreshValidUntilMs) {
        const refreshed = await grantRefreshed({ ...cached, refresh: cached.refresh });
        if (refreshed) return refreshed.access;
      }
      return (await grantNew()).access;
    },
    invalidate(access) {
      const cached = deps.cache.get(key);
      if (cached?.access === access) deps.cache.set(key, { ...cached, accessValidUntilMs: Number.NEGATIVE_INFINITY });
    },
  };
}
