// Background work: queues (each with a dead-letter queue), the WebhookDelivery state machine, the
// worker Lambdas, and the schedule of the scheduled work (outbox sweep, reaper, due item refreshes). Refreshes run from the
// item-refresh FIFO queue (one message group per item), so there is no ItemRefresh state machine on
// AWS; the local runner still runs itemRefreshAsl in process.
//
// A webhook burst must not starve the API of Lambda concurrency: the SQS consumers are capped by
// their event source's maxConcurrency, and the delivery worker (started by Step Functions) by its
// reserved concurrency where the stage sets one; a throttled attempt is retried by the state machine
// without using up a delivery attempt (functions/workers/state-machines.ts THROTTLE_RETRY).
//
//   webhook-events queue -> webhook-dispatch: attempt 1 of every delivery (POST), its row;
//     only when that attempt failed -> StartExecution(WebhookDelivery)
//   WebhookDelivery: wait, attempt, wait, ... (WEBHOOK_RETRY_DELAYS_SECONDS from attempt 2; a replay
//     from attempt 1), then record a dead letter
//   schedule (every 5 min) -> scheduled-refresh -> (refresh-due index: due items only, SendMessageBatch)
//     -> item-refresh FIFO queue -> item-refresh worker
//   scheduled-refresh also publishes what the outbox still holds -> webhook-events queue
//
// What each worker may reach is WORKER_ACCESS below (the test compares every worker role with it).
import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  type AslDefinition,
  DEAD_LETTER_TIMEOUT_SECONDS,
  DELIVERY_WORKER_TIMEOUT_SECONDS,
  DISPATCH_WORKER_TIMEOUT_SECONDS,
  REFRESH_TIMEOUT_SECONDS,
  webhookDeliveryAsl,
} from '../functions/workers/state-machines';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../functions/workers/webhook-schedule';
import { DELIVERY_SIGNING_KEY_CONDITIONS, ENV_VARS, EVENT_PARTITIONS, SECRETS_KEY_CONDITIONS, TABLE_KEY_ACTIONS, type secretsKeyConditions } from './api-grants';
import { FincoreFunction, InlinePolicyRole } from './fincore-function';
import type { StageConfig } from './stage-config';

export { WEBHOOK_RETRY_DELAYS_SECONDS };

/** A message that fails this many receives moves to its dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;
/** The delivery worker's own timeout (the attempt task's is longer: state-machines.ts). */
export const DELIVERY_WORKER_TIMEOUT = Duration.seconds(DELIVERY_WORKER_TIMEOUT_SECONDS);
/** The dispatch worker's own timeout: one webhook POST's limit, since its first attempts run all at once. */
export const DISPATCH_WORKER_TIMEOUT = Duration.seconds(DISPATCH_WORKER_TIMEOUT_SECONDS);
/** Six times the consumer's timeout, as AWS recommends for Lambda consumers of SQS. */
export const WEBHOOK_EVENTS_VISIBILITY_TIMEOUT = Duration.seconds(6 * DISPATCH_WORKER_TIMEOUT_SECONDS);

/** Step Functions log groups must sit under this prefix for vended log delivery to need no extra resource policy. */
export const VENDED_STATES_LOG_PREFIX = '/aws/vendedlogs/states/';

export interface AsyncJobsProps {
  config: StageConfig;
  /** The table, with its customer-managed key as `encryptionKey`. */
  table: dynamodb.ITableV2;
  /** Envelope key of the webhook signing secrets (the delivery worker opens them) and of provider tokens (the refresh worker). */
  secretsKey: kms.IKey;
  /** The stage's connector credentials (the refresh worker reaches live connectors). */
  connectorSecret: secretsmanager.ISecret;
}

export type WorkerName = 'dispatch' | 'delivery' | 'deadLetter' | 'refresh' | 'scheduledRefresh';

