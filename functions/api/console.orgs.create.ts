// POST /console/api/orgs/create: create an organisation; its creator becomes its owner.
import { consoleActor } from '../app/console/actor';
import { createOrganization } from '../app/console/organizations';
import { consoleSessions } from '../app/console/session';
import { consoleOrgsCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleOrgsCreate, ({ deps, body, caller, requestId }) => createOrganization(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
