// POST /console/api/members/update: change a member's role.
import { consoleActor } from '../app/console/actor';
import { updateMember } from '../app/console/members';
import { consoleSessions } from '../app/console/session';
import { consoleMembersUpdate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleMembersUpdate, ({ deps, body, caller, requestId }) => updateMember(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
