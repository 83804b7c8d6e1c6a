// Background work: queues (each with a dead-letter queue), the WebhookDelivery and ItemRefresh state
// machines, their worker Lambdas, and the schedule that enqueues periodic item refreshes.
//
//   webhook-events queue -> webhook-dispatch -> StartExecution(WebhookDelivery)
//   WebhookDelivery: attempt, wait, attempt, ... (WEBHOOK_RETRY_DELAYS_SECONDS), then record a dead letter
//   schedule (stage interval) -> scheduled-refresh -> item-refresh FIFO queue -> item-refresh worker
import { type CfnResource, Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../functions/workers/webhook-schedule';
import { FincoreFunction, InlinePolicyRole } from './fincore-function';
import type { StageConfig } from './stage-config';

export { WEBHOOK_RETRY_DELAYS_SECONDS };

/** A message that fails this many receives moves to its dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;
/** The per-attempt limit on one webhook POST, including the worker's own overhead. */
export const DELIVERY_ATTEMPT_TIMEOUT = Duration.seconds(10);

export interface AsyncJobsProps {
  config: StageConfig;
  table: dynamodb.ITableV2;
}

interface QueueWithDlq {
  queue: sqs.Queue;
  deadLetterQueue: sqs.Queue;
}

export class AsyncJobs extends Construct {
  readonly webhookEvents: QueueWithDlq;
  readonly itemRefresh: QueueWithDlq;
  readonly webhookDelivery: sfn.StateMachine;
  readonly itemRefreshMachine: sfn.StateMachine;
  readonly workers: Record<'dispatch' | 'delivery' | 'deadLetter' | 'refresh' | 'scheduledRefresh', FincoreFunction>;
  readonly refreshSchedule: events.Rule;

  constructor(scope: Construct, id: string, props: AsyncJobsProps) {
    super(scope, id);
    const { config } = props;
    const environment = { FC_TABLE_NAME: props.table.tableName };
    const worker = (constructId: string, entry: string, description: string, timeout: Duration) =>
      new FincoreFunction(this, constructId, { entry: `workers/${entry}`, description, config, environment, timeout });

    const delivery = worker('WebhookDeliveryWorker', 'webhook-delivery.ts', 'One webhook delivery attempt', DELIVERY_ATTEMPT_TIMEOUT);
    const deadLetter = worker('WebhookDeadLetterWorker', 'webhook-dead-letter.ts', 'Records an undeliverable webhook', Duration.seconds(10));
    const dispatch = worker('WebhookDispatchWorker', 'webhook-dispatch.ts', 'Starts one WebhookDelivery per queued event', Duration.seconds(30));
    const refresh = worker('ItemRefreshWorker', 'item-refresh.ts', 'Refreshes one item from its institution', Duration.minutes(2));
    const scheduledRefresh = worker('ScheduledRefreshWorker', 'scheduled-refresh.ts', 'Enqueues periodic item refreshes', Duration.minutes(1));
    this.workers = { dispatch, delivery, deadLetter, refresh, scheduledRefresh };

    // Visibility timeout: six times the consumer's timeout, as AWS recommends for Lambda consumers.
    this.webhookEvents = this.queueWithDlq('WebhookEvents', { fifo: false, visibilityTimeout: Duration.seconds(180) });
    this.itemRefresh = this.queueWithDlq('ItemRefresh', { fifo: true, visibilityTimeout: Duration.minutes(12) });

    this.webhookDelivery = this.stateMachine('WebhookDelivery', config, [delivery, deadLetter], (states) =>
      webhookDeliveryDefinition(states, delivery, deadLetter),
    );
    this.itemRefreshMachine = this.stateMachine('ItemRefresh', config, [refresh], (states) =>
      itemRefreshDefinition(states, refresh),
    );

    // Dispatch may start executions of the delivery machine and nothing else.
    this.webhookDelivery.grantStartExecution(dispatch.role);
    dispatch.fn.addEnvironment('FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN', this.webhookDelivery.stateMachineArn);
    dispatch.fn.addEventSource(
      new SqsEventSource(this.webhookEvents.queue, { batchSize: 10, reportBatchItemFailures: true }),
    );

    refresh.fn.addEventSource(new SqsEventSource(this.itemRefresh.queue, { batchSize: 1 }));

    scheduledRefresh.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.itemRefresh.queue.queueArn] }),
    );
    scheduledRefresh.fn.addEnvironment('FC_ITEM_REFRESH_QUEUE_URL', this.itemRefresh.queue.queueUrl);
    this.refreshSchedule = new events.Rule(this, 'RefreshSchedule', {
      description: `Enqueue item refreshes every ${config.itemRefreshInterval.toHumanString()}`,
      schedule: events.Schedule.rate(config.itemRefreshInterval),
      targets: [new targets.LambdaFunction(scheduledRefresh.fn, { retryAttempts: 2 })],
    });
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
      ...(options.fifo ? { contentBasedDeduplication: true } : {}),
      visibilityTimeout: options.visibilityTimeout,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    return { queue, deadLetterQueue };
  }

  private stateMachine(
    id: string,
    config: StageConfig,
    invokes: FincoreFunction[],
    define: (states: Construct) => sfn.IChainable,
  ): sfn.StateMachine {
    const definition = define(new Construct(this, `${id}States`));
    const logGroup = new logs.LogGroup(this, `${id}Logs`, {
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
      definitionBody: sfn.DefinitionBody.fromChainable(definition),
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
    for (const fn of invokes) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${logicalIdOf(fn)}.Arn>:*]`,
        reason:
          'LambdaInvoke grants lambda:InvokeFunction on the function ARN and "<function ARN>:*" so that versions ' +
          'and aliases of this one worker can be invoked; it covers no other function.',
      });
    }
    return machine;
  }
}

/**
 * Attempt 1 runs at once; attempt n+1 runs WEBHOOK_RETRY_DELAYS_SECONDS[n] seconds after attempt n
 * failed. A failure is anything but `{ delivered: true }`: an error, a timeout or a non-2xx status.
 * After the last failed attempt the webhook is recorded as a dead letter and the execution fails.
 */
function webhookDeliveryDefinition(scope: Construct, delivery: FincoreFunction, deadLetter: FincoreFunction): sfn.IChainable {
  const delivered = new sfn.Succeed(scope, 'Delivered');
  const failed = new sfn.Fail(scope, 'DeliveryFailed', {
    error: 'WebhookUndeliverable',
    cause: `No attempt of ${WEBHOOK_RETRY_DELAYS_SECONDS.length} succeeded`,
  });
  const recordDeadLetter = new tasks.LambdaInvoke(scope, 'RecordDeadLetter', {
    lambdaFunction: deadLetter.fn,
    payload: sfn.TaskInput.fromObject({ 'event.$': '$.event', 'lastAttempt.$': '$.lastAttempt' }),
    payloadResponseOnly: true,
    resultPath: sfn.JsonPath.DISCARD,
    taskTimeout: sfn.Timeout.duration(Duration.seconds(10)),
  });
  recordDeadLetter.addCatch(failed, { resultPath: sfn.JsonPath.DISCARD });
  recordDeadLetter.next(failed);

  // Built from the last attempt backwards so each Choice knows where a failure goes.
  let onFailure: sfn.IChainable = recordDeadLetter;
  let start: sfn.IChainable = recordDeadLetter;
  for (let index = WEBHOOK_RETRY_DELAYS_SECONDS.length - 1; index >= 0; index -= 1) {
    const attempt = index + 1;
    const invoke = new tasks.LambdaInvoke(scope, `Attempt${attempt}`, {
      lambdaFunction: delivery.fn,
      payload: sfn.TaskInput.fromObject({ 'event.$': '$.event', attempt }),
      payloadResponseOnly: true,
      resultPath: '$.lastAttempt',
      taskTimeout: sfn.Timeout.duration(DELIVERY_ATTEMPT_TIMEOUT),
    });
    const check = new sfn.Choice(scope, `Attempt${attempt}Delivered`)
      .when(
        sfn.Condition.and(
          sfn.Condition.isPresent('$.lastAttempt.delivered'),
          sfn.Condition.booleanEquals('$.lastAttempt.delivered', true),
        ),
        delivered,
      )
      .otherwise(onFailure);
    invoke.addCatch(check, { resultPath: '$.lastAttempt' });
    invoke.next(check);

    const delay = WEBHOOK_RETRY_DELAYS_SECONDS[index];
    start =
      delay > 0
        ? new sfn.Wait(scope, `WaitBeforeAttempt${attempt}`, { time: sfn.WaitTime.duration(Duration.seconds(delay)) }).next(invoke)
        : invoke;
    onFailure = start;
  }
  return start;
}

/** One refresh with a few spaced retries; the worker itself is idempotent per item. */
function itemRefreshDefinition(scope: Construct, refresh: FincoreFunction): sfn.IChainable {
  const invoke = new tasks.LambdaInvoke(scope, 'Refresh', {
    lambdaFunction: refresh.fn,
    payloadResponseOnly: true,
    resultPath: '$.refresh',
    taskTimeout: sfn.Timeout.duration(Duration.minutes(2)),
  });
  invoke.addRetry({ errors: ['States.ALL'], maxAttempts: 3, interval: Duration.seconds(30), backoffRate: 2 });
  return invoke.next(new sfn.Succeed(scope, 'Refreshed'));
}

function logicalIdOf(fn: FincoreFunction): string {
  const cfn = fn.fn.node.defaultChild as CfnResource;
  return cfn.stack.getLogicalId(cfn);
}
