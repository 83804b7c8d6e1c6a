// A fake OpenAI-compatible chat-completions server on 127.0.0.1, for the AI routes' model path.
// Each test sets how it answers (`respond`): a chat completion whose message content is built from
// the request the model received, any HTTP status and body, or no answer at all (`hang`: the
// request stays open until the server closes). Every request is recorded, parsed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

/** The chat-completions request body the fake received. */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  temperature?: number;
  max_tokens?: number;
}

/** What the fake does with one request. */
export type FakeAnswer =
  /** A chat completion whose message content is this text (JSON or not, as the test wants). */
  | { content: string }
  /** A raw HTTP answer. */
  | { status: number; body: string }
  /** Never answers: the caller's timeout must end the wait. */
  | 'hang';

export interface FakeModel {
  /** Base URL to configure (`<url>/chat/completions` is served). */
  url: string;
  requests: ChatRequest[];
  /** Sets how the next requests are answered; the parsed `input` is the user message's JSON. */
  respond(answer: (input: unknown, request: ChatRequest) => FakeAnswer): void;
  /** Resolves once `count` requests have arrived (condition, not a sleep). */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

export async function startFakeModel(): Promise<FakeModel> {
  const requests: ChatRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let answer: (input: unknown, request: ChatRequest) => FakeAnswer = () => ({ status: 503, body: 'not configured' });

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((text) => {
      const request = JSON.parse(text) as ChatRequest;
      requests.push(request);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const user = request.messages.find((m) => m.role === 'user')?.content ?? 'null';
      const decided = answer(JSON.parse(user), request);
      if (decided === 'hang') return;
      if ('status' in decided) {
        res.writeHead(decided.status, { 'content-type': 'application/json' }).end(decided.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          model: request.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: decided.content } }],
        }),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    respond: (next) => {
      answer = next;
    },
    received: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
