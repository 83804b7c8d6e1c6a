// POST /console/api/members/remove: remove a member, or leave the organisation.
import { consoleActor } from '../app/console/actor';
import { removeMember } from '../app/console/members';
import { consoleSessions } from '../app/console/session';
import { consoleMembersRemove } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleMembersRemove, ({ deps, body, caller, requestId }) => removeMember(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
