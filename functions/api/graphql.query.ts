// POST /v1/graphql: Read-only GraphQL gateway over items, accounts and transactions.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('graphql.query');
