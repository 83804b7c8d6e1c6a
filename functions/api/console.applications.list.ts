// POST /console/api/applications/list: an organisation's applications.
import { consoleActor } from '../app/console/actor';
import { listApplications } from '../app/console/applications';
import { consoleSessions } from '../app/console/session';
import { consoleApplicationsList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleApplicationsList, ({ deps, body, caller, requestId }) => listApplications(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
