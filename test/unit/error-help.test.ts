// Every error answer helps: it points at its code's entry in the error catalogue page under the
// request's own base URL (documentation_url), and carries a sentence an end user may be shown, or
// null where the error is the integration's to fix (display_message). Checked over every code of
// the catalogue, through the real middlewares, in each format an error is answered in.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { ApiError, ERRORS, displayMessageOf, publicErrorCodes, type ErrorCode, type ErrorEnvelope } from '../../functions/contracts/errors';
import { graphqlQuery, mcpCall } from '../../functions/contracts/routes';
import { errorEnvelope, requestContext, type RequestInternal } from '../../functions/platform/middleware';
import type { Deps, RuntimeConfig } from '../../functions/platform/runtime';
import { plaidErrorBody } from '../../functions/core/plaid/errors';
import { gatewayResponseTemplate } from '../../lib/gateway-responses';

const ALL_CODES = Object.keys(ERRORS) as ErrorCode[];
const context = { functionName: 'error-help', awsRequestId: 'error-help', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

function depsFor(config: Partial<RuntimeConfig>): () => Deps {
  return () => ({ config: { tableName: 't', stage: 'sandbox', region: 'us-east-1', ...config } }) as Deps;
}

function eventAt(domainName: string, stage: string, headers: Record<string, string> = {}): APIGatewayProxyEvent {
  return { httpMethod: 'POST', path: '/v1/anything', headers, requestContext: { requestId: 'req_help', domainName, stage } } as unknown as APIGatewayProxyEvent;
}

/** The real middlewares around a handler that fails with `code`, as a route's function runs them. */
function failingWith(code: ErrorCode, deps: () => Deps, route: Parameters<typeof errorEnvelope>[0] = null) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context, RequestInternal>(
    async () => {
      throw new ApiError(code);
    },
    { timeoutEarlyInMillis: 0 },
  )
    .use(requestContext(route))
    .use(errorEnvelope(route, undefined, deps));
}

/** A sentence for a person: capitalised, ends with a full stop, and no `snake_case` identifier, field name or key prefix. */
const END_USER_SENTENCE = /^[A-Z][^_`{}]*[.!?]$/;

describe('documentation_url and display_message on every error', () => {
  const execute = { domain: 'abc123.execute-api.eu-west-1.amazonaws.com', stage: 'sandbox', base: 'https://abc123.execute-api.eu-west-1.amazonaws.com/sandbox' };

  it.each(ALL_CODES)('%s: the REST envelope points at its entry under the base URL the request reached', async (code) => {
    const res = await failingWith(code, depsFor({}))(eventAt(execute.domain, execute.stage), context);
    const { error } = JSON.parse(res.body) as ErrorEnvelope;
    // The spec's four fields stay as they were; the two new ones are added.
    expect(Object.keys(error)).toEqual(['type', 'code', 'message', 'request_id', 'documentation_url', 'display_message']);
    expect(error).toMatchObject({ code, type: ERRORS[code].type, request_id: 'req_help' });
    expect(error.documentation_url).toBe(`${execute.base}/docs/errors#${code}`);
    expect(error.display_message === null || END_USER_SENTENCE.test(error.display_message)).toBe(true);
  });

  it('takes the configured base URL (a custom domain) over the request, as every absolute URL of the API does', async () => {
    const res = await failingWith('invalid_field', depsFor({ baseUrl: 'https://api.fincore.example/' }))(eventAt(execute.domain, execute.stage), context);
    expect(JSON.parse(res.body).error.documentation_url).toBe('https://api.fincore.example/docs/errors#invalid_field');
  });

  it('still answers with a documentation link when the runtime cannot be configured', async () => {
    const broken = () => {
      throw new Error('FC_TABLE_NAME is required');
    };
    const res = await failingWith('route_not_found', broken)(eventAt(execute.domain, execute.stage), context);
    expect(JSON.parse(res.body).error.documentation_url).toBe(`${execute.base}/docs/errors#route_not_found`);
  });

  it('shows the end user something for what is theirs to act on, and nothing for integration mistakes', () => {
    for (const code of ['invalid_credentials', 'item_login_required', 'item_locked', 'provider_error', 'rate_limit_exceeded', 'link_token_expired'] as const) {
      expect(displayMessageOf(code)).toMatch(END_USER_SENTENCE);
    }
    expect(displayMessageOf('rate_limit_exceeded')).toMatch(/try again shortly/i);
    for (const code of ['missing_field', 'invalid_field', 'unknown_field', 'invalid_api_key', 'missing_api_key', 'route_not_found', 'invalid_access_token'] as const) {
      expect(displayMessageOf(code)).toBeNull();
    }
  });

  it.each(ALL_CODES)('%s: GraphQL extensions and JSON-RPC error data carry the same two fields', async (code) => {
    const graphql = await failingWith(code, depsFor({}), graphqlQuery)(eventAt(execute.domain, execute.stage), context);
    const [extensions] = (JSON.parse(graphql.body) as { errors: { extensions: Record<string, unknown> }[] }).errors.map((e) => e.extensions);
    expect(extensions).toMatchObject({ code, documentation_url: `${execute.base}/docs/errors#${code}`, display_message: displayMessageOf(code) });
    const mcp = await failingWith(code, depsFor({}), mcpCall)(eventAt(execute.domain, execute.stage), context);
    expect((JSON.parse(mcp.body) as { error: { data: Record<string, unknown> } }).error.data).toMatchObject({
      code,
      documentation_url: `${execute.base}/docs/errors#${code}`,
      display_message: displayMessageOf(code),
    });
  });

  it.each(publicErrorCodes())("%s: Plaid's error object fills its own documentation_url and display_message the same way", (code) => {
    const body = plaidErrorBody(new ApiError(code), 'req_help', execute.base);
    expect(body.documentation_url).toBe(`${execute.base}/docs/errors#${code}`);
    expect(body.display_message).toBe(displayMessageOf(code));
  });

  it.each(ALL_CODES)('%s: the API Gateway template renders the same envelope', (code) => {
    const rendered = gatewayResponseTemplate({ code })
      .replace('$context.requestId', 'req_gw')
      .replace('$context.domainName', execute.domain)
      .replace('$context.stage', execute.stage);
    expect(JSON.parse(rendered)).toEqual({
      error: {
        type: ERRORS[code].type,
        code,
        message: ERRORS[code].message,
        request_id: 'req_gw',
        documentation_url: `${execute.base}/docs/errors#${code}`,
        display_message: displayMessageOf(code),
      },
    });
    // With a custom domain the stage's fixed base URL is written in.
    expect(JSON.parse(gatewayResponseTemplate({ code }, 'https://api.fincore.example').replace('$context.requestId', 'r')).error.documentation_url).toBe(
      `https://api.fincore.example/docs/errors#${code}`,
    );
  });
});
