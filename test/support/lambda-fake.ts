// A loopback stand-in for Lambda's Invoke API, shaped from its documentation: `POST
// /2015-03-31/functions/{FunctionName}/invocations` with the event as the body, the function's answer
// as HTTP 200, a function that throws as HTTP 200 with `X-Amz-Function-Error: Unhandled` and the
// runtime's `{ errorType, errorMessage, trace }`, an unknown function as 404
// ResourceNotFoundException (`x-amzn-errortype`), and throttling as 429 TooManyRequestsException
// when asked to (`throttleNext`). Each named function runs a handler module in this process. Two
// failures that come after the function ran can be asked for (`failNextAfterRun`): a 500
// ServiceException, or the connection reset before any answer.
import type { Context } from 'aws-lambda';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface Invocation {
  functionName: string;
  headers: IncomingMessage['headers'];
  payload: unknown;
}

export interface LambdaFake {
  endpoint: string;
  invocations: Invocation[];
  /** The next `count` invocations are refused with 429, as Lambda does past its concurrency. */
  throttleNext(count: number): void;
  /** The next invocation runs the function, then answers 500 ServiceException or drops the connection. */
  failNextAfterRun(kind: 'service-exception' | 'connection-reset'): void;
  close(): Promise<void>;
}

function context(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: `req-${Math.random().toString(36).slice(2)}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'fake',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export async function startLambdaFake(functions: ReadonlyMap<string, FakeLambdaHandler>): Promise<LambdaFake> {
  const invocations: Invocation[] = [];
  let throttled = 0;
  let failAfterRun: 'service-exception' | 'connection-reset' | undefined;
  const restError = (res: ServerResponse, status: number, type: string, message: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type, 'x-amzn-requestid': 'fake' }).end(JSON.stringify({ Type: 'User', message }));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', (): void => {
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) return restError(res, 404, 'UnknownOperationException', `no such operation ${req.method} ${req.url}`);
      const functionName = decodeURIComponent(match[1]);
      if (throttled > 0) {
        throttled -= 1;
        return restError(res, 429, 'TooManyRequestsException', 'Rate Exceeded.');
      }
      const handler = functions.get(functionName);
      if (!handler) return restError(res, 404, 'ResourceNotFoundException', `Function not found: arn:aws:lambda:us-east-1:000000000000:function:${functionName}`);
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return restError(res, 400, 'InvalidRequestContentException', 'Could not parse request body into json');
      }
      invocations.push({ functionName, headers: req.headers, payload });
      const failure = failAfterRun;
      failAfterRun = undefined;
      void handler(payload, context(functionName)).then(
        (answer) =>
          failure === 'connection-reset'
            ? req.socket.destroy()
            : failure === 'service-exception'
              ? restError(res, 500, 'ServiceException', 'An internal error occurred.')
              : res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' }).end(JSON.stringify(answer ?? null)),
        (err: Error) =>
          res
            .writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled', 'x-amz-executed-version': '$LATEST' })
            .end(JSON.stringify({ errorType: err.name, errorMessage: err.message, trace: [] })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    invocations,
    throttleNext: (count) => {
      throttled = count;
    },
    failNextAfterRun: (kind) => {
      failAfterRun = kind;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
