// POST /console/api/items/refresh: refresh an item (as POST /v1/items/refresh does).
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { refreshItemFromConsole } from '../app/console/items';
import { consoleItemsRefresh } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleItemsRefresh,
  async ({ deps, body, caller, requestId }) => refreshItemFromConsole(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.items.refresh', body, { item_id: body.item_id }), body),
  { sessions: consoleSessions },
);
