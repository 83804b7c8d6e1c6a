// The shape of a Link success redirect. (What a login does is the connector's business: see
// functions/core/connector-port.ts; the sandbox's rules are in core/sandbox/login.ts.)

/** redirect_uri with the Link result in the query (public_token, item_id, institution, session). */
export function successRedirect(redirectUri: string, result: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(result)) url.searchParams.set(name, value);
  return url.toString();
}

// ---------- where Link may send the browser and who may frame it ----------

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** localhost, 127.0.0.1 or [::1] (as URL.hostname spells them). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/** `value` parsed as an http or https URL; null for anything else (unparsable, other schemes). */
export function httpUrlOf(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * A redirect URI in the one spelling allowlists are compared in (WHATWG URL serialisation: scheme
 * and host lower-cased, default port dropped, an empty path as "/"). Null when it is not an http(s)
 * URL without credentials or fragment.
 */
export function normaliseRedirectUri(value: string): string | null {
  const url = httpUrlOf(value);
  if (!url || url.username || url.password || url.hash) return null;
  return url.href;
}

/** An origin (scheme, host, optional port; nothing else) in its serialised form, or null. */
export function normaliseOrigin(value: string): string | null {
  const url = httpUrlOf(value);
  if (!url) return null;
  // "https://a.example/" is accepted as the origin it names; anything with a path, query or more is not.
  return value === url.origin || value === `${url.origin}/` ? url.origin : null;
}

/** May an application list this redirect URI or origin? https, or http on a loopback host (local development). */
export function isRegistrableUrl(normalised: string): boolean {
  const url = new URL(normalised);
  return url.protocol === 'https:' || isLoopbackHost(url.hostname);
}

/**
 * Why a link token may not use this redirect_uri, or null when it may. Live keys: https and on the
 * application's allowlist (exact match after normalisation; an empty allowlist allows none). Test
 * keys: any https URL, or http on a loopback host.
 */
export function redirectUriRefusal(redirectUri: string, environment: 'test' | 'live', allowlist: readonly string[]): string | null {
  const normalised = normaliseRedirectUri(redirectUri);
  if (normalised === null) return 'redirect_uri must be an http(s) URL without credentials or a fragment.';
  const url = new URL(normalised);
  if (environment === 'live') {
    if (url.protocol !== 'https:') return 'Live keys need an https redirect_uri.';
    if (!allowlist.includes(normalised)) return `redirect_uri ${normalised} is not on this application's list of allowed redirect URIs.`;
    return null;
  }
  if (url.protocol === 'https:' || isLoopbackHost(url.hostname)) return null;
  return 'Test keys may use an https redirect_uri, or http only on localhost, 127.0.0.1 or [::1].';
}

/**
 * May the sandbox bank page send the user to this redirect_uri? A test key may create a link token
 * with any https redirect_uri (it is where Link's own success redirect goes), but the bank's redirect
 * leaves Fincore's origin on a user's click, carrying the consent's state: like Plaid, which requires
 * OAuth redirect URIs to be allowlisted in its sandbox too, only a loopback URL (local development)
 * or one on the application's list of allowed redirect URIs (exact match after normalisation).
 */
export function sandboxBankReturnAllowed(redirectUri: string, allowlist: readonly string[]): boolean {
  const normalised = normaliseRedirectUri(redirectUri);
  if (normalised === null) return false;
  return isLoopbackHost(new URL(normalised).hostname) || allowlist.includes(normalised);
}

/**
 * May a page on `origin` frame Link (the SDK modal) for a token of this environment? Origins on the
 * application's list always; test keys also from loopback origins (local development).
 */
export function embedOriginAllowed(origin: string, environment: 'test' | 'live', allowedOrigins: readonly string[]): boolean {
  const normalised = normaliseOrigin(origin);
  if (normalised === null) return false;
  if (allowedOrigins.includes(normalised)) return true;
  return environment === 'test' && isLoopbackHost(new URL(normalised).hostname);
}
