// GET /console and /console/: the console web app. The shell at /console/ (a fresh CSP nonce each
// time), its script and stylesheet at `?asset=<name>&v=<sha-256>`, and /console redirected to
// /console/ (functions/console-ui/page.ts). API Gateway routes both paths here and keeps the
// trailing slash in the event's path.
import { deploymentIdentity } from '../app/console/session';
import { consolePage } from '../contracts/routes';
import { consolePage as renderConsolePage } from '../console-ui/page';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consolePage, ({ event }) =>
  renderConsolePage({ path: event.path, query: event.queryStringParameters, identity: deploymentIdentity().kind }),
);
