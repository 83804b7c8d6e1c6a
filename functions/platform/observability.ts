// Structured logs (Powertools Logger), metrics (Powertools Metrics, EMF) and traces (Powertools
// Tracer, X-Ray). Secrets never reach a log line: handlers log no bodies or headers, and the
// formatter masks anything shaped like a key or token as a second line of defence.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/** Matches every secret we mint: secret keys, access, public and link tokens, webhook secrets. */
export const SECRET_PATTERN = /(?:fc_(?:sk_(?:test|live)|at|pub|link)|whsec)_[A-Za-z0-9]+/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, (match) => `${match.slice(0, match.lastIndexOf('_') + 1)}[redacted]`);
}

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fincore',
  jsonReplacerFn: (_key: string, value: unknown) => (typeof value === 'string' ? redactSecrets(value) : value),
});

// Outside Lambda (local server, tests, benches) nothing reads EMF lines, so metrics stay off there.
export const metricsEnabled =
  Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) && process.env.POWERTOOLS_METRICS_DISABLED !== 'true';

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Fincore',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fincore',
});

/**
 * Every AWS SDK client is built through tracer.captureAWSv3Client, so DynamoDB, KMS, SQS and Step
 * Functions calls appear as subsegments of the function's trace. Outside Lambda (local server,
 * tests, benches) the tracer disables itself and hands clients back untouched.
 */
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fincore' });
