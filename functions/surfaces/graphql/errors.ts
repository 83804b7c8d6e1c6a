// Every error of a GraphQL answer carries our error fields in `extensions` (type, code, request_id,
// status; functions/platform/protocols.ts errorFields), whatever raised it:
// - an ApiError (a resolver's, or a check's: query limits, bad arguments): that error, at its path;
// - a storage failure in a resolver: storage_unavailable, as over REST;
// - anything else a resolver threw (our bug): internal_error, logged and never its message;
// - graphql's own syntax and validation errors: graphql_syntax_error / graphql_validation_failed;
// - the HTTP-level errors of graphql-http (a body that is not JSON, no query): our REST codes.
import { GraphQLError } from 'graphql';
import { ApiError } from '../../contracts/errors';
import { storageFailureOf, storageUnavailable } from '../../platform/middleware';
import { logger } from '../../platform/observability';
import { errorFields } from '../../platform/protocols';

/** graphql-http's messages for a request it cannot read, and the REST code each one is. */
const REQUEST_ERRORS: Readonly<Record<string, () => ApiError>> = {
  'Missing body': () => new ApiError('invalid_json', 'The request body is empty; send a JSON object with a `query`.'),
  'Unparsable JSON body': () => new ApiError('invalid_json'),
  'JSON body must be an object': () => new ApiError('invalid_json', 'The request body must be a JSON object.'),
  'Missing query': () => new ApiError('missing_field', 'query is required: send the GraphQL document as a string.'),
  'Invalid query': () => new ApiError('invalid_field', 'query must be a string.'),
  'Invalid variables': () => new ApiError('invalid_field', 'variables must be a JSON object (or null).'),
  'Invalid operationName': () => new ApiError('invalid_field', 'operationName must be a string (or null).'),
  'Invalid extensions': () => new ApiError('invalid_field', 'extensions must be a JSON object (or null).'),
};

/** Marks graphql's own (syntax or validation) errors with our code, keeping their locations. */
export function withCode(error: GraphQLError, code: 'graphql_syntax_error' | 'graphql_validation_failed'): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: new ApiError(code, error.message),
  });
}

function apiErrorOf(error: Readonly<GraphQLError | Error>, requestId: string): ApiError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof ApiError) return original;
  if (error instanceof GraphQLError && !original) return new ApiError('graphql_validation_failed', error.message);
  if (!(error instanceof GraphQLError)) {
    const known = REQUEST_ERRORS[error.message];
    if (known) return known();
  }
  const storage = storageFailureOf(original);
  if (storage) return storageUnavailable(storage, requestId);
  logger.error('unhandled error in a GraphQL request', { request_id: requestId, error: original as Error, path: error instanceof GraphQLError ? error.path : undefined });
  return new ApiError('internal_error');
}

/** graphql-http's formatError for one request: our code and fields on every error, locations and path kept. */
export function formatErrorFor(requestId: string, baseUrl: string) {
  return (error: Readonly<GraphQLError | Error>): GraphQLError => {
    const apiError = apiErrorOf(error, requestId);
    const located = error instanceof GraphQLError ? error : undefined;
    return new GraphQLError(apiError.message, {
      nodes: located?.nodes,
      source: located?.source,
      positions: located?.positions,
      path: located?.path,
      extensions: errorFields(apiError, requestId, baseUrl),
    });
  };
}
