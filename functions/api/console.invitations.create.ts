// POST /console/api/invitations/create: invite an e-mail address with a role; the link is in this answer only.
import { consoleActor } from '../app/console/actor';
import { createInvitation } from '../app/console/invitations';
import { consoleSessions } from '../app/console/session';
import { consoleInvitationsCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleInvitationsCreate, ({ deps, body, caller, requestId, baseUrl }) => createInvitation(deps, consoleActor(caller, requestId), body, baseUrl), { sessions: consoleSessions });
