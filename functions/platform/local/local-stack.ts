// The whole service on one machine: DynamoDB Local + table + seed + the HTTP adapter over the
// handler modules. Used by `npm start`, the end-to-end tests and the benchmarks.
import type { AddressInfo } from 'node:net';
import { createLocalKeyProvider } from '../crypto/local-key-provider';
import { configureRuntime, createDeps, type Clock, type Deps } from '../runtime';
import { createLocalPorts, type LocalPorts } from './local-ports';
import { ensureTable, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { createLocalServer, loadHandlers } from './http-server';
import { applySeed, type SeedApplication, type SeededKey } from './seed';

export interface LocalStackOptions {
  port?: number;
  host?: string;
  /** Folder for DynamoDB Local's files; omit (or inMemory) to keep data in memory. */
  dataDir?: string;
  inMemory?: boolean;
  /** Use an already running DynamoDB Local instead of starting one (tests share one). */
  dynamodbEndpoint?: string;
  tableName?: string;
  seed?: SeedApplication[] | null;
  /** Check every response against its route's schema (the test suites do). */
  validateResponses?: boolean;
  /** FC_LOCAL_WEBHOOK_TIME_SCALE: 1 runs the retry schedule in real time, 0.01 a hundred times faster. */
  webhookTimeScale?: number;
  /** Where the local key-encryption key lives; in memory when omitted (nothing survives a restart). */
  kekFile?: string;
  clock?: Clock;
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  keys: SeededKey[];
  deps: Deps;
  dynamodbEndpoint: string;
  /** The in-process queues and workflows (tests wait on idle()). */
  background: LocalPorts;
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  let dynamo: DynamoDbLocal | undefined;
  const endpoint =
    options.dynamodbEndpoint ??
    (dynamo = await startDynamoDbLocal({ dataDir: options.inMemory ? undefined : options.dataDir })).endpoint;
  const tableName = options.tableName ?? 'fincore';
  try {
    await ensureTable(endpoint, tableName);
    // The background ports need deps and deps carry the ports: the ports read deps only once work runs.
    const background = createLocalPorts(() => deps, { timeScale: options.webhookTimeScale ?? 1 });
    const deps: Deps = createDeps(
      { tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint, validateResponses: options.validateResponses, allowLoopbackWebhooks: true, connectorEnv: {} },
      { keyProvider: createLocalKeyProvider({ file: options.kekFile }), ports: background.ports, clock: options.clock },
    );
    configureRuntime(deps);
    const keys = await applySeed(deps, options.seed ?? null);
    const server = createLocalServer(loadHandlers());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
    return {
      baseUrl: `http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`,
      port,
      keys,
      deps,
      dynamodbEndpoint: endpoint,
      background,
      stop: async () => {
        background.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        deps.ddb.destroy();
        await dynamo?.stop();
      },
    };
  } catch (err) {
    await dynamo?.stop();
    throw err;
  }
}
