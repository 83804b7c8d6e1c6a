// GET /v1/graphql: GraphiQL, the interactive GraphQL IDE (a web page).
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('graphql.ide');
