// The Link journey, by step: each route's handler imports the step's own module, so its bundle holds
// the adapters (and, for a statement, the ingestion) that step can reach and nothing else. This module
// gathers them for the code that wants the whole journey (the local server, tests, benchmarks), with
// connectItem, which loads an item's history in this process.
//   ./link-session      link tokens, the page's session, the public token exchange (no connector)
//   ./link-connection   attempts, which connector serves a session, the connection and its repair
//   ./link-credentials  username and password, MFA, and the sandbox's browser-free login
//   ./link-oauth        OAuth consents;  ./link-sandbox-bank  the sandbox's simulated bank page
//   ./link-consent      API key or wallet address;  ./link-upload  a statement file
//   ./link-selection    the accounts the user chose
import { ALL_ADAPTERS } from '../connectors';
import { chooseConnector } from '../connectors/choice';
import { fail } from '../contracts/errors';
import { getItem, type ItemRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { connectorEnvFor, loadHistory } from './item-source';
import { connectNewItem, type ConnectArgs } from './link-connection';

export { createLinkToken, describePage, describeSession, exchangePublicToken, linkCallerOf, oauthRedirectUri, openSession, type LinkCaller } from './link-session';
export { describeConsentMethod, reapAbandonedConnections } from './link-connection';
export { createSandboxPublicToken, submitCredentials, submitMfaCode } from './link-credentials';
export { completeOauth, resumeOauth, startOauth } from './link-oauth';
export { sandboxBankConsent, sandboxBankDecide, type SandboxBankAnswer } from './link-sandbox-bank';
export { submitConsent } from './link-consent';
export { uploadStatement } from './link-upload';
export { submitAccountSelection } from './link-selection';

/**
 * Creates a healthy item served by the login's connector, with its accounts and its whole history
 * loaded in this process, in the refresh worker's two stages (benchmarks and tests; no Link session).
 */
export async function connectItem(deps: Deps, args: Omit<ConnectArgs, 'connectorId' | 'adapters'> & { connectorId?: string }): Promise<ItemRecord> {
  const connectorId = args.connectorId ?? chooseConnector(args.environment, args.institution, await connectorEnvFor(deps, args.environment)).id;
  const { item } = await connectNewItem(deps, null, { ...args, connectorId, adapters: ALL_ADAPTERS }, 'caller loads');
  if (item.transactionsUpdateStatus !== 'historical_update_complete') await loadHistory(deps, item);
  return (await getItem(deps, item.itemId)) ?? fail('invalid_item_id');
}
