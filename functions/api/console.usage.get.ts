// POST /console/api/usage/get: a month's usage against the plan.
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { usageOf } from '../app/console/usage';
import { consoleUsageGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleUsageGet,
  async ({ deps, body, caller, requestId }) => usageOf(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.usage.get', body), body),
  { sessions: consoleSessions },
);
