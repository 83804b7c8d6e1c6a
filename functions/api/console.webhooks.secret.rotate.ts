// POST /console/api/webhooks/secret/rotate: rotate the signing secret (the new one is shown once).
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { rotateWebhookSecret } from '../app/console/webhooks';
import { consoleWebhooksSecretRotate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleWebhooksSecretRotate,
  async ({ deps, body, caller, requestId }) => rotateWebhookSecret(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.webhooks.secret.rotate', body), body),
  { sessions: consoleSessions },
);
