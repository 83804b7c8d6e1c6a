// POST /console/api/auth/logout: ends the session and clears its cookie.
import { consoleSessions, signOut } from '../app/console/session';
import { consoleAuthLogout } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleAuthLogout,
  async ({ deps, caller }) => {
    const answer = await signOut(deps, caller.sessionToken);
    caller.endSession();
    return answer;
  },
  { sessions: consoleSessions },
);
