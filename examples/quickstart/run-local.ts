// `npm run example`: Fincore's local runtime (in memory, with a freshly generated test key) and the
// sample app pointed at it, both on loopback. This file is the repository's launcher, not part of the
// sample: the app itself is server.mjs + public/, run exactly as an integrator runs it, with
// `node server.mjs` and FINCORE_BASE_URL / FINCORE_API_KEY in its environment. The npm script sets
// POWERTOOLS_LOG_LEVEL=WARN (unless set) so that the runtime's request logs do not bury the app's URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../functions/platform/local/local-stack';

const SERVER = join(__dirname, 'server.mjs');
const READY_LINE = /^Sample app listening on (\S+)/;

export interface ExampleOptions {
  /** The sample app's port (0 picks a free one). */
  appPort?: number;
  /** Overrides for the local runtime (tests share one DynamoDB Local and pass its endpoint). */
  stack?: LocalStackOptions;
  /** Each line the sample app prints after its start line (default: this process's stdout). */
  onAppOutput?: (line: string) => void;
}

export interface RunningExample {
  stack: LocalStack;
  fincoreBaseUrl: string;
  apiKey: string;
  /** Where the sample app is (open it in a browser). */
  appUrl: string;
  /** The sample app's start line: its URL and whether webhooks are on. */
  appStartLine: string;
  /** Stops the sample app, then the local runtime. */
  stop(): Promise<void>;
}

/**
 * Starts the sample app (`node server.mjs`) as a child process with `env` added to this process's
 * environment; resolves once it printed its start line. Tests use it against a fake Fincore too.
 */
export function startSampleApp(env: Record<string, string>, onOutput: (line: string) => void): Promise<{ child: ChildProcess; url: string; line: string }> {
  // The caller's own webhook secret or public URL would point the app at another environment.
  const inherited = { ...process.env };
  delete inherited.FINCORE_WEBHOOK_SECRET;
  delete inherited.PUBLIC_URL;
  const child = spawn(process.execPath, [SERVER], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const errors: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors.push(chunk);
    process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    let ready = false;
    lines.on('line', (line) => {
      const match = READY_LINE.exec(line);
      if (!ready && match) {
        ready = true;
        resolve({ child, url: match[1], line });
      } else onOutput(line);
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`the sample app exited with code ${code} before it started: ${errors.join('').trim()}`));
    });
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startExample(options: ExampleOptions = {}): Promise<RunningExample> {
  const stack = await startLocalStack({ port: 0, host: '127.0.0.1', inMemory: true, seed: null, ...options.stack });
  try {
    const testKey = stack.keys.find((k) => k.environment === 'test');
    if (!testKey) throw new Error('the local runtime has no test key');
    const app = await startSampleApp(
      { FINCORE_BASE_URL: stack.baseUrl, FINCORE_API_KEY: testKey.key, PORT: String(options.appPort ?? 3000), HOST: '127.0.0.1' },
      options.onAppOutput ?? ((line) => process.stdout.write(`${line}\n`)),
    );
    return {
      stack,
      fincoreBaseUrl: stack.baseUrl,
      apiKey: testKey.key,
      appUrl: app.url,
      appStartLine: app.line,
      stop: async () => {
        await stopChild(app.child);
        await stack.stop();
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const appPort = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(appPort) || appPort < 0 || appPort > 65535) throw new Error(`PORT must be a port number, got ${process.env.PORT}`);
  const example = await startExample({ appPort });
  process.stdout.write(
    [
      '',
      `Open the sample app: ${example.appUrl}`,
      `  ${example.appStartLine}`,
      `  Fincore (in memory, nothing is kept): ${example.fincoreBaseUrl}`,
      `  test key (generated for this run): ${example.apiKey}`,
      '  sandbox login in Link: user_good / pass_good',
      '  Ctrl-C stops both.',
      '',
    ].join('\n') + '\n',
  );
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    example
      .stop()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

// Run by `npm run example`; tests import startExample instead.
if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`Could not start the example: ${error.message}\n`);
    process.exit(1);
  });
}
