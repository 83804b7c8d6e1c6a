// Metrics settings for every function, one dashboard, and the alarms that page: API 5xx rate, API
// p99 latency, Lambda throttles, table throttles, and any message in a dead-letter queue. Alarms notify one
// KMS-encrypted SNS topic.
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TABLE } from '../functions/data/keys';
import type { FincoreFunction } from './fincore-function';
import type { StageConfig } from './stage-config';

/** A math-expression alarm may reference at most 10 metrics. */
const METRICS_PER_EXPRESSION = 10;

export interface ObservabilityProps {
  config: StageConfig;
  restApi: apigw.RestApi;
  functions: FincoreFunction[];
  deadLetterQueues: Record<string, sqs.IQueue>;
  stateMachines: Record<string, sfn.IStateMachine>;
  table: dynamodb.ITableV2;
}

/** The table's throttle metrics: reads and writes of the table and of each index. */
export const TABLE_THROTTLE_METRICS = ['ReadThrottleEvents', 'WriteThrottleEvents'] as const;

export function telemetryNames(stage: string): { serviceName: string; metricsNamespace: string } {
  return { serviceName: 'fincore', metricsNamespace: `Fincore/${stage}` };
}

export class Observability extends Construct {
  readonly alarmTopic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { config } = props;
    const { period, evaluationPeriods } = config.alarms;
    const names = telemetryNames(config.stage);

    for (const fn of props.functions) {
      fn.fn.addEnvironment('POWERTOOLS_SERVICE_NAME', names.serviceName);
      fn.fn.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', names.metricsNamespace);
    }

