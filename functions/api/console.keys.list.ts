// POST /console/api/keys/list: an application's secret keys (never the keys themselves).
import { consoleActor } from '../app/console/actor';
import { listKeys } from '../app/console/keys';
import { consoleSessions } from '../app/console/session';
import { consoleKeysList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleKeysList, ({ deps, body, caller, requestId }) => listKeys(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
