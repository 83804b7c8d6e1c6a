// POST /console/api/requests/search: search the request log (by request id, or time range, route and status).
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { searchRequests } from '../app/console/requests';
import { consoleRequestsSearch } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleRequestsSearch,
  async ({ deps, body, caller, requestId }) => searchRequests(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.requests.search', body), body),
  { sessions: consoleSessions },
);
