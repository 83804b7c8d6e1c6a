// X-Ray subsegments for AWS calls, sent straight to the X-Ray daemon Lambda runs beside every
// function with active tracing.
//
// Why not the X-Ray SDK (through Powertools Tracer): it added about 115 KB to every bundle (the SDK,
// semver, cls-hooked) and installs async hooks that tax every promise of every request, while all we
// used it for is one subsegment per AWS call. The daemon's protocol is small and documented: one
// UDP datagram per document, a JSON header line then the segment document; an independent subsegment
// names its trace and parent (the function's segment, from the `_X_AMZN_TRACE_ID` Lambda sets per
// invocation) and carries `type: "subsegment"`.
//
// Nothing is sent unless the invocation is sampled (`Sampled=1`) and the daemon address is set, so
// local runs, tests and benches never send anything. A lost datagram loses one subsegment, never a
// request: sending is fire-and-forget on an unreferenced socket.
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { AwsMiddleware } from './aws/aws-request';

export interface TraceContext {
  traceId: string;
  parentId: string;
}

/** The sampled trace of the current invocation, from Lambda's `_X_AMZN_TRACE_ID`; undefined when not sampled. */
export function sampledTrace(header: string | undefined = process.env._X_AMZN_TRACE_ID): TraceContext | undefined {
  if (!header) return undefined;
  const fields = new Map(
    header.split(';').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const traceId = fields.get('Root');
  const parentId = fields.get('Parent');
  if (fields.get('Sampled') !== '1' || !traceId || !parentId) return undefined;
  return { traceId, parentId };
}

/** `host:port`, or the `tcp:… udp:host:port` form; the UDP address is the one documents go to. */
export function daemonAddress(value: string | undefined = process.env.AWS_XRAY_DAEMON_ADDRESS): { host: string; port: number } | undefined {
  if (!value) return undefined;
  const udp = value.split(/\s+/).find((part) => part.startsWith('udp:')) ?? value.split(/\s+/)[0] ?? '';
  const match = /^(?:udp:)?(.+):(\d+)$/.exec(udp);
  if (!match) return undefined;
  return { host: match[1], port: Number(match[2]) };
}

export interface Subsegment {
  name: string;
  id: string;
  trace_id: string;
  parent_id: string;
  type: 'subsegment';
  namespace: 'aws';
  start_time: number;
  end_time: number;
  aws: { operation: string; region?: string; request_id?: string; retries: number; table_name?: string; queue_url?: string };
  http?: { response: { status: number } };
  error?: boolean;
  throttle?: boolean;
  fault?: boolean;
  cause?: { exceptions: Array<{ id: string; message: string; type: string; remote: boolean }> };
}

interface CallMetadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

const HEADER = '{"format":"json","version":1}\n';
let socket: Socket | undefined;

function send(document: Subsegment): void {
  const address = daemonAddress();
  if (!address) return;
  if (!socket) {
    socket = createSocket('udp4');
    socket.unref();
    // A daemon that is not there must not crash the function: the subsegment is simply lost.
    socket.on('error', () => undefined);
  }
  socket.send(HEADER + JSON.stringify(document), address.port, address.host);
}

const seconds = (ms: number) => ms / 1000;

/** The subsegment document for one finished call (exported for tests). */
export function subsegmentOf(
  trace: TraceContext,
  call: { service: string; operation: string; region?: string; input: object; startedMs: number; endedMs: number },
  outcome: { metadata?: CallMetadata; error?: { name?: string; message?: string } },
): Subsegment {
  const status = outcome.metadata?.httpStatusCode;
  const input = call.input as { TableName?: unknown; QueueUrl?: unknown };
  const failed = outcome.error !== undefined;
  return {
    name: call.service,
    id: randomBytes(8).toString('hex'),
    trace_id: trace.traceId,
    parent_id: trace.parentId,
    type: 'subsegment',
    namespace: 'aws',
    start_time: seconds(call.startedMs),
    end_time: seconds(call.endedMs),
    aws: {
      operation: call.operation,
      ...(call.region ? { region: call.region } : {}),
      ...(outcome.metadata?.requestId ? { request_id: outcome.metadata.requestId } : {}),
      retries: Math.max(0, (outcome.metadata?.attempts ?? 1) - 1),
      ...(typeof input.TableName === 'string' ? { table_name: input.TableName } : {}),
      ...(typeof input.QueueUrl === 'string' ? { queue_url: input.QueueUrl } : {}),
    },
    ...(status !== undefined ? { http: { response: { status } } } : {}),
    // X-Ray's flags: 4xx is an error (429 also a throttle), 5xx or no response is a fault.
    ...(failed && status !== undefined && status >= 400 && status < 500 ? { error: true, ...(status === 429 ? { throttle: true } : {}) } : {}),
    ...(failed && (status === undefined || status >= 500) ? { fault: true } : {}),
    ...(failed
      ? {
          cause: {
            exceptions: [
              { id: randomBytes(8).toString('hex'), type: outcome.error?.name ?? 'Error', message: outcome.error?.message ?? '', remote: status !== undefined },
            ],
          },
        }
      : {}),
  };
}

/**
 * One subsegment per call of our AWS clients (functions/platform/aws/), its retries included, for
 * sampled invocations only.
 */
export const traceAwsCall: AwsMiddleware = async (call, next) => {
  const trace = sampledTrace();
  if (!trace) return next();
  const started = { service: call.serviceName, operation: call.operation, region: process.env.AWS_REGION, input: call.input, startedMs: Date.now() };
  try {
    const output = await next();
    send(subsegmentOf(trace, { ...started, endedMs: Date.now() }, { metadata: output.$metadata }));
    return output;
  } catch (err) {
    const error = err as { name?: string; message?: string; $metadata?: CallMetadata };
    send(subsegmentOf(trace, { ...started, endedMs: Date.now() }, { metadata: error.$metadata, error }));
    throw err;
  }
};

/** Adds X-Ray subsegments to one of our AWS clients and returns it. */
export function traceAwsCalls<C extends { use(middleware: AwsMiddleware): void }>(client: C): C {
  client.use(traceAwsCall);
  return client;
}

export const tracer = { traceAwsCalls };
