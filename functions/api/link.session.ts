// POST /link/api/session: what the hosted page needs to render a session.
import { describeSession, linkCallerOf } from '../app/link-session';
import { linkSession } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkSession, ({ deps, body, event }) => describeSession(deps, body.link_token, linkCallerOf(event)));
