// POST /console/api/invitations/revoke: revoke a pending invitation.
import { consoleActor } from '../app/console/actor';
import { revokeInvitation } from '../app/console/invitations';
import { consoleSessions } from '../app/console/session';
import { consoleInvitationsRevoke } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleInvitationsRevoke, ({ deps, body, caller, requestId }) => revokeInvitation(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
