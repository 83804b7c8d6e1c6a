// POST /console/api/keys/create: issue a secret key; the answer is the only place the key appears.
import { consoleActor } from '../app/console/actor';
import { createKey } from '../app/console/keys';
import { consoleSessions } from '../app/console/session';
import { consoleKeysCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleKeysCreate, ({ deps, body, caller, requestId }) => createKey(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
