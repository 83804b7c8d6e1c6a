// Errors API Gateway answers by itself (no Lambda ran) still use our envelope, the FC-Version header
// and the request id. Codes and messages come from the one error catalogue.
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { ERRORS, displayMessageOf, documentationUrlOf, statusOf, type ErrorCode } from '../functions/contracts/errors';
import { API_VERSION } from '../functions/contracts/schemas';

export interface GatewayResponseSpec {
  type: apigw.ResponseType;
  code: ErrorCode;
  /** Overrides API Gateway's status; omitted for the DEFAULT_* catch-alls so their own status stays. */
  status?: number;
  /** Use API Gateway's own message (already JSON-quoted) instead of the catalogue's. */
  gatewayMessage?: boolean;
  extraHeaders?: Record<string, string>;
}

export const GATEWAY_RESPONSES: readonly GatewayResponseSpec[] = [
  // No resource or method matched (the greedy proxy and ANY methods make this rare).
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, code: 'route_not_found', status: statusOf('route_not_found') },
  { type: apigw.ResponseType.RESOURCE_NOT_FOUND, code: 'route_not_found', status: statusOf('route_not_found') },
  // Stage throttling (per-key limits answer 429 from the handler with exact headers).
  {
    type: apigw.ResponseType.THROTTLED,
    code: 'rate_limit_exceeded',
    status: statusOf('rate_limit_exceeded'),
    extraHeaders: { 'Retry-After': "'1'" },
  },
  { type: apigw.ResponseType.REQUEST_TOO_LARGE, code: 'request_too_large', status: statusOf('request_too_large') },
  { type: apigw.ResponseType.UNSUPPORTED_MEDIA_TYPE, code: 'invalid_content_type', status: statusOf('invalid_content_type') },
  // Everything else: no authorizer, usage plan, resource policy, WAF or gateway validator is in use,
  // so a 4xx here is unusual; the gateway's own message says what happened.
  { type: apigw.ResponseType.DEFAULT_4XX, code: 'request_rejected', gatewayMessage: true },
  // Integration failures and timeouts are ours: the generic 500 body, whatever status the gateway picked.
  { type: apigw.ResponseType.DEFAULT_5XX, code: 'internal_error' },
];

/**
 * {base_url} as the template can know it: the custom domain when the stage has one (FC_BASE_URL, which
 * the functions' baseUrlOf prefers too), else the execute-api domain and stage the request reached,
 * which is what baseUrlOf derives there.
 */
export const GATEWAY_BASE_URL_EXPRESSION = 'https://$context.domainName/$context.stage';

/**
 * The body: our envelope, documentation_url and display_message included. A code's anchor (`#code`)
 * is no Velocity directive, so the template engine leaves it as written.
 */
export function gatewayResponseTemplate(spec: Pick<GatewayResponseSpec, 'code' | 'gatewayMessage'>, baseUrl: string = GATEWAY_BASE_URL_EXPRESSION): string {
  const def = ERRORS[spec.code];
  const message = spec.gatewayMessage ? '$context.error.messageString' : JSON.stringify(def.message);
  return (
    `{"error":{"type":${JSON.stringify(def.type)},"code":${JSON.stringify(spec.code)},` +
    `"message":${message},"request_id":"$context.requestId",` +
    `"documentation_url":${JSON.stringify(documentationUrlOf(spec.code, baseUrl))},"display_message":${JSON.stringify(displayMessageOf(spec.code))}}}`
  );
}

/** `baseUrl`: the stage's fixed {base_url} when it has one (a custom domain); otherwise the request's. */
export function addGatewayResponses(api: apigw.RestApi, baseUrl?: string): void {
  for (const spec of GATEWAY_RESPONSES) {
    api.addGatewayResponse(spec.type.responseType, {
      type: spec.type,
      statusCode: spec.status === undefined ? undefined : String(spec.status),
      responseHeaders: {
        'FC-Version': `'${API_VERSION}'`,
        'X-Request-Id': 'context.requestId',
        ...spec.extraHeaders,
      },
      templates: { 'application/json': gatewayResponseTemplate(spec, baseUrl) },
    });
  }
}
