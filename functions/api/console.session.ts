// POST /console/api/session: who is signed in, their organisations and roles, and the CSRF token.
// The one session route that needs no X-CSRF-Token: it is how the console's page gets the token
// again after a reload (it keeps it in memory only).
import { consoleSessions, sessionOverview } from '../app/console/session';
import { consoleSession } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleSession, ({ deps, caller }) => sessionOverview(deps, caller.session), { sessions: consoleSessions });
