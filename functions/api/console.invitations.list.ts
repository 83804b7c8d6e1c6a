// POST /console/api/invitations/list: an organisation's open invitations.
import { consoleActor } from '../app/console/actor';
import { listInvitations } from '../app/console/invitations';
import { consoleSessions } from '../app/console/session';
import { consoleInvitationsList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleInvitationsList, ({ deps, body, caller, requestId }) => listInvitations(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
