// Structured logs (Powertools Logger) and metrics (Powertools Metrics, EMF). Secrets never reach a
// log line: handlers log no bodies or headers, and the formatter masks anything shaped like a key
// or token as a second line of defence.
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

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