export interface WorkerAccess {
  /** What the worker does with the table (the reason on its cdk-nag acknowledgements). */
  does: string;
  /**
   * `read-write`: TableV2.grantReadWriteData (table, gsi1, table key).
   * `update-deliveries`: UpdateItem on delivery rows only (partition `EVT#*`), plus the table key.
   */
  table: 'read-write' | 'update-deliveries';
  /** FC_WEBHOOK_EVENTS_QUEUE_URL + sqs:SendMessage on the webhook-events queue. */
  eventsQueue: boolean;
  /** FC_ITEM_REFRESH_QUEUE_URL + sqs:SendMessage on the item-refresh queue. */
  refreshQueue: boolean;
  /** FC_SECRETS_KMS_KEY_ID + these actions on the secrets key. */
  secretsKey: readonly string[];
  /** The encryption contexts those actions are limited to (their purposes); SECRETS_KEY_CONDITIONS when absent. */
  secretsKeyConditions?: ReturnType<typeof secretsKeyConditions>;
  /** FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN + states:StartExecution on WebhookDelivery. */
  startsDeliveries: boolean;
  /** FC_CONNECTOR_SECRET_ARN + secretsmanager:GetSecretValue on the connector credentials secret. */
  connectorConfig: boolean;
}

export const WORKER_ACCESS: Record<WorkerName, WorkerAccess> = {
  dispatch: {
    does:
      'reads the event with its deliveries and the endpoints with the secret record (one Query each), opens the signing secrets ' +
      '(and Plaid webhook keys), makes the first attempt of each delivery and writes its row, and starts a WebhookDelivery execution for a failed one',
    table: 'read-write',
    eventsQueue: false,
    refreshQueue: false,
    secretsKey: ['kms:Decrypt'],
    secretsKeyConditions: DELIVERY_SIGNING_KEY_CONDITIONS,
    startsDeliveries: true,
    connectorConfig: false,
  },
  delivery: {
    does:
      'reads the delivery, its endpoint (or the item, for its own webhook URL) and the secret record (one BatchGetItem), opens the signing secrets (or reads and opens the Plaid ' +
      'webhook key) and appends the attempt',
    table: 'read-write',
    eventsQueue: false,
    refreshQueue: false,
    secretsKey: ['kms:Decrypt'],
    secretsKeyConditions: DELIVERY_SIGNING_KEY_CONDITIONS,
    startsDeliveries: false,
    connectorConfig: false,
  },
  deadLetter: {
    does: 'marks the delivery row dead_lettered (one conditional UpdateItem)',
    table: 'update-deliveries',
    eventsQueue: false,
    refreshQueue: false,
    secretsKey: [],
    startsDeliveries: false,
    connectorConfig: false,
  },
  refresh: {
    does:
      'reads and writes the item, its accounts and its feed, and records and publishes the events that follow; ' +
      'opens the item\u2019s provider tokens and seals rotated ones, and reads the stage\u2019s connector credentials',
    table: 'read-write',
    eventsQueue: true,
    refreshQueue: false,
    secretsKey: ['kms:Decrypt', 'kms:GenerateDataKey'],
    startsDeliveries: false,
    connectorConfig: true,
  },
  scheduledRefresh: {
    does:
      'queries the refresh-due index (gsi1) for due items, queues them and moves their due rows on (UpdateItem), queries the outbox (gsi1), ' +
      'publishes what it holds and marks it published, and deletes Link connections that never committed (gsi1)',
    table: 'read-write',
    eventsQueue: true,
    refreshQueue: true,
    secretsKey: [],
    startsDeliveries: false,
    connectorConfig: false,
  },
};

interface QueueWithDlq {
  queue: sqs.Queue;
  deadLetterQueue: sqs.Queue;
}

export class AsyncJobs extends Construct {
  readonly webhookEvents: QueueWithDlq;
  readonly itemRefresh: QueueWithDlq;
  readonly webhookDelivery: sfn.StateMachine;
  readonly workers: Record<WorkerName, FincoreFunction>;
  readonly refreshSchedule: events.Rule;

