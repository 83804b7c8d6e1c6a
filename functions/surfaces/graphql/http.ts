// GraphQL over HTTP for POST /v1/graphql, on graphql-http's spec-compliant handler. The route's
// middlewares have already authenticated and metered the caller (one HTTP request is one API request,
// whatever the query asks: the cost limit bounds what one request may do) and size-checked the body;
// this adapter turns the API Gateway event into graphql-http's generic request and its answer into a
// rendered response.
//
// Before anything runs, in this order: the query's length, its syntax, our limits (operation kind,
// introspection, access tokens, depth, cost: query-limits.ts), graphql's validation, then the
// variables against their declared types. Any failure answers errors and no data: HTTP 200 under
// `application/json`, 400 under `application/graphql-response+json`, as the GraphQL over HTTP spec
// asks.
// Everything from graphql's entry point, never a deep path ('graphql/execution/values'): a bundler
// that takes the package's ES module build resolves a deep path to its CommonJS file, a second copy
// of graphql whose type checks fail on the schema's types.
import {
  GraphQLError,
  getOperationAST,
  getVariableValues,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { createHandler, parseRequestParams, type OperationArgs, type Request, type RequestParams, type Response } from 'graphql-http';
import { ApiError } from '../../contracts/errors';
import { LIMITS } from '../../contracts/limits';
import type { ApiEvent } from '../../platform/middleware';
import { headerOf, type RenderedResponse } from '../../platform/operation';
import { canonicalHeaderName, errorFields, GRAPHQL_RESPONSE_MEDIA_TYPE } from '../../platform/protocols';
import { createGraphqlContext, type GraphqlCaller, type GraphqlContext } from './context';
import { formatErrorFor, withCode } from './errors';
import { codedError, checkQueryLimits } from './query-limits';
import { graphqlSchema } from './schema';

/** One POST to the gateway: the raw body (size-checked) and the event it came in. */
export type GraphqlHttpCall = GraphqlCaller & {
  body: string;
  event: ApiEvent;
  /** {base_url}, where an error's documentation_url points. */
  baseUrl: string;
};

type RequestContextValue = Record<string, never>;

/**
 * Whether graphql-http can answer in a media type the Accept header allows. When it cannot, the
 * header is disregarded and the answer is application/json: the spec lets a server do that instead of
 * answering 406, and an error then still reaches the caller in a body it can read.
 */
function acceptable(accept: string): boolean {
  return accept
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .some((range) => {
      const [mediaType, ...params] = range.split(';');
      const charset = params.find((p) => p.startsWith('charset=')) ?? 'charset=utf-8';
      if (mediaType === GRAPHQL_RESPONSE_MEDIA_TYPE) return charset === 'charset=utf-8';
      return ['application/json', 'application/*', '*/*'].includes(mediaType) && (charset === 'charset=utf-8' || charset === 'charset=utf8');
    });
}

/** An error as graphql-http's response: a GraphQL errors body with our fields, the error's own status. */
function errorResponse(error: ApiError, requestId: string, baseUrl: string): Response {
  return [
    JSON.stringify({ errors: [{ message: error.message, extensions: errorFields(error, requestId, baseUrl) }] }),
    { status: error.status, statusText: error.code, headers: { 'content-type': 'application/json; charset=utf-8', ...error.headers } },
  ];
}

const isResponse = (value: RequestParams | Response): value is Response => Array.isArray(value);

/** The library's own request reading (method, content type, JSON, field types), then the query's length. */
function readParamsFor(requestId: string, baseUrl: string) {
  return async (req: Request<ApiEvent, RequestContextValue>): Promise<RequestParams | Response> => {
    // graphql-http reads a JSON array as an object without a query; REST calls it what it is.
    if (typeof req.body === 'string' && /^\s*\[/.test(req.body)) throw new ApiError('invalid_json', 'The request body must be a JSON object.');
    const params = await parseRequestParams(req);
    if (isResponse(params)) {
      // The library's 405 or 415 has no body: ours carries the error in GraphQL's format.
      const status = params[1].status;
      return errorResponse(
        status === 405 ? new ApiError('method_not_allowed', 'POST a JSON body to /v1/graphql.', { Allow: 'POST' }) : new ApiError('invalid_content_type'),
        requestId,
        baseUrl,
      );
    }
    if (params.query.length > LIMITS.graphqlQueryMaxLength) {
      throw new ApiError('invalid_field', `query is longer than ${LIMITS.graphqlQueryMaxLength} characters.`);
    }
    return params;
  };
}

/** Our checks in order; the operation to run, or the errors that refuse it. */
function prepare(schema: GraphQLSchema, params: RequestParams, context: GraphqlContext): OperationArgs<GraphqlContext> | readonly GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(params.query);
  } catch (error) {
    if (error instanceof GraphQLError) return [withCode(error, 'graphql_syntax_error')];
    // The parser recurses per nesting level: a query nested thousands deep overflows it.
    if (error instanceof RangeError) return [codedError('graphql_query_too_deep', `The query nests selections more than ${LIMITS.graphqlMaxDepth} levels deep.`)];
    throw error;
  }
  const variables = params.variables ?? {};
  const limited = checkQueryLimits(schema, document, variables, context.auth.environment);
  if (limited.length) return limited;
  const invalid = validate(schema, document, specifiedRules);
  if (invalid.length) return invalid.map((e) => withCode(e, 'graphql_validation_failed'));
  const operation = getOperationAST(document, params.operationName);
  if (!operation) {
    const message = params.operationName ? `The document has no operation named ${params.operationName}.` : 'The document has several operations: name the one to run in operationName.';
    return [codedError('graphql_validation_failed', message)];
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 20 });
  if (coerced.errors) return coerced.errors.map((e) => withCode(e, 'graphql_validation_failed'));
  return { schema, document, operationName: params.operationName, variableValues: coerced.coerced, contextValue: context };
}

/** Answers one POST /v1/graphql. */
export async function serveGraphql(call: GraphqlHttpCall): Promise<RenderedResponse> {
  const schema = graphqlSchema();
  const context = createGraphqlContext({ deps: call.deps, auth: call.auth, requestId: call.requestId });
  const handler = createHandler<ApiEvent, RequestContextValue, GraphqlContext>({
    schema,
    parseRequestParams: readParamsFor(call.requestId, call.baseUrl),
    onSubscribe: (_req, params) => prepare(schema, params, context),
    formatError: formatErrorFor(call.requestId, call.baseUrl),
  });
  const { event } = call;
  const query = event.queryStringParameters ? `?${new URLSearchParams(event.queryStringParameters as Record<string, string>).toString()}` : '';
  const [body, init] = await handler({
    method: event.httpMethod,
    url: `${event.path}${query}`,
    headers: {
      get: (name: string) => {
        const value = headerOf(event, name.toLowerCase()) ?? null;
        return name.toLowerCase() === 'accept' && value !== null && !acceptable(value) ? null : value;
      },
    },
    body: call.body,
    raw: event,
    context: {},
  });
  // Every answer of the library that has no body was replaced above (readParamsFor, Accept): this is a safety net.
  const [rendered, { status, headers }] = body === null ? errorResponse(new ApiError('internal_error'), call.requestId, call.baseUrl) : [body, init];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (typeof value === 'string') out[canonicalHeaderName(name)] = value;
  return { statusCode: status, headers: out, body: rendered ?? '' };
}
