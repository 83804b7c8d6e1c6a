// The shape of a Link success redirect. (What a login does is the connector's business: see
// functions/core/connector-port.ts; the sandbox's rules are in core/sandbox/login.ts.)

/** redirect_uri with the Link result in the query (public_token, item_id, institution, session). */
export function successRedirect(redirectUri: string, result: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(result)) url.searchParams.set(name, value);
  return url.toString();
}