    // CloudWatch can publish to an encrypted topic only through a customer-managed key whose policy
    // lets the CloudWatch service use it.
    const topicKey = new kms.Key(this, 'AlarmTopicKey', {
      enableKeyRotation: true,
      description: `fincore ${config.stage}: alarm notifications`,
      removalPolicy: config.removalPolicy,
      pendingWindow: Duration.days(7),
    });
    topicKey.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `fincore ${config.stage} alarms`,
      masterKey: topicKey,
      enforceSSL: true,
    });
    // Optional listeners from the stage config: an email address subscribed to the topic, and/or an
    // existing topic (an on-call tool's) that every alarm also notifies directly.
    const subscription = config.alarmSubscription;
    if (subscription?.email) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(subscription.email));
    const alarmActions = [
      new actions.SnsAction(this.alarmTopic),
      ...(subscription?.topicArn ? [new actions.SnsAction(sns.Topic.fromTopicArn(this, 'ExternalAlarmTopic', subscription.topicArn))] : []),
    ];
    type AlarmOptions = Omit<cloudwatch.CreateAlarmOptions, 'evaluationPeriods'> & {
      metric: cloudwatch.Metric | cloudwatch.MathExpression;
      evaluationPeriods?: number;
    };
    const alarm = (alarmId: string, { metric, ...options }: AlarmOptions) => {
      const created = metric.createAlarm(this, alarmId, {
        alarmName: `fincore-${config.stage}-${alarmId}`,
        evaluationPeriods,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...options,
      });
      created.addAlarmAction(...alarmActions);
      created.addOkAction(...alarmActions);
      this.alarms.push(created);
      return created;
    };

    // --- API ---
    const api5xxRate = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: props.restApi.metricServerError({ statistic: 'Sum', period }),
        requests: props.restApi.metricCount({ statistic: 'Sum', period }),
      },
      label: 'API 5xx rate (%)',
      period,
    });
    const apiP99 = props.restApi.metricLatency({ statistic: 'p99', period, label: 'API latency p99 (ms)' });
    alarm('Api5xxRate', {
      metric: api5xxRate,
      threshold: config.alarms.api5xxRatePercent,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      alarmDescription: `More than ${config.alarms.api5xxRatePercent}% of API requests answered 5xx`,
    });
    alarm('ApiLatencyP99', {
      metric: apiP99,
      threshold: config.alarms.apiLatencyP99Ms,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      alarmDescription: `API p99 latency above ${config.alarms.apiLatencyP99Ms} ms`,
    });

    // --- Lambda throttles: summed per group of functions (math-expression limit) ---
    const throttleGroups: cloudwatch.MathExpression[] = [];
    for (let start = 0; start < props.functions.length; start += METRICS_PER_EXPRESSION) {
      const group = props.functions.slice(start, start + METRICS_PER_EXPRESSION);
      const usingMetrics = Object.fromEntries(
        group.map((fn, index) => [`t${start + index}`, fn.fn.metricThrottles({ statistic: 'Sum', period })]),
      );
      throttleGroups.push(
        new cloudwatch.MathExpression({
          expression: Object.keys(usingMetrics).join(' + '),
          usingMetrics,
          label: `Lambda throttles (functions ${start + 1}-${start + group.length})`,
          period,
        }),
      );
    }
    throttleGroups.forEach((metric, index) =>
      alarm(`LambdaThrottles${index + 1}`, {
        metric,
        threshold: config.alarms.lambdaThrottles,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `Lambda throttles in function group ${index + 1} reached ${config.alarms.lambdaThrottles}`,
      }),
    );

    // --- Table throttles: throttle events (one per item a request could not read or write for
    // capacity: provisioned capacity autoscaling has not caught up, or a hot partition), of the table
    // and of each index, summed. Sparse metrics: a period without events counts as 0. ---
    const throttleMetrics: Record<string, cloudwatch.Metric> = {};
    for (const index of [undefined, ...TABLE.globalIndexes.map((i) => i.indexName)]) {
      for (const metricName of TABLE_THROTTLE_METRICS) {
        throttleMetrics[`d${Object.keys(throttleMetrics).length}`] = new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap: { TableName: props.table.tableName, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
          statistic: 'Sum',
          period,
        });
      }
    }
    if (Object.keys(throttleMetrics).length > METRICS_PER_EXPRESSION) {
      throw new Error(`TableThrottles would sum ${Object.keys(throttleMetrics).length} metrics; one alarm takes ${METRICS_PER_EXPRESSION}: split it by index`);
    }
    const tableThrottles = new cloudwatch.MathExpression({
      expression: Object.keys(throttleMetrics).map((id) => `FILL(${id}, 0)`).join(' + '),
      usingMetrics: throttleMetrics,
      label: 'Table throttle events',
      period,
    });
    alarm('TableThrottles', {
      metric: tableThrottles,
      threshold: config.alarms.tableThrottleEvents,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 2,
      alarmDescription: `DynamoDB throttled at least ${config.alarms.tableThrottleEvents} reads or writes of items in each of two periods (${config.tableCapacity.mode} capacity)`,
    });

    // --- Dead-letter queues: any message is an incident ---
    const dlqDepth = Object.entries(props.deadLetterQueues).map(([name, queue]) => {
      const metric = queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period, label: name });
      alarm(`${name}DlqDepth`, {
        metric,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        alarmDescription: `Messages are waiting in the ${name} dead-letter queue`,
      });
      return metric;
    });

    const machineFailures = Object.entries(props.stateMachines).map(([name, machine]) =>
      machine.metricFailed({ statistic: 'Sum', period, label: `${name} failed` }),
    );

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `fincore-${config.stage}`,
      defaultInterval: Duration.hours(6),
    });
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'API 5xx rate (%)', left: [api5xxRate], width: 12 }),
      new cloudwatch.GraphWidget({ title: 'API latency p99 (ms)', left: [apiP99], width: 12 }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Lambda throttles', left: throttleGroups, stacked: true, width: 6 }),
      new cloudwatch.GraphWidget({ title: 'Table throttle events', left: [tableThrottles], width: 6 }),
      new cloudwatch.GraphWidget({ title: 'Dead-letter queue depth', left: dlqDepth, width: 6 }),
      new cloudwatch.GraphWidget({ title: 'State machine failures', left: machineFailures, width: 6 }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }),
    );
  }
}
