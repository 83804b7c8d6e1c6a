// POST /link/api/mfa: the one-time code of a pending MFA challenge.
import { submitMfaCode } from '../app/link-credentials';
import { linkCallerOf } from '../app/link-session';
import { linkMfa } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkMfa, ({ deps, body, event }) => submitMfaCode(deps, body, linkCallerOf(event)));
