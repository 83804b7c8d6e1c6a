// Our SigV4 signer against the AWS SDK's own (@smithy/signature-v4): the same request, credentials
// and time must give the same Authorization header, for every shape of request our clients send
// (JSON-protocol POSTs to /, Bedrock's encoded model path, Lambda's Invoke path, temporary credentials,
// query strings).
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { amzDate, signRequest, type AwsCredentials, type SignableRequest } from '../../functions/platform/aws/sigv4';

/** The hash constructor smithy's signer takes, over node:crypto. */
type SourceBytes = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceBytes): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceBytes) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceBytes) {
    this.hash.update(bytesOf(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

const NOW = new Date('2026-11-24T17:21:09.123Z');
const PERMANENT: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const TEMPORARY: AwsCredentials = { ...PERMANENT, accessKeyId: 'ASIAEXAMPLE', sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE//token+with/odd=chars' };

async function smithyAuthorization(request: SignableRequest, service: string, region: string, credentials: AwsCredentials): Promise<Record<string, string>> {
  const signer = new SignatureV4({ credentials, region, service, sha256: NodeSha256, uriEscapePath: true, applyChecksum: false });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'https:',
      hostname: request.host,
      path: request.path,
      query: request.query ?? {},
      headers: { ...request.headers, host: request.host },
      body: request.body,
    },
    { signingDate: NOW },
  );
  return signed.headers as Record<string, string>;
}

const CASES: Array<{ name: string; service: string; region: string; credentials: AwsCredentials; request: SignableRequest }> = [
  {
    name: 'DynamoDB GetItem (JSON 1.0), permanent credentials',
    service: 'dynamodb',
    region: 'us-east-1',
    credentials: PERMANENT,
    request: {
      method: 'POST',
      host: 'dynamodb.us-east-1.amazonaws.com',
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem' },
      body: JSON.stringify({ TableName: 'fincore-prod', Key: { pk: { S: 'ITEM#é ü' }, sk: { S: 'META' } } }),
    },
  },
  {
    name: 'KMS GenerateDataKey (JSON 1.1), temporary credentials',
    service: 'kms',
    region: 'eu-west-1',
    credentials: TEMPORARY,
    request: {
      method: 'POST',
      host: 'kms.eu-west-1.amazonaws.com',
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'TrentService.GenerateDataKey' },
      body: JSON.stringify({ KeyId: 'alias/fincore', KeySpec: 'AES_256', EncryptionContext: { purpose: 'webhook-secret' } }),
    },
  },
  {
    name: 'Step Functions StartExecution with a header value that needs trimming',
    service: 'states',
    region: 'ap-southeast-2',
    credentials: TEMPORARY,
    request: {
      method: 'POST',
      host: 'states.ap-southeast-2.amazonaws.com',
      path: '/',
      headers: { 'content-type': '  application/x-amz-json-1.0  ', 'x-amz-target': 'AWSStepFunctions.StartExecution' },
      body: '{"input":"{\\"a\\":1}"}',
    },
  },
  {
    name: 'Bedrock Converse: a model id with a colon, sent percent-encoded (double-encoded in the canonical URI)',
    service: 'bedrock',
    region: 'us-west-2',
    credentials: TEMPORARY,
    request: {
      method: 'POST',
      host: 'bedrock-runtime.us-west-2.amazonaws.com',
      path: `/model/${encodeURIComponent('anthropic.claude-3-haiku-20240307-v1:0')}/converse`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] }),
    },
  },
  {
    name: "Lambda Invoke: a function's name in the path, the invocation type in a signed header, temporary credentials",
    service: 'lambda',
    region: 'eu-central-1',
    credentials: TEMPORARY,
    request: {
      method: 'POST',
      host: 'lambda.eu-central-1.amazonaws.com',
      path: `/2015-03-31/functions/${encodeURIComponent('Fincore-production-ApiRoutesAIAiCategorizeFunction-AbC123')}/invocations`,
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
      body: JSON.stringify({ fincoreInlineCall: 1, routeId: 'ai.categorize', args: { transactions: [] } }),
    },
  },
  {
    name: 'a query string with characters to encode, on a local endpoint with a port',
    service: 'sqs',
    region: 'us-east-1',
    credentials: PERMANENT,
    request: {
      method: 'GET',
      host: '127.0.0.1:8000',
      path: '/queue/a b',
      query: { Action: 'ReceiveMessage', 'Attribute.1': 'All*', z: "it's (fine)!" },
      headers: {},
      body: '',
    },
  },
];

describe('SigV4 signing', () => {
  it.each(CASES)('matches the AWS SDK signer: $name', async ({ service, region, credentials, request }) => {
    const ours = signRequest(request, { service, region, credentials, now: NOW });
    const theirs = await smithyAuthorization(request, service, region, credentials);
    expect(ours.authorization).toBe(theirs.authorization);
    expect(ours['x-amz-date']).toBe(theirs['x-amz-date']);
    expect(ours['x-amz-security-token']).toBe(theirs['x-amz-security-token']);
  });

  it('changes the signature when any signed part changes', () => {
    const base = CASES[0];
    const sign = (request: SignableRequest, credentials = base.credentials, region = base.region) =>
      signRequest(request, { service: base.service, region, credentials, now: NOW }).authorization;
    const reference = sign(base.request);
    expect(sign({ ...base.request, body: `${base.request.body as string} ` })).not.toBe(reference);
    expect(sign({ ...base.request, headers: { ...base.request.headers, 'x-amz-target': 'DynamoDB_20120810.PutItem' } })).not.toBe(reference);
    expect(sign(base.request, { ...base.credentials, secretAccessKey: 'other' })).not.toBe(reference);
    expect(sign(base.request, base.credentials, 'us-east-2')).not.toBe(reference);
  });

  it('formats the signing time as AWS wants it', () => {
    expect(amzDate(NOW)).toBe('20261124T172109Z');
  });
});
