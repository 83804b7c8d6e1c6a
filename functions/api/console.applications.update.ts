// POST /console/api/applications/update: rename an application or change its plan.
import { consoleActor } from '../app/console/actor';
import { updateApplication } from '../app/console/applications';
import { consoleSessions } from '../app/console/session';
import { consoleApplicationsUpdate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleApplicationsUpdate, ({ deps, body, caller, requestId }) => updateApplication(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