  constructor(scope: Construct, id: string, props: AsyncJobsProps) {
    super(scope, id);
    const { config } = props;
    const environment = { [ENV_VARS.tableName]: props.table.tableName };
    const worker = (constructId: string, entry: string, description: string, timeout: Duration, reservedConcurrentExecutions?: number) =>
      new FincoreFunction(this, constructId, { entry: `workers/${entry}`, description, config, environment, timeout, reservedConcurrentExecutions });

    const delivery = worker(
      'WebhookDeliveryWorker',
      'webhook-delivery.ts',
      'One webhook delivery attempt',
      DELIVERY_WORKER_TIMEOUT,
      config.workers.deliveryReservedConcurrency,
    );
    const deadLetter = worker('WebhookDeadLetterWorker', 'webhook-dead-letter.ts', 'Records an undeliverable webhook', Duration.seconds(DEAD_LETTER_TIMEOUT_SECONDS));
    const dispatch = worker(
      'WebhookDispatchWorker',
      'webhook-dispatch.ts',
      'Makes the first attempt of each queued event\'s deliveries; starts a WebhookDelivery for each that failed',
      DISPATCH_WORKER_TIMEOUT,
    );
    const refresh = worker('ItemRefreshWorker', 'item-refresh.ts', 'Refreshes one item from its institution', Duration.seconds(REFRESH_TIMEOUT_SECONDS));
    const scheduledRefresh = worker('ScheduledRefreshWorker', 'scheduled-refresh.ts', 'Sweeps the outbox and queues due item refreshes', Duration.minutes(1));
    this.workers = { dispatch, delivery, deadLetter, refresh, scheduledRefresh };

    // Visibility timeout: six times the consumer's timeout, as AWS recommends for Lambda consumers.
    this.webhookEvents = this.queueWithDlq('WebhookEvents', { fifo: false, visibilityTimeout: WEBHOOK_EVENTS_VISIBILITY_TIMEOUT });
    this.itemRefresh = this.queueWithDlq('ItemRefresh', { fifo: true, visibilityTimeout: Duration.minutes(12) });

    // The definitions are functions/workers/state-machines.ts, the same JSON the local runner
    // executes; here the worker ARNs are tokens that CloudFormation resolves.
    this.webhookDelivery = this.stateMachine(
      'WebhookDelivery',
      config,
      webhookDeliveryAsl({ deliveryWorkerArn: delivery.fn.functionArn, deadLetterWorkerArn: deadLetter.fn.functionArn }),
      [delivery, deadLetter],
    );

    for (const [name, fn] of Object.entries(this.workers) as [WorkerName, FincoreFunction][]) {
      this.grantWorker(name, fn, props);
    }

    dispatch.fn.addEventSource(
      new SqsEventSource(this.webhookEvents.queue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: config.workers.dispatchMaxConcurrency,
      }),
    );

    refresh.fn.addEventSource(
      new SqsEventSource(this.itemRefresh.queue, { batchSize: 1, maxConcurrency: config.workers.refreshMaxConcurrency }),
    );

