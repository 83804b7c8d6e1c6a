// POST /plaid/<Plaid endpoint path>: the Plaid-compatible API (functions/surfaces/plaid/server.ts,
// docs/plaid-migration.md), one HTTP request per invocation. The middlewares authenticate and meter
// the key that Plaid's `secret` names (one API unit per request) and size-check the raw body; their
// hooks (plaidProtocolHooks) find that key and answer every refusal as Plaid's error object.
import { plaidCall } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { plaidPathOfEvent, plaidProtocolHooks, servePlaidRequest } from '../surfaces/plaid/server';

export const handler = defineOperation(
  plaidCall,
  ({ deps, auth, requestId, baseUrl, event, body }) => servePlaidRequest({ deps, auth, requestId, baseUrl, event, body, path: plaidPathOfEvent(event) }),
  { protocolHooks: plaidProtocolHooks },
);
