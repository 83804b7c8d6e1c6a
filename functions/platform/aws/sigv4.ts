// AWS Signature Version 4 for the requests our functions send (functions/platform/aws/aws-request.ts).
//
// Why our own: the AWS SDK's signer comes with the SDK's whole client stack (about 520 KB in every
// Lambda bundle, most of its module-load time), while the part we need is this page of node:crypto.
// The algorithm is AWS's documented one ("Create a signed AWS API request", IAM User Guide):
// canonical request -> string to sign -> HMAC chain of date, region, service. It covers what our
// calls send: a path without query string or a sorted query string, headers signed in full except
// the ones AWS never signs, the payload's SHA-256. test/unit/aws-sigv4.test.ts checks it, request by
// request, against the SDK's own signer (@smithy/signature-v4, a development dependency).
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Present for temporary credentials (a Lambda function's role). */
  sessionToken?: string;
}

export interface SignableRequest {
  method: string;
  /** Host header value (with the port when it is not the scheme's default). */
  host: string;
  /** The request path exactly as sent, already percent-encoded. */
  path: string;
  /** Query parameters, not encoded. */
  query?: Record<string, string>;
  /** Headers to send besides host, x-amz-date and x-amz-security-token (which signing adds). */
  headers: Record<string, string>;
  body: string | Uint8Array;
}

export interface SigningScope {
  /** The signing name: dynamodb, sqs, states, kms, secretsmanager, bedrock. */
  service: string;
  region: string;
  credentials: AwsCredentials;
  /** Signing time; tests pass a fixed one. */
  now: Date;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** Headers AWS's signers leave out: proxies and the HTTP stack may change them in flight. */
const UNSIGNED_HEADERS = new Set(['authorization', 'user-agent', 'x-amzn-trace-id', 'expect', 'connection', 'content-length', 'transfer-encoding']);

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, uppercase hex. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The canonical URI of every service but S3: the sent (already encoded) path, normalized and then
 * encoded once more, segment by segment.
 */
function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment.length === 0 || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const normalized = `/${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return normalized.split('/').map(encodeRfc3986).join('/');
}

function canonicalQuery(query: Record<string, string> | undefined): string {
  if (!query) return '';
  return Object.keys(query)
    .sort()
    .map((key) => `${encodeRfc3986(key)}=${encodeRfc3986(query[key])}`)
    .join('&');
}

/** `YYYYMMDDTHHMMSSZ` */
export function amzDate(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

const signingKeys = new Map<string, Buffer>();

/** The day's signing key, cached per credentials, day, region and service (AWS recommends reusing it). */
function signingKey(secretAccessKey: string, day: string, region: string, service: string): Buffer {
  const cacheKey = `${secretAccessKey}\n${day}\n${region}\n${service}`;
  let key = signingKeys.get(cacheKey);
  if (!key) {
    key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), service), 'aws4_request');
    if (signingKeys.size > 32) signingKeys.clear();
    signingKeys.set(cacheKey, key);
  }
  return key;
}

/**
 * The headers to send: the request's own plus host, x-amz-date, x-amz-security-token (temporary
 * credentials) and authorization.
 */
export function signRequest(request: SignableRequest, scope: SigningScope): Record<string, string> {
  const date = amzDate(scope.now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host = request.host;
  headers['x-amz-date'] = date;
  if (scope.credentials.sessionToken) headers['x-amz-security-token'] = scope.credentials.sessionToken;

  const signed = Object.keys(headers)
    .filter((name) => !UNSIGNED_HEADERS.has(name))
    .sort();
  const canonicalHeaders = signed.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = signed.join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.path),
    canonicalQuery(request.query),
    canonicalHeaders,
    signedHeaders,
    headers['x-amz-content-sha256'] ?? sha256Hex(request.body),
  ].join('\n');
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = [ALGORITHM, date, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(scope.credentials.secretAccessKey, day, scope.region, scope.service))
    .update(stringToSign)
    .digest('hex');
  headers.authorization = `${ALGORITHM} Credential=${scope.credentials.accessKeyId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
