// POST /console/api/audit/list: an organisation's audit log (admins and owners).
import { consoleActor } from '../app/console/actor';
import { listAudit } from '../app/console/audit';
import { consoleSessions } from '../app/console/session';
import { consoleAuditList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleAuditList, ({ deps, body, caller, requestId }) => listAudit(deps, consoleActor(caller, requestId), body), { sessions: consoleSessions });
