// An API Gateway REST proxy event as API Gateway (and the local server) hands it to a handler, for
// tests that invoke handler modules directly.
import type { APIGatewayProxyEvent } from 'aws-lambda';

export interface ApiEventInit {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Sent as JSON with `Content-Type: application/json`. */
  body?: unknown;
  headers?: Record<string, string>;
  requestId?: string;
}

export function apiEvent(method: string, path: string, init: ApiEventInit = {}): APIGatewayProxyEvent {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.Authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return {
    resource: path,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: init.body === undefined ? null : JSON.stringify(init.body),
    isBase64Encoded: false,
    requestContext: { requestId: init.requestId ?? `req_${Math.random().toString(36).slice(2)}`, stage: 'local', domainName: 'localhost' },
  } as unknown as APIGatewayProxyEvent;
}
