// POST /console/api/items/get: find an item for support.
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { findItem } from '../app/console/items';
import { consoleItemsGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleItemsGet,
  async ({ deps, body, caller, requestId }) => findItem(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.items.get', body, { item_id: body.item_id }), body),
  { sessions: consoleSessions },
);