    // Every run costs little when nothing is due: one Query per refresh-due shard and per outbox
    // partition (docs/architecture.md, "Scheduled work").
    this.refreshSchedule = new events.Rule(this, 'RefreshSchedule', {
      description: `Sweep the outbox and queue due item refreshes every ${config.scheduledWork.every.toHumanString()}`,
      schedule: events.Schedule.rate(config.scheduledWork.every),
      targets: [new targets.LambdaFunction(scheduledRefresh.fn, { retryAttempts: 2 })],
    });
  }

  /** Grants and environment of one worker, exactly as WORKER_ACCESS says. */
  private grantWorker(name: WorkerName, fn: FincoreFunction, props: AsyncJobsProps): void {
    const access = WORKER_ACCESS[name];
    const { table } = props;
    const allow = (actions: readonly string[], resources: string[], conditions?: Record<string, unknown>) =>
      fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...actions], resources, conditions }));
    switch (access.table) {
      case 'read-write': {
        const tableId = Stack.of(this).getLogicalId(table.node.defaultChild as CfnElement);
        fn.grantTableReadWrite(table, `<${tableId}.Arn>`, `The ${name} worker ${access.does}`);
        break;
      }
      case 'update-deliveries': {
        if (!table.encryptionKey) throw new Error('the table has no customer-managed key to grant');
        allow(['dynamodb:UpdateItem'], [table.tableArn], { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...EVENT_PARTITIONS] } });
        allow(TABLE_KEY_ACTIONS, [table.encryptionKey.keyArn]);
        break;
      }
    }
    if (access.eventsQueue) {
      allow(['sqs:SendMessage'], [this.webhookEvents.queue.queueArn]);
      fn.fn.addEnvironment(ENV_VARS.eventsQueueUrl, this.webhookEvents.queue.queueUrl);
    }
    if (access.refreshQueue) {
      allow(['sqs:SendMessage'], [this.itemRefresh.queue.queueArn]);
      fn.fn.addEnvironment(ENV_VARS.refreshQueueUrl, this.itemRefresh.queue.queueUrl);
    }
    if (access.secretsKey.length > 0) {
      allow(access.secretsKey, [props.secretsKey.keyArn], access.secretsKeyConditions ?? SECRETS_KEY_CONDITIONS);
      fn.fn.addEnvironment(ENV_VARS.secretsKeyId, props.secretsKey.keyArn);
    }
    if (access.connectorConfig) {
      props.connectorSecret.grantRead(fn.role);
      fn.fn.addEnvironment(ENV_VARS.connectorSecretArn, props.connectorSecret.secretArn);
    }
    if (access.startsDeliveries) {
      // Executions of the delivery machine and nothing else.
      this.webhookDelivery.grantStartExecution(fn.role);
      fn.fn.addEnvironment(ENV_VARS.deliveryStateMachineArn, this.webhookDelivery.stateMachineArn);
    }
  }

  private queueWithDlq(id: string, options: { fifo: boolean; visibilityTimeout: Duration }): QueueWithDlq {
    const common: sqs.QueueProps = {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      ...(options.fifo ? { fifo: true } : {}),
    };
    const deadLetterQueue = new sqs.Queue(this, `${id}Dlq`, { ...common, retentionPeriod: Duration.days(14) });
    const queue = new sqs.Queue(this, `${id}Queue`, {
      ...common,
      // The adapter (functions/platform/aws-ports.ts) sends an explicit MessageDeduplicationId (item
      // and 10 s window), so deduplication by body hash stays off: one rule, the sender's.
      ...(options.fifo ? { contentBasedDeduplication: false } : {}),
      visibilityTimeout: options.visibilityTimeout,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    return { queue, deadLetterQueue };
  }

  private stateMachine(id: string, config: StageConfig, asl: AslDefinition, invokes: FincoreFunction[]): sfn.StateMachine {
    const logGroup = new logs.LogGroup(this, `${id}Logs`, {
      logGroupName: `${VENDED_STATES_LOG_PREFIX}fincore-${config.stage}-${id}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const role = new InlinePolicyRole(this, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('states.amazonaws.com'),
      description: `Execution role of the ${id} state machine (${config.stage})`,
    });
    const machine = new sfn.StateMachine(this, id, {
      stateMachineName: `fincore-${config.stage}-${id}`,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromString(Stack.of(this).toJsonString(asl)),
      role,
      tracingEnabled: true,
      // Execution data stays out of the logs: webhook bodies and item ids are customer data.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    // The findings are on the role (the IAM entity), which is a sibling of the machine.
    Validations.of(role).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Added by CDK for X-Ray tracing (xray:PutTraceSegments, PutTelemetryRecords, GetSampling*) and for ' +
          'vended log delivery (logs:CreateLogDelivery, ..., DescribeLogGroups); none of these actions supports ' +
          'resource-level permissions.',
      },
    );
    // The definition invokes exactly these workers (unqualified ARNs), so the role may invoke
    // exactly these and no version or alias of them.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: invokes.map((fn) => fn.fn.functionArn) }),
    );
    return machine;
  }
}
