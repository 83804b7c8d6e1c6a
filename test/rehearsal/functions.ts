// The functions of the synthesized template as the rehearsal runs them: each one's bundle, its
// environment with every Ref / Fn::GetAtt replaced by a local stand-in (the table by a DynamoDB
// Local table, queues, state machines and keys by names the recording stubs answer to), and its
// role's statements resolved the same way, so a recorded call compares with them as IAM would.
//
// Each function runs in its own Node process (lambda-child.cjs), started once and reused for all of
// its invocations, as a warm Lambda container is.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Resources, TemplateJson } from '../cdk/template-helpers';
import { roleStatements } from '../cdk/template-helpers';
import type { ResolvedStatement } from './iam';
import { ENV, assetPathOf } from './synth';

export interface StandIns {
  tableName: string;
  /** Where queue URLs point (the SQS stub). */
  stubEndpoint: string;
}

export interface RehearsedFunction {
  /** Logical id in the flattened template (`<nested stack>/<function>` for a nested one). */
  logicalId: string;
  /** The access key id its process signs with: how the stubs tell callers apart. */
  accessKeyId: string;
  /** What the function is (its Description, else its logical id), for messages. */
  label: string;
  bundle: string;
  environment: Record<string, string>;
  statements: ResolvedStatement[];
  timeoutSeconds: number;
  memoryMb: number;
}

/** Turns intrinsics into the stand-ins' names; anything it cannot resolve is listed, not guessed. */
export function standInResolver(resources: Resources, standIns: StandIns, unresolved: Set<string>) {
  const { region, account } = ENV;
  const queueName = (id: string) => {
    const props = resources[id].Properties ?? {};
    const base = id.replace(/[^A-Za-z0-9_-]/g, '-');
    return props.FifoQueue ? `${base}.fifo` : base;
  };
  const ref = (id: string): string => {
    const pseudo: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::Region': region, 'AWS::AccountId': account, 'AWS::URLSuffix': 'amazonaws.com', 'AWS::StackName': 'fincore-rehearsal' };
    if (id in pseudo) return pseudo[id];
    switch (resources[id]?.Type) {
      case 'AWS::DynamoDB::GlobalTable':
      case 'AWS::DynamoDB::Table':
        return standIns.tableName;
      case 'AWS::SQS::Queue':
        return `${standIns.stubEndpoint}/${account}/${queueName(id)}`;
      case 'AWS::StepFunctions::StateMachine':
        return `arn:aws:states:${region}:${account}:stateMachine:${id.replace(/\W/g, '-')}`;
      case 'AWS::KMS::Key':
        return keyIdOf(id);
      case 'AWS::SecretsManager::Secret':
        // A secret's Ref is its ARN (with the random suffix Secrets Manager adds).
        return `arn:aws:secretsmanager:${region}:${account}:secret:${id.replace(/\W/g, '-')}-AbCdEf`;
      // The REST API's id: the console's Cognito client names the API's URL as its callback.
      case 'AWS::ApiGateway::RestApi':
        return REHEARSAL_REST_API_ID;
      // The console's user pool: ids as Cognito spells them (the functions only ever send them to Cognito).
      case 'AWS::Cognito::UserPool':
        return `${region}_Rehearsal`;
      case 'AWS::Cognito::UserPoolClient':
        return 'rehearsalconsoleclient';
      case 'AWS::Cognito::UserPoolDomain':
        return `fincore-console-rehearsal-${account}`;
      case 'AWS::Lambda::Function':
      case 'AWS::Logs::LogGroup':
      case 'AWS::SNS::Topic':
      case 'AWS::IAM::Role':
        return id.replace(/\W/g, '-');
      default:
        unresolved.add(`Ref ${id}`);
        return `unresolved:${id}`;
    }
  };
  const getAtt = (id: string, attribute: string): string => {
    const type = resources[id]?.Type;
    if (attribute === 'Arn') {
      switch (type) {
        case 'AWS::DynamoDB::GlobalTable':
        case 'AWS::DynamoDB::Table':
          return `arn:aws:dynamodb:${region}:${account}:table/${standIns.tableName}`;
        case 'AWS::SQS::Queue':
          return `arn:aws:sqs:${region}:${account}:${queueName(id)}`;
        case 'AWS::StepFunctions::StateMachine':
          return ref(id);
        case 'AWS::KMS::Key':
          return keyArnOf(keyIdOf(id));
        case 'AWS::Lambda::Function':
          return `arn:aws:lambda:${region}:${account}:function:${ref(id)}`;
        case 'AWS::Logs::LogGroup':
          return `arn:aws:logs:${region}:${account}:log-group:${ref(id)}:*`;
        case 'AWS::IAM::Role':
          return `arn:aws:iam::${account}:role/${ref(id)}`;
      }
    }
    if (type === 'AWS::SQS::Queue' && attribute === 'QueueUrl') return ref(id);
    if (type === 'AWS::SQS::Queue' && attribute === 'QueueName') return queueName(id);
    if (type === 'AWS::StepFunctions::StateMachine' && attribute === 'Name') return id.replace(/\W/g, '-');
    unresolved.add(`GetAtt ${id}.${attribute}`);
    return `unresolved:${id}.${attribute}`;
  };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    const [key] = Object.keys(obj);
    if (Object.keys(obj).length === 1) {
      const arg = obj[key];
      if (key === 'Ref') return ref(String(arg));
      if (key === 'Fn::GetAtt') {
        const [id, attribute] = Array.isArray(arg) ? (arg as string[]) : String(arg).split('.');
        return getAtt(id, attribute);
      }
      if (key === 'Fn::Join') {
        const [separator, parts] = arg as [string, unknown[]];
        return (resolve(parts) as unknown[]).map(String).join(separator);
      }
      if (key === 'Fn::Select') {
        const [index, list] = arg as [number, unknown];
        return (resolve(list) as unknown[])[Number(index)];
      }
      if (key === 'Fn::Split') {
        const [separator, source] = arg as [string, unknown];
        return String(resolve(source)).split(separator);
      }
      if (key === 'Fn::Sub' && typeof arg === 'string') {
        return arg.replace(/\$\{([^}]+)\}/g, (_, name: string) => (name.includes('.') ? getAtt(name.split('.')[0], name.split('.')[1]) : ref(name)));
      }
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolve(v)]));
  };
  return resolve;
}

