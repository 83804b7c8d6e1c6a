// POST /console/api/applications/create: create an application in an organisation.
import { consoleActor } from '../app/console/actor';
import { createApplication } from '../app/console/applications';
import { consoleSessions } from '../app/console/session';
import { consoleApplicationsCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleApplicationsCreate, ({ deps, body, caller, requestId }) => createApplication(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
