// A client for one service's AWS JSON protocol (1.0 or 1.1): POST / with
// `X-Amz-Target: <targetPrefix>.<Operation>` and the operation's input as the JSON body. Services
// and their protocol facts are in SERVICES; aws-request.ts does signing, retries and errors.
import { callAws, regionalEndpoint, withMiddlewares, type AwsEndpointOptions, type AwsMiddleware, type AwsOutput } from './aws-request';

export interface JsonService {
  /** Name in traces and errors (the SDK client's name without "Client"). */
  serviceName: string;
  signingName: string;
  endpointPrefix: string;
  jsonVersion: '1.0' | '1.1';
  targetPrefix: string;
}

/** The JSON-protocol services our functions call (from each service's API model). */
export const SERVICES = {
  dynamodb: { serviceName: 'DynamoDB', signingName: 'dynamodb', endpointPrefix: 'dynamodb', jsonVersion: '1.0', targetPrefix: 'DynamoDB_20120810' },
  sqs: { serviceName: 'SQS', signingName: 'sqs', endpointPrefix: 'sqs', jsonVersion: '1.0', targetPrefix: 'AmazonSQS' },
  sfn: { serviceName: 'SFN', signingName: 'states', endpointPrefix: 'states', jsonVersion: '1.0', targetPrefix: 'AWSStepFunctions' },
  kms: { serviceName: 'KMS', signingName: 'kms', endpointPrefix: 'kms', jsonVersion: '1.1', targetPrefix: 'TrentService' },
  secretsManager: { serviceName: 'SecretsManager', signingName: 'secretsmanager', endpointPrefix: 'secretsmanager', jsonVersion: '1.1', targetPrefix: 'secretsmanager' },
} as const satisfies Record<string, JsonService>;

export interface AwsJsonClient {
  readonly service: JsonService;
  /** Adds a middleware around every later call (outermost first). */
  use(middleware: AwsMiddleware): void;
  call<TOutput extends object = Record<string, unknown>>(operation: string, input: object): Promise<AwsOutput<TOutput>>;
}

export function createAwsJsonClient(service: JsonService, options: AwsEndpointOptions): AwsJsonClient {
  const middlewares: AwsMiddleware[] = [];
  const endpoint = options.endpoint ?? regionalEndpoint(service.endpointPrefix, options.region);
  const contentType = `application/x-amz-json-${service.jsonVersion}`;
  return {
    service,
    use(middleware) {
      middlewares.push(middleware);
    },
    async call<TOutput extends object>(operation: string, input: object) {
      const output = await withMiddlewares(middlewares, { serviceName: service.serviceName, operation, input }, () =>
        callAws(
          { serviceName: service.serviceName, signingName: service.signingName, endpoint, options },
          {
            method: 'POST',
            path: '/',
            headers: { 'content-type': contentType, 'x-amz-target': `${service.targetPrefix}.${operation}` },
            body: JSON.stringify(input),
          },
        ),
      );
      return output as AwsOutput<TOutput>;
    },
  };
}
