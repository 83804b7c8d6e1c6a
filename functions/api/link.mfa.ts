// POST /link/api/mfa: the one-time code of a pending MFA challenge.
import { linkCallerOf, submitMfaCode } from '../app/link';
import { linkMfa } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkMfa, ({ deps, body, event }) => submitMfaCode(deps, body, linkCallerOf(event)));
