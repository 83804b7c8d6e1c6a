// POST /console/api/keys/revoke: revoke a secret key.
import { consoleActor } from '../app/console/actor';
import { revokeKey } from '../app/console/keys';
import { consoleSessions } from '../app/console/session';
import { consoleKeysRevoke } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleKeysRevoke, ({ deps, body, caller, requestId }) => revokeKey(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
