// The model port's adapters against loopback endpoints, without the network: the Bedrock adapter
// sends the request the Converse API defines (REST-JSON, SigV4-signed for `bedrock`, seen on the
// wire) and reads its answer; both adapters turn a slow, failing or non-JSON answer into a
// rejection the AI routes fall back on. Also: which adapter the environment picks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AI_MODEL_ENVIRONMENT } from '../../functions/contracts/stages';
import { converseInput, createBedrockModel } from '../../functions/platform/model-bedrock';
import { modelFromEnvironment } from '../../functions/platform/model-environment';
import { createOpenAiCompatibleModel } from '../../functions/platform/model-openai';
import { parseModelJson, type ModelRequest } from '../../functions/platform/model-port';

interface Captured {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

type Answer = { status: number; body: string; headers?: Record<string, string> } | 'hang';

/** A loopback HTTP/1.1 server answering each request with `answer` (or never, for 'hang'), recording it. */
async function loopback(answer: (req: Captured) => Answer) {
  const captured: Captured[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      captured.push(request);
      const out = answer(request);
      if (out === 'hang') return;
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
      res.end(out.body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    captured,
    /** Resolves once no client connection is open any more. */
    allClosed: async () => {
      while (sockets.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const REQUEST: ModelRequest = { instructions: 'Rewrite the texts. Answer JSON.', input: { texts: { '/summary': 'You spent 10.00 USD.' } }, maxOutputTokens: 321 };
const MODEL_ID = 'amazon.nova-micro-v1:0';
const CREDENTIALS = { accessKeyId: 'AKIDREHEARSAL', secretAccessKey: 'not-a-secret' };
const converseAnswer = (text: string) =>
  JSON.stringify({
    output: { message: { role: 'assistant', content: [{ text }] } },
    stopReason: 'end_turn',
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    metrics: { latencyMs: 12 },
  });
const never = () => new AbortController().signal;

describe('the Bedrock adapter', () => {
  it('sends a signed Converse request of the API\'s shape and parses the JSON the model wrote', async () => {
    const server = await loopback(() => ({ status: 200, body: converseAnswer('```json\n{"texts": {"/summary": "You spent 10.00 USD in all."}}\n```') }));
    try {
      const model = createBedrockModel({ modelId: MODEL_ID, region: 'eu-west-1', clientConfig: { endpoint: server.url, credentials: CREDENTIALS } });
      expect(model.name).toBe(MODEL_ID);
      await expect(model.refine(REQUEST, never())).resolves.toEqual({ texts: { '/summary': 'You spent 10.00 USD in all.' } });
      const [sent] = server.captured;
      expect(sent.method).toBe('POST');
      expect(sent.url).toBe(`/model/${encodeURIComponent(MODEL_ID)}/converse`);
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${CREDENTIALS.accessKeyId}/\\d{8}/eu-west-1/bedrock/aws4_request, SignedHeaders=`));
      const { modelId: _inPath, ...bodyFields } = converseInput(MODEL_ID, REQUEST);
      expect(JSON.parse(sent.body)).toEqual(bodyFields);
      expect(JSON.parse(sent.body)).toEqual({
        system: [{ text: REQUEST.instructions }],
        messages: [{ role: 'user', content: [{ text: JSON.stringify(REQUEST.input) }] }],
        inferenceConfig: { maxTokens: 321, temperature: 0 },
      });
    } finally {
      await server.close();
    }
  });

  it('rejects on a service error, on text that is not JSON, and when the caller\'s signal or its own timeout fires', async () => {
    const error = await loopback(() => ({ status: 400, body: JSON.stringify({ message: 'model not enabled' }), headers: { 'x-amzn-errortype': 'AccessDeniedException' } }));
    const prose = await loopback(() => ({ status: 200, body: converseAnswer('I cannot help with that.') }));
    const hang = await loopback(() => 'hang');
    try {
      const on = (url: string, timeoutMs?: number) => createBedrockModel({ modelId: MODEL_ID, region: 'us-east-1', timeoutMs, clientConfig: { endpoint: url, credentials: CREDENTIALS } });
      await expect(on(error.url).refine(REQUEST, never())).rejects.toMatchObject({ name: 'ModelUnavailableError' });
      await expect(on(prose.url).refine(REQUEST, never())).rejects.toMatchObject({ name: 'ModelOutputError' });
      await expect(on(hang.url, 100).refine(REQUEST, never())).rejects.toMatchObject({ name: 'ModelUnavailableError' });
      const aborted = new AbortController();
      const pending = on(hang.url, 60_000).refine(REQUEST, aborted.signal);
      aborted.abort();
      await expect(pending).rejects.toMatchObject({ name: 'ModelUnavailableError' });
      // The requests are abandoned, not left waiting on the connection.
      await hang.allClosed();
    } finally {
      await Promise.all([error.close(), prose.close(), hang.close()]);
    }
  });

  it('surfaces throttling as the model being unavailable, with Bedrock\'s error as the cause, after one attempt', async () => {
    const throttled = await loopback(() => ({
      status: 429,
      body: JSON.stringify({ message: 'Too many requests, please wait before trying again.' }),
      headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
    }));
    try {
      const model = createBedrockModel({ modelId: MODEL_ID, region: 'us-east-1', clientConfig: { endpoint: throttled.url, credentials: CREDENTIALS } });
      const failure = await model.refine(REQUEST, never()).catch((err: unknown) => err);
      expect(failure).toMatchObject({ name: 'ModelUnavailableError', message: 'Too many requests, please wait before trying again.' });
      expect((failure as Error).cause).toMatchObject({ name: 'ThrottlingException', $metadata: expect.objectContaining({ httpStatusCode: 429, attempts: 1 }) });
      // No retry: a second attempt would not fit in the time the route has left.
      expect(throttled.captured).toHaveLength(1);
    } finally {
      await throttled.close();
    }
  });

  it('puts a model ARN in the path as one encoded label', async () => {
    const server = await loopback(() => ({ status: 200, body: converseAnswer('{"fills": []}') }));
    try {
      const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.amazon.nova-lite-v1:0';
      await expect(createBedrockModel({ modelId: arn, region: 'us-east-1', clientConfig: { endpoint: server.url, credentials: CREDENTIALS } }).refine(REQUEST, never())).resolves.toEqual({ fills: [] });
      expect(server.captured[0].url).toBe(`/model/${encodeURIComponent(arn)}/converse`);
    } finally {
      await server.close();
    }
  });
});

describe('the OpenAI-compatible adapter', () => {
  it('posts a chat completion (system instructions, user data, temperature 0) with the key, and reads the message', async () => {
    const server = await loopback(() => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"fills": []}' } }] }) }));
    try {
      const model = createOpenAiCompatibleModel({ baseUrl: `${server.url}/v1/`, apiKey: 'sk-local', model: 'llama3.1' });
      await expect(model.refine(REQUEST, never())).resolves.toEqual({ fills: [] });
      const [sent] = server.captured;
      expect(sent.url).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe('Bearer sk-local');
      expect(JSON.parse(sent.body)).toEqual({
        model: 'llama3.1',
        messages: [
          { role: 'system', content: REQUEST.instructions },
          { role: 'user', content: JSON.stringify(REQUEST.input) },
        ],
        temperature: 0,
        max_tokens: 321,
        stream: false,
      });
    } finally {
      await server.close();
    }
  });

  it('rejects an HTTP error, a body without message content, and no answer in time', async () => {
    const failing = await loopback(() => ({ status: 503, body: 'busy' }));
    const empty = await loopback(() => ({ status: 200, body: JSON.stringify({ choices: [] }) }));
    const hang = await loopback(() => 'hang');
    try {
      const on = (url: string, timeoutMs?: number) => createOpenAiCompatibleModel({ baseUrl: url, model: 'm', timeoutMs });
      await expect(on(failing.url).refine(REQUEST, never())).rejects.toMatchObject({ name: 'ModelUnavailableError' });
      await expect(on(empty.url).refine(REQUEST, never())).rejects.toMatchObject({ name: 'ModelOutputError' });
      await expect(on(hang.url, 100).refine(REQUEST, never())).rejects.toMatchObject({ name: 'ModelUnavailableError' });
    } finally {
      await Promise.all([failing.close(), empty.close(), hang.close()]);
    }
  });
});

describe('choosing the model', () => {
  it('takes Bedrock when the stack names a model, else an OpenAI-compatible endpoint, else none (rules only)', () => {
    expect(modelFromEnvironment({}, 'us-east-1')).toBeNull();
    expect(modelFromEnvironment({ [AI_MODEL_ENVIRONMENT.openAiBaseUrl]: 'http://127.0.0.1:11434/v1', [AI_MODEL_ENVIRONMENT.openAiModel]: 'llama3.1' }, 'us-east-1')?.name).toBe('llama3.1');
    expect(
      modelFromEnvironment({ [AI_MODEL_ENVIRONMENT.bedrockModelId]: MODEL_ID, [AI_MODEL_ENVIRONMENT.openAiBaseUrl]: 'http://127.0.0.1:11434/v1' }, 'us-east-1')?.name,
    ).toBe(MODEL_ID);
  });

  it('parses one JSON value, in one optional code fence, and nothing else', () => {
    expect(parseModelJson(' {"a": 1} ')).toEqual({ a: 1 });
    expect(parseModelJson('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(() => parseModelJson('Here you go: {"a": 1}')).toThrow(/not JSON/);
    expect(() => parseModelJson('```json\n{"a": 1}\n``` and more')).toThrow(/not JSON/);
  });
});
