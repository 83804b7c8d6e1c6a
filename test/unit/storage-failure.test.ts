// One classifier decides whether an error means storage is unavailable (503 storage_unavailable)
// rather than a bug (500): the shapes the AWS SDK throws for DynamoDB failures.
import { storageFailureOf } from '../../functions/platform/middleware';

/** What the AWS SDK v3 throws for a service error: name from the error type, $metadata with the status. */
function serviceError(name: string, message: string, httpStatusCode: number): Error {
  return Object.assign(new Error(message), { name, $fault: httpStatusCode >= 500 ? 'server' : 'client', $metadata: { httpStatusCode, attempts: 3 } });
}

/** What it throws when the connection fails: Node's error with its code, plus $metadata from the retry layer. */
function networkError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code, errno: -111, $metadata: { attempts: 3, totalRetryDelay: 40 } });
}

describe('storageFailureOf', () => {
  it('names connection failures from the SDK', () => {
    expect(storageFailureOf(networkError('ECONNREFUSED'))).toBe('connection refused');
    expect(storageFailureOf(networkError('ECONNRESET'))).toBe('connection reset');
    expect(storageFailureOf(networkError('ETIMEDOUT'))).toBe('connection timed out');
    expect(storageFailureOf(Object.assign(new Error('socket hang up'), { $metadata: {}, cause: { code: 'ECONNRESET' } }))).toBe('connection reset');
    // The SDK's wrapper for an error it could not recognise keeps only the message.
    expect(storageFailureOf(Object.assign(new Error('AWS SDK error wrapper for Error: connect ECONNREFUSED 127.0.0.1:8000'), { $metadata: { attempts: 3 } }))).toBe(
      'connection refused',
    );
  });

  it('finds a refused connection inside an AggregateError (one attempt per address)', () => {
    const aggregate = Object.assign(new AggregateError([networkError('ECONNREFUSED'), networkError('ECONNREFUSED')], ''), { code: 'ECONNREFUSED', $metadata: {} });
    expect(storageFailureOf(aggregate)).toBe('connection refused');
  });

  it("recognises DynamoDB Local's disk-full 500 (SQLite's SQLITE_FULL) and ENOSPC", () => {
    expect(
      storageFailureOf(
        serviceError('InternalFailure', 'The request processing has failed because of an unknown error, exception or failure. [SQLITE_FULL] database or disk is full', 500),
      ),
    ).toBe('disk full');
    expect(storageFailureOf(serviceError('InternalServerError', 'database or disk is full', 500))).toBe('disk full');
    expect(storageFailureOf(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe('disk full');
  });

  it('treats server-side and throttling failures of the service as unavailable', () => {
    expect(storageFailureOf(serviceError('InternalServerError', 'Internal server error', 500))).toBe('storage service error');
    expect(storageFailureOf(serviceError('ServiceUnavailable', 'unavailable', 503))).toBe('storage service error');
    expect(storageFailureOf(serviceError('ProvisionedThroughputExceededException', 'slow down', 400))).toBe('throttled');
  });

  it('leaves our own mistakes and non-SDK errors alone (they stay 500)', () => {
    expect(storageFailureOf(serviceError('ValidationException', 'One or more parameter values were invalid', 400))).toBeNull();
    expect(storageFailureOf(serviceError('ConditionalCheckFailedException', 'The conditional request failed', 400))).toBeNull();
    expect(storageFailureOf(new TypeError("Cannot read properties of undefined (reading 'pk')"))).toBeNull();
    // A refused connection that did not come from the SDK (say, a webhook receiver) is not storage.
    expect(storageFailureOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeNull();
    expect(storageFailureOf('a string')).toBeNull();
    expect(storageFailureOf(undefined)).toBeNull();
  });
});
