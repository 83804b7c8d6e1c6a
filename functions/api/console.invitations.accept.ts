// POST /console/api/invitations/accept: join an organisation through an invitation addressed to the signed-in user.
import { consoleActor } from '../app/console/actor';
import { acceptInvitation } from '../app/console/invitations';
import { consoleSessions } from '../app/console/session';
import { consoleInvitationsAccept } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleInvitationsAccept, ({ deps, body, caller, requestId }) => acceptInvitation(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
