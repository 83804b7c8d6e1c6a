// A loopback stand-in for AWS services that speak the AWS JSON protocol (SQS, Step Functions, KMS,
// Secrets Manager): POST / with `X-Amz-Target: <prefix>.<Operation>` and the input as JSON; an
// answer is the output as JSON, an error is HTTP 400 (or the status given) with
// `{"__type": "<Code>", "message": "..."}`, as the services document. Handlers answer by target;
// every request is recorded with its signature's access key id.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface AwsJsonRequest {
  /** `AmazonSQS.SendMessage`, `TrentService.Decrypt`... */
  target: string;
  input: Record<string, unknown>;
  headers: IncomingMessage['headers'];
  /** The access key id the request was signed with. */
  accessKeyId: string | undefined;
}

/** Thrown by a handler to answer an AWS error. */
export class AwsJsonError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export type AwsJsonHandler = (input: Record<string, unknown>, request: AwsJsonRequest) => unknown;

export const FAKE_CREDENTIALS = { accessKeyId: 'AKIDLOOPBACK', secretAccessKey: 'not-a-secret' };

export class AwsJsonFake {
  readonly requests: AwsJsonRequest[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private url = '';

  constructor(private readonly handlers: Record<string, AwsJsonHandler>) {}

  get endpoint(): string {
    if (!this.url) throw new Error('the fake is not started');
    return this.url;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const target = String(req.headers['x-amz-target'] ?? '');
        const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
        const accessKeyId = /Credential=([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1];
        const request = { target, input, headers: req.headers, accessKeyId };
        this.requests.push(request);
        const contentType = String(req.headers['content-type'] ?? 'application/x-amz-json-1.0');
        const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
          res.writeHead(status, { 'content-type': contentType, 'x-amzn-requestid': `req-${this.requests.length}`, ...headers }).end(JSON.stringify(body));
        try {
          const handler = this.handlers[target];
          if (!handler) throw new AwsJsonError('UnknownOperationException', `the fake does not serve ${target}`);
          reply(200, handler(input, request));
        } catch (err) {
          if (!(err instanceof AwsJsonError)) throw err;
          reply(err.status, { __type: err.code, message: err.message }, err.headers);
        }
      });
    });
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** The requests for one operation (`SendMessageBatch`), inputs only. */
  inputsOf(operation: string): Record<string, unknown>[] {
    return this.requests.filter((r) => r.target.endsWith(`.${operation}`)).map((r) => r.input);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
