// Shared pieces of the benchmarks: a keep-alive HTTP load generator with latency percentiles, and
// helpers that start servers as child processes so the load generator does not share their CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
}

export interface LoadSpec {
  url: string;
  body: string;
  headers: (i: number) => Record<string, string>;
  requests: number;
  concurrency: number;
}

function once(agent: Agent, url: URL, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, method: 'POST', hostname: url.hostname, port: url.port, path: url.pathname, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const url = new URL(spec.url);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (next < spec.requests) {
        const i = next++;
        const t0 = process.hrtime.bigint();
        const status = await once(agent, url, spec.body, spec.headers(i));
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return { requests: spec.requests, rps: spec.requests / seconds, p50: pct(0.5), p99: pct(0.99), statuses };
}

export interface ChildServer {
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Runs a TypeScript entry point and waits for it to print `listening on <url>`. */
export async function startChild(entry: string, env: Record<string, string>): Promise<ChildServer> {
  const child: ChildProcess = spawn(TSX, [entry], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 60_000;
  let match: RegExpExecArray | null;
  while (!(match = /listening on (http:\/\/\S+)/.exec(output))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${entry} did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 300));
  return {
    baseUrl: match[1],
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

export function table(rows: Array<Record<string, string | number>>): string {
  const cols = Object.keys(rows[0]);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((v, i) => v.padEnd(widths[i])).join('  ');
  return [line(cols), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(cols.map((c) => String(r[c]))))].join('\n');
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);
