// POST /link/api/method: how the page collects consent for an institution (credentials, OAuth, API
// key, address or a statement file), and whether a statement upload is offered.
import { describeConsentMethod } from '../app/link-connection';
import { linkCallerOf } from '../app/link-session';
import { linkMethod } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkMethod, ({ deps, body, event }) => describeConsentMethod(deps, body, linkCallerOf(event)));
