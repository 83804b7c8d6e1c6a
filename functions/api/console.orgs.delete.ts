// POST /console/api/orgs/delete: delete an organisation (owners, its name confirmed).
import { consoleActor } from '../app/console/actor';
import { deleteOrganization } from '../app/console/organizations';
import { consoleSessions } from '../app/console/session';
import { consoleOrgsDelete } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleOrgsDelete, ({ deps, body, caller, requestId }) => deleteOrganization(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