/** The stand-in id of the REST API: requests to the console arrive at `<id>.execute-api.<region>.amazonaws.com`. */
export const REHEARSAL_REST_API_ID = 'rehearsalapi';

const keyIdOf = (logicalId: string) => `key-${logicalId.replace(/\W/g, '-')}`;
export function keyArnOf(keyId: string): string {
  return keyId.startsWith('arn:') ? keyId : `arn:aws:kms:${ENV.region}:${ENV.account}:key/${keyId}`;
}

export function rehearsedFunctions(directory: string, resources: Resources, standIns: StandIns, unresolved: Set<string>): RehearsedFunction[] {
  const resolve = standInResolver(resources, standIns, unresolved);
  return Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([logicalId, r], index) => {
      const props = r.Properties as TemplateJson;
      const roleId = (props.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const statements = roleStatements(resources, roleId).map((s) => ({
        actions: s.actions,
        resources: (resolve(s.resources) as unknown[]).map(String),
        ...(s.conditions ? { conditions: resolve(s.conditions) as ResolvedStatement['conditions'] } : {}),
      }));
      return {
        logicalId,
        accessKeyId: `AKIAREHEARSAL${String(index).padStart(4, '0')}`,
        label: typeof props.Description === 'string' ? `${logicalId} (${props.Description})` : logicalId,
        bundle: join(directory, assetPathOf(logicalId, r), 'index.js'),
        environment: resolve(props.Environment?.Variables ?? {}) as Record<string, string>,
        statements,
        timeoutSeconds: Number(props.Timeout ?? 3),
        memoryMb: Number(props.MemorySize ?? 128),
      };
    });
}

export interface Container {
  fn: RehearsedFunction;
  initMs: number;
  invoke<T = unknown>(event: unknown): Promise<T>;
  /** What the function wrote to stdout and stderr (shown when an invocation fails). */
  output(): string;
  stop(): void;
}

/**
 * Starts the function's process with the environment Lambda would give it: the template's
 * variables, the runtime's own (region, function name, memory, credentials) and endpoints that
 * send the SDK to the stand-ins. The access key id names the function, so the stubs know the caller.
 */
export function startContainer(fn: RehearsedFunction, endpoints: { dynamodb: string; stubs: string; bedrock: string }): Promise<Container> {
  const functionName = fn.logicalId.replace(/\W/g, '-');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    AWS_REGION: ENV.region,
    AWS_DEFAULT_REGION: ENV.region,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'rehearsal',
    AWS_LAMBDA_LOG_FORMAT: 'JSON',
    AWS_ACCESS_KEY_ID: fn.accessKeyId,
    AWS_SECRET_ACCESS_KEY: 'rehearsal',
    AWS_SESSION_TOKEN: 'rehearsal',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.stubs,
    AWS_ENDPOINT_URL_SFN: endpoints.stubs,
    AWS_ENDPOINT_URL_KMS: endpoints.stubs,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoints.stubs,
    // Lambda's Invoke is a REST path: the stub server tells it apart by path.
    AWS_ENDPOINT_URL_LAMBDA: endpoints.stubs,
    // Bedrock Runtime's Converse is a REST path, not the JSON protocol: its stub is a server of its own.
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: endpoints.bedrock,
    // X-Ray segments go to a UDP port nobody listens on; Sampled=0 in each trace header sends none.
    AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    POWERTOOLS_LOG_LEVEL: process.env.FC_REHEARSAL_LOG_LEVEL ?? 'WARN',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...fn.environment,
  };
  const child: ChildProcess = fork(join(__dirname, 'lambda-child.cjs'), [fn.bundle], { env, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let nextId = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  return new Promise((resolveStart, rejectStart) => {
    const onExit = (code: number | null) => {
      const error = new Error(`${fn.label} exited (${code}):\n${output}`);
      rejectStart(error);
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    child.on('exit', onExit);
    child.on('message', (message: { type: string; id?: number; result?: unknown; error?: string; initMs?: number }) => {
      if (message.type === 'init-error') return rejectStart(new Error(`${fn.label} failed to load:\n${message.error}`));
      if (message.type === 'ready') {
        return resolveStart({
          fn,
          initMs: message.initMs ?? 0,
          // One invocation at a time per container, as Lambda runs them.
          invoke: <T>(event: unknown) => {
            const run = () =>
              new Promise<T>((resolve, reject) => {
                const id = nextId++;
                pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
                child.send({ id, event, timeoutMs: fn.timeoutSeconds * 1000 });
              });
            const result = queue.then(run, run);
            queue = result.catch(() => undefined);
            return result;
          },
          output: () => output,
          stop: () => {
            child.off('exit', onExit);
            child.kill();
          },
        });
      }
      const waiter = pending.get(message.id ?? -1);
      if (!waiter) return;
      pending.delete(message.id ?? -1);
      if (message.type === 'result') waiter.resolve(message.result);
      else waiter.reject(new Error(`${fn.label} threw:\n${message.error}\n--- output ---\n${output.slice(-4000)}`));
    });
  });
}
