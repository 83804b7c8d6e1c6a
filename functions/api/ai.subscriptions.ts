// POST /v1/ai/subscriptions: paid subscriptions with annual cost, likely-unused flags and savings notes.
import { subscriptions } from '../app/ai';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('ai.subscriptions', ({ deps, auth, body }) => subscriptions(deps, auth, body));
