// POST /console/api/members/list: the members of an organisation and their roles.
import { consoleActor } from '../app/console/actor';
import { listMembers } from '../app/console/members';
import { consoleSessions } from '../app/console/session';
import { consoleMembersList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleMembersList, ({ deps, body, caller, requestId }) => listMembers(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
