// AWS Lambda's Invoke API (REST-JSON): `POST /2015-03-31/functions/{FunctionName}/invocations` on
// `lambda.<region>.amazonaws.com`, signed for `lambda`, the payload as the body and the function's
// return value as the answer. Only the synchronous form (RequestResponse) is used: the MCP server
// hands a tool call to that tool's route function and waits for its answer (route-functions.ts).
//
// A function that throws still answers HTTP 200: Lambda marks it with `X-Amz-Function-Error` and the
// body is the runtime's `{ errorType, errorMessage, trace }`. Callers tell their own answers apart
// by shape (route-functions.ts checks its outcome marker), so the header is not read here.
import { callAws, encodePathLabel, regionalEndpoint, withMiddlewares, type AwsEndpointOptions, type AwsMiddleware, type AwsOutput, type AwsServiceError } from './aws-request';

const SERVICE = { serviceName: 'Lambda', signingName: 'lambda', endpointPrefix: 'lambda' } as const;

export interface InvokeInput {
  /** The function's name, ARN or partial ARN; it goes in the path. */
  FunctionName: string;
  /** The event, as JSON text (at most 6 MB for a synchronous invocation). */
  Payload: string;
}

export interface LambdaClient {
  use(middleware: AwsMiddleware): void;
  /** Invokes synchronously; resolves to the function's answer parsed as a JSON object. `signal` abandons the call. */
  invoke(input: InvokeInput, options?: { signal?: AbortSignal }): Promise<AwsOutput<Record<string, unknown>>>;
}

/**
 * The failures after which Lambda did not run the function (its throttling, an environment not
 * ready, no connection made): the only ones retried. Anything else (a 5xx, a connection lost after
 * the request was sent) may follow a run, and a tool such as exchange_public_token must not run twice.
 */
const NOT_RUN_CODES: ReadonlySet<string> = new Set(['TooManyRequestsException', 'EC2ThrottledException', 'ResourceNotReadyException']);
export const invokeRetryable = (failure: AwsServiceError): boolean =>
  NOT_RUN_CODES.has(failure.name) || (failure.name === 'NetworkingError' && failure.code === 'ECONNREFUSED');


export function createLambdaClient(options: AwsEndpointOptions): LambdaClient {
  const middlewares: AwsMiddleware[] = [];
  const endpoint = options.endpoint ?? regionalEndpoint(SERVICE.endpointPrefix, options.region);
  const callOptions: AwsEndpointOptions = { ...options, retryable: options.retryable ?? invokeRetryable };
  return {
    use(middleware) {
      middlewares.push(middleware);
    },
    async invoke(input, invokeOptions = {}) {
      const output = await withMiddlewares(middlewares, { serviceName: SERVICE.serviceName, operation: 'Invoke', input: { FunctionName: input.FunctionName } }, () =>
        callAws(
          { serviceName: SERVICE.serviceName, signingName: SERVICE.signingName, endpoint, options: callOptions },
          {
            method: 'POST',
            path: `/2015-03-31/functions/${encodePathLabel(input.FunctionName)}/invocations`,
            headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
            body: input.Payload,
            ...(invokeOptions.signal ? { signal: invokeOptions.signal } : {}),
          },
        ),
      );
      return output as AwsOutput<Record<string, unknown>>;
    },
  };
}
