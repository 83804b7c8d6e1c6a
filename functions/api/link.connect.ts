// POST /link/api/connect: credentials for an institution -> connected, or an MFA challenge.
import { submitCredentials } from '../app/link-credentials';
import { linkCallerOf } from '../app/link-session';
import { linkConnect } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkConnect, ({ deps, body, event }) => submitCredentials(deps, body, linkCallerOf(event)));
