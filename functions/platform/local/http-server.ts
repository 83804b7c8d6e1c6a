// The local HTTP front door: turns each request into the API Gateway (REST, proxy) event that AWS
// would send, and calls the same handler module a Lambda runs. /api/v1/... is routed like /v1/...;
// a greedy route path (`/plaid/{proxy+}`) answers every path below its prefix, as its API Gateway
// proxy resource does, with the rest of the path as the `proxy` path parameter.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, envelope } from '../../contracts/errors';
import { ALIAS_PREFIX, ROUTES, aliasPaths, greedyPrefixOf, type Route } from '../../contracts/routes';
import { API_VERSION } from '../../contracts/schemas';
import { baseUrlOf } from '../middleware';
import { type LambdaHandler, type RouteHandler } from '../operation';
import { runtime, type RuntimeConfig } from '../runtime';

/** API Gateway's own payload limit; our middleware enforces the smaller API limit itself. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * The request line plus headers Node parses before giving up (Node's default, set here so the limit
 * is ours to see). Beyond it the client gets 431 request_header_fields_too_large from clientError.
 */
export const LOCAL_MAX_HEADER_BYTES = 16 * 1024;

export type HandlerTable = Map<string, LambdaHandler>;

/** Imports every route's handler module plus the fallback, as the Lambdas would. */
export function loadHandlers(): { handlers: HandlerTable; fallback: LambdaHandler } {
  const handlers: HandlerTable = new Map();
  for (const route of ROUTES) {
    // require, not import(): the same CommonJS resolution tsx, jest and the Lambda bundles use.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const mod = require(`../../api/${route.id}`) as { handler?: RouteHandler };
    if (typeof mod.handler !== 'function') throw new Error(`functions/api/${route.id}.ts does not export handler`);
    if (mod.handler.routeId !== route.id) throw new Error(`functions/api/${route.id}.ts defines the handler of ${mod.handler.routeId}`);
    handlers.set(route.id, mod.handler);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded like the route modules above
  const fallback = (require('../fallback') as { handler: LambdaHandler }).handler;
  return { handlers, fallback };
}

/** Every path a route answers at, its aliases included (`/api/v1/...`, `/api/mcp`), as API Gateway has them. */
const routeIndex = new Map<string, Route>(ROUTES.flatMap((r) => aliasPaths(r).map((path): [string, Route] => [`${r.method} ${path}`, r])));

/** The greedy routes (`/plaid/{proxy+}`) by the prefix below which they answer, longest first. */
const greedyRoutes = ROUTES.flatMap((r) =>
  aliasPaths(r).flatMap((path) => {
    const prefix = greedyPrefixOf(path);
    return prefix ? [{ prefix, route: r }] : [];
  }),
).sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * The greedy route a path falls under, whatever its method, and the path below its prefix (API
 * Gateway's `{proxy+}` needs at least one character there: the bare prefix is not under it).
 */
export function greedyMatch(path: string): { route: Route; proxy: string }[] {
  return greedyRoutes.filter(({ prefix }) => path.startsWith(prefix) && path.length > prefix.length).map(({ prefix, route }) => ({ route, proxy: path.slice(prefix.length) }));
}

/**
 * As API Gateway does: a path of fixed segments first, with a trailing slash reaching the route
 * without it (the event keeps the path as sent); then a greedy route the path falls under.
 */
export function matchRoute(method: string, path: string): Route | undefined {
  return (
    routeIndex.get(`${method} ${path}`) ??
    (path.length > 1 && path.endsWith('/') ? routeIndex.get(`${method} ${path.slice(0, -1)}`) : undefined) ??
    greedyMatch(path).find((m) => m.route.method === method)?.route
  );
}

/** A path parameter as API Gateway passes it: percent-decoded (as sent, when it does not decode). */
function decodedParameter(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function toEvent(req: IncomingMessage, body: string, route: Route | undefined, requestId: string): APIGatewayProxyEvent {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    headers[name] = req.rawHeaders[i + 1];
    (multiValueHeaders[name] ??= []).push(req.rawHeaders[i + 1]);
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  url.searchParams.forEach((value, key) => {
    query[key] = value;
    (multiQuery[key] ??= []).push(value);
  });
  const hasQuery = Object.keys(query).length > 0;
  const resource = route ? (url.pathname.startsWith(ALIAS_PREFIX) ? ALIAS_PREFIX + route.path : route.path) : '/{proxy+}';
  const greedy = route && greedyPrefixOf(route.path) ? greedyMatch(url.pathname).find((m) => m.route === route) : undefined;
  return {
    resource,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: greedy ? { proxy: decodedParameter(greedy.proxy) } : route ? null : { proxy: url.pathname.slice(1) },
    stageVariables: null,
    body: body === '' ? null : body,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      domainName: req.headers.host ?? 'localhost',
      httpMethod: req.method ?? 'GET',
      path: url.pathname,
      protocol: `HTTP/${req.httpVersion}`,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: resource,
      stage: 'local',
      identity: {
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
    },
  };
}

function lambdaContext(functionName: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * {base_url} of the answers this server writes itself, as a handler would derive it from the same
 * request (baseUrlOf); where there is no request to read (a parse error), the configured one or
 * the port the connection reached.
 */
function localBaseUrl(req: IncomingMessage | undefined, localPort: number | undefined): string {
  let configured: Pick<RuntimeConfig, 'baseUrl' | 'stage'> = { stage: 'local' };
  try {
    configured = runtime().config;
  } catch {
    // No runtime configured (a server started on its own, in a test): the request alone decides.
  }
  if (req) return baseUrlOf(toEvent(req, '', undefined, 'req_base_url'), { config: configured });
  return configured.baseUrl?.replace(/\/$/, '') ?? `http://localhost${localPort ? `:${localPort}` : ''}`;
}

function writeGatewayError(req: IncomingMessage, res: ServerResponse, err: ApiError): void {
  // What API Gateway's gateway responses answer before any Lambda runs (see lib/api-construct.ts).
  const requestId = `req_${randomUUID()}`;
  const body = JSON.stringify(envelope(err, requestId, localBaseUrl(req, req.socket.localPort)));
  res.writeHead(err.status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
    'FC-Version': API_VERSION,
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/** A parse error of Node's HTTP parser (llhttp): `code` names it, e.g. HPE_HEADER_OVERFLOW. */
type ClientError = Error & { code?: string };

/**
 * The answer to a request Node could not parse (headers over LOCAL_MAX_HEADER_BYTES, a NUL or other
 * forbidden byte in a header, a malformed request line): the JSON envelope with a request id, like
 * every other answer, instead of Node's bare status line. Written straight to the socket, since no
 * request object exists, and the connection is closed: after a parse error the rest of the stream
 * cannot be trusted to start a new request.
 */
function answerClientError(err: ClientError, socket: Duplex): void {
  // As Node's own default: nothing to answer on a reset or closed socket, nor in the middle of a
  // response already under way on this connection (its internal _httpMessage).
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  // A client that stalls past headersTimeout or requestTimeout gets no envelope: the catalogue has
  // no 408, and the client has stopped talking anyway.
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy();
    return;
  }
  const apiError =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('request_header_fields_too_large', `The request line and headers are larger than ${LOCAL_MAX_HEADER_BYTES} bytes.`)
      : new ApiError('request_rejected', `The request is not well-formed HTTP (${err.code ?? 'parse error'}); headers may not contain control characters such as NUL.`);
  const requestId = `req_${randomUUID()}`;
  const body = JSON.stringify(envelope(apiError, requestId, localBaseUrl(undefined, (socket as Duplex & { localPort?: number }).localPort)));
  const head = [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? ''}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    `FC-Version: ${API_VERSION}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/**
 * How long a client has to send a whole request (headers, then body) before the connection is
 * dropped: a stalled client holds a connection this long at most (Node's default is 5 minutes).
 * Generous for the largest body (6 MB) over loopback; the handler's own time does not count.
 */
export const LOCAL_REQUEST_TIMEOUT_MS = 30_000;
export const LOCAL_HEADERS_TIMEOUT_MS = 10_000;

export function createLocalServer(table: { handlers: HandlerTable; fallback: LambdaHandler }): Server {
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) {
        // API Gateway's own limit, before any route's (most routes take 1 MiB, uploads about 6 MB).
        return writeGatewayError(req, res, new ApiError('request_too_large', `The request body is larger than the ${GATEWAY_MAX_BODY_BYTES} bytes API Gateway accepts.`));
      }
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      const route = matchRoute(req.method ?? 'GET', path);
      const handler = route ? table.handlers.get(route.id)! : table.fallback;
      const requestId = `req_${randomUUID()}`;
      const event = toEvent(req, Buffer.concat(chunks).toString('utf8'), route, requestId);
      handler(event, lambdaContext(route?.id ?? 'fallback', requestId))
        .then((result) => {
          const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
          // multiValueHeaders carries what must be sent as several headers (Set-Cookie), as API Gateway sends it.
          const multi = Object.fromEntries(Object.entries(result.multiValueHeaders ?? {}).map(([name, values]) => [name, values.map(String)]));
          res.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), ...multi, 'Content-Length': String(body.length) });
          res.end(body);
        })
        .catch(() => writeGatewayError(req, res, new ApiError('internal_error')));
    });
    req.on('error', () => res.destroy());
  };
  const server = createServer(
    // The timeouts are checked every connectionsCheckingInterval (Node's default: 30 s).
    { maxHeaderSize: LOCAL_MAX_HEADER_BYTES, requestTimeout: LOCAL_REQUEST_TIMEOUT_MS, headersTimeout: LOCAL_HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 2_000 },
    onRequest,
  );
  server.on('clientError', answerClientError);
  // An Expect header other than 100-continue: refused with the envelope (400 request_rejected, as
  // other malformed HTTP is), where Node would answer a bare 417 without one.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Connection', 'close');
    writeGatewayError(req, res, new ApiError('request_rejected', `The Expect header may only be 100-continue (got ${JSON.stringify(String(req.headers.expect).slice(0, 40))}).`));
  });
  server.keepAliveTimeout = 5_000;
  return server;
}
