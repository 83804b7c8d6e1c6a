// Link's consent step for the connectors that take a read-only API key and secret, or a public wallet
// address (link.consent). It builds connectors from those adapters only.
import { API_KEY_OR_ADDRESS_ADAPTERS } from '../connectors/by-method/api-key-or-address';
import { fail } from '../contracts/errors';
import type { RequestOf } from '../contracts/routes';
import type { ConsentInput } from '../core/connector-port';
import type { Deps } from '../platform/runtime';
import { connectorCall, connectorUsing, consentContext, finishConsent, selectionWanted, withAttempt, type LinkStep } from './link-connection';
import type { LinkCaller } from './link-session';

/** What the consent step brings to a connection: its adapters (no data comes with a key or an address). */
const API_KEY_OR_ADDRESS_STEP: LinkStep = { adapters: API_KEY_OR_ADDRESS_ADAPTERS };

/** POST /link/api/consent: a read-only API key and secret, or a public wallet address. */
export async function submitConsent(deps: Deps, body: RequestOf<'link.consent'>, caller: LinkCaller) {
  const { session, institution } = await consentContext(deps, body.link_token, body.institution_id, caller);
  const { connector, connect } = await connectorUsing(API_KEY_OR_ADDRESS_ADAPTERS, deps, session, institution, ['api_key', 'address']);
  let input: ConsentInput;
  if (connector.linkMethod === 'api_key') {
    if (body.api_key === undefined || body.api_secret === undefined) fail('missing_field', 'Enter the API key and its secret.');
    if (body.address !== undefined) fail('unknown_field', `${institution.name} takes an API key, not an address.`);
    input = { method: 'api_key', apiKey: body.api_key.trim(), apiSecret: body.api_secret.trim() };
  } else {
    if (body.address === undefined) fail('missing_field', 'Enter the wallet address.');
    if (body.api_key !== undefined || body.api_secret !== undefined) fail('unknown_field', `${institution.name} takes a public address, not an API key.`);
    input = { method: 'address', address: body.address.trim() };
  }
  return withAttempt(deps, session, async (attempt) => finishConsent(deps, session, institution, API_KEY_OR_ADDRESS_STEP, connector, await connectorCall(() => connect(institution.institution_id, input), attempt), selectionWanted(session, body), attempt));
}
