// CDK assertions on the synthesized stack, for both stages: every route has exactly one function and
// one method per alias path; grants are the least each route kind needs; the table, queues, state
// machines and alarms are shaped as designed; cdk-nag's AwsSolutions pack has no unacknowledged
// finding and every acknowledgement says why.
import { App, type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { ROUTES, aliasPaths } from '../../functions/contracts/routes';
import { TABLE } from '../../functions/data/keys';
import { API_VERSION } from '../../functions/contracts/schemas';
import { AUTH_AND_METER_ACTIONS, TABLE_KEY_ACTIONS, tableAccessFor } from '../../lib/api-grants';
import { invokeSourcePath } from '../../lib/api-construct';
import { MAX_RECEIVE_COUNT, WEBHOOK_RETRY_DELAYS_SECONDS } from '../../lib/async-jobs-construct';
import { addFincoreStack } from '../../lib/fincore-app';
import type { FincoreFunction } from '../../lib/fincore-function';
import type { FincoreStack } from '../../lib/fincore-stack';
import { STAGES, parseStage, stageConfig, type Stage } from '../../lib/stage-config';
import {
  apiMethods,
  ofType,
  referencedLogicalIds,
  resolveIntrinsics,
  roleStatements,
  type Resources,
} from './template-helpers';

// asl-validator ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const aslValidator: (definition: unknown) => { isValid: boolean; errorsText: (separator?: string) => string } = require('asl-validator');

const ENV = { account: '111111111111', region: 'us-east-1' };
const WORKER_COUNT = 5;

interface Synthesized {
  stage: Stage;
  app: App;
  stack: FincoreStack;
  template: Template;
  resources: Resources;
}

function synthesize(stage: Stage): Synthesized {
  // Bundling is skipped: these tests read the template, not the code assets.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = addFincoreStack(app, stage, ENV);
  // Synthesis runs the cdk-nag validation plugin and throws on any unacknowledged finding.
  const template = Template.fromStack(stack);
  return { stage, app, stack, template, resources: template.toJSON().Resources };
}

/** Logical id of a construct's CloudFormation resource. */
const cfnId = (stack: Stack, construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const logicalId = (stack: Stack, fn: FincoreFunction) => cfnId(stack, fn.fn);
const roleLogicalId = (stack: Stack, fn: FincoreFunction) => cfnId(stack, fn.role);

const built = new Map<Stage, Synthesized>();
beforeAll(() => {
  for (const stage of STAGES) built.set(stage, synthesize(stage));
});
const get = (stage: Stage) => built.get(stage)!;

describe.each(STAGES)('the %s stack', (stage) => {
  describe('API routes', () => {
    it('gives every route exactly one function of its own, and one method per alias path bound to it', () => {
      const { stack, resources } = get(stage);
      const methods = apiMethods(resources);
      const fallbackId = logicalId(stack, stack.api.fallback);
      const routeFunctionIds = new Set<string>();

      for (const route of ROUTES) {
        const fn = stack.api.routeFunctions.get(route.id);
        expect(fn).toBeDefined();
        const fnId = logicalId(stack, fn!);
        routeFunctionIds.add(fnId);

        const expected = aliasPaths(route).map((path) => `${route.method} ${path}`).sort();
        const bound = methods.filter((m) => m.functionLogicalId === fnId).map((m) => `${m.httpMethod} ${m.path}`).sort();
        expect(bound).toEqual(expected);
        for (const path of aliasPaths(route)) {
          expect(methods.filter((m) => m.path === path && m.httpMethod === route.method)).toHaveLength(1);
        }
      }
      // No two routes share a function.
      expect(routeFunctionIds.size).toBe(ROUTES.length);

      // Every other method is an ANY bound to the fallback; nothing else reaches a function.
      const rest = methods.filter((m) => !routeFunctionIds.has(m.functionLogicalId));
      expect(rest.every((m) => m.functionLogicalId === fallbackId && m.httpMethod === 'ANY')).toBe(true);
      expect(methods.every((m) => m.integrationType === 'AWS_PROXY')).toBe(true);
    });

    it('sends unknown paths and wrong methods on route paths to the one fallback function', () => {
      const { stack, resources } = get(stage);
      const methods = apiMethods(resources);
      const fallbackId = logicalId(stack, stack.api.fallback);
      const anyPaths = new Set(methods.filter((m) => m.httpMethod === 'ANY' && m.functionLogicalId === fallbackId).map((m) => m.path));
      expect(anyPaths.has('/')).toBe(true);
      expect(anyPaths.has('/{proxy+}')).toBe(true);
      for (const route of ROUTES) for (const path of aliasPaths(route)) expect(anyPaths.has(path)).toBe(true);
    });

    it('lets API Gateway invoke a route function only through that route method and its alias paths', () => {
      const { stack, resources } = get(stage);
      for (const route of ROUTES) {
        const fnId = logicalId(stack, stack.api.routeFunctions.get(route.id)!);
        const permissions = ofType(resources, 'AWS::Lambda::Permission').filter(([, p]) =>
          referencedLogicalIds(p.FunctionName).includes(fnId),
        );
        expect(permissions).toHaveLength(1);
        const sourceArn = String(resolveIntrinsics(permissions[0][1].SourceArn));
        expect(sourceArn.endsWith(`/*/${route.method}${invokeSourcePath(route)}`)).toBe(true);
        const pattern = new RegExp(
          `^${sourceArn.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
        );
        for (const path of aliasPaths(route)) {
          expect(sourceArn.replace(/\/\*\/.*$/, `/${stage}/${route.method}${path}`)).toMatch(pattern);
        }
      }
    });

    it('has one function per route, plus the fallback and the workers, all arm64 nodejs22.x with active tracing', () => {
      const { template, resources } = get(stage);
      template.resourceCountIs('AWS::Lambda::Function', ROUTES.length + 1 + WORKER_COUNT);
      for (const [, fn] of ofType(resources, 'AWS::Lambda::Function')) {
        expect(fn.Runtime).toBe('nodejs22.x');
        expect(fn.Architectures).toEqual(['arm64']);
        expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
        expect(fn.Handler).toBe('index.handler');
        expect(fn.LoggingConfig.LogGroup).toBeDefined();
        expect(Object.keys(fn.Environment.Variables)).toEqual(
          expect.arrayContaining([
            'FC_TABLE_NAME',
            'FC_STAGE',
            'POWERTOOLS_SERVICE_NAME',
            'POWERTOOLS_METRICS_NAMESPACE',
            'NODE_OPTIONS',
          ]),
        );
        expect(fn.Environment.Variables.FC_STAGE).toBe(stage);
        expect(fn.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
      }
    });

    it('logs every request as JSON keyed by request id, traces, and throttles per stage config', () => {
      const { template } = get(stage);
      const config = stageConfig(stage);
      template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: stage,
        TracingEnabled: true,
        AccessLogSetting: { Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
        MethodSettings: Match.arrayWith([
          Match.objectLike({
            ResourcePath: '/*',
            HttpMethod: '*',
            LoggingLevel: 'ERROR',
            ThrottlingRateLimit: config.apiThrottle.rateLimit,
            ThrottlingBurstLimit: config.apiThrottle.burstLimit,
          }),
        ]),
      });
    });

    it('answers gateway-level errors with the error envelope, FC-Version and X-Request-Id', () => {
      const { resources } = get(stage);
      const responses = new Map(ofType(resources, 'AWS::ApiGateway::GatewayResponse').map(([, p]) => [p.ResponseType, p]));
      for (const type of ['DEFAULT_4XX', 'DEFAULT_5XX', 'MISSING_AUTHENTICATION_TOKEN', 'THROTTLED', 'REQUEST_TOO_LARGE']) {
        expect(responses.has(type)).toBe(true);
      }
      expect(responses.get('MISSING_AUTHENTICATION_TOKEN').StatusCode).toBe('404');
      expect(responses.get('THROTTLED').StatusCode).toBe('429');
      for (const response of responses.values()) {
        expect(response.ResponseParameters['gatewayresponse.header.FC-Version']).toBe(`'${API_VERSION}'`);
        expect(response.ResponseParameters['gatewayresponse.header.X-Request-Id']).toBe('context.requestId');
        const body = JSON.parse(
          response.ResponseTemplates['application/json']
            .replace('$context.error.messageString', '"Forbidden"')
            .replace('$context.requestId', 'req-1'),
        );
        expect(Object.keys(body)).toEqual(['error']);
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id', 'type']);
        expect(body.error.request_id).toBe('req-1');
      }
    });
  });

  describe('least-privilege grants', () => {
    const dynamoActions = (statements: ReturnType<typeof roleStatements>) =>
      statements.flatMap((s) => s.actions).filter((a) => a.startsWith('dynamodb:'));

    it.each(ROUTES.map((r) => [r.id, r] as const))('%s gets exactly the table access its route kind needs', (_id, route) => {
      const { stack, resources } = get(stage);
      const fn = stack.api.routeFunctions.get(route.id)!;
      const statements = roleStatements(resources, roleLogicalId(stack, fn));
      const tableId = cfnId(stack, stack.data.table);
      const keyId = cfnId(stack, stack.data.tableKey);

      switch (tableAccessFor(route)) {
        case 'none':
          expect(dynamoActions(statements)).toEqual([]);
          expect(statements.flatMap((s) => s.actions).filter((a) => a.startsWith('kms:'))).toEqual([]);
          break;
        case 'auth-and-meter': {
          expect(dynamoActions(statements)).toEqual([...AUTH_AND_METER_ACTIONS]);
          const tableStatement = statements.find((s) => s.actions.some((a) => a.startsWith('dynamodb:')))!;
          expect(tableStatement.resources).toEqual([{ 'Fn::GetAtt': [tableId, 'Arn'] }]);
          const kms = statements.filter((s) => s.actions.some((a) => a.startsWith('kms:')));
          expect(kms.flatMap((s) => s.actions).sort()).toEqual([...TABLE_KEY_ACTIONS].sort());
          expect(kms.flatMap((s) => s.resources)).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
          break;
        }
        case 'read-write':
          expect(dynamoActions(statements)).toEqual(
            expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']),
          );
          break;
      }
    });

    it('uses no managed policies on function roles and grants "*" only for X-Ray', () => {
      const { stack, resources } = get(stage);
      const functions = [...stack.api.routeFunctions.values(), stack.api.fallback, ...Object.values(stack.jobs.workers)];
      for (const fn of functions) {
        const roleId = roleLogicalId(stack, fn);
        expect(resources[roleId].Properties?.ManagedPolicyArns).toBeUndefined();
        for (const statement of roleStatements(resources, roleId)) {
          if (statement.resources.includes('*')) {
            expect(statement.actions.every((a) => a.startsWith('xray:'))).toBe(true);
          }
        }
      }
    });

    it('lets the dispatch worker start only the delivery machine and the scheduler only send to the refresh queue', () => {
      const { stack, resources } = get(stage);
      const { dispatch, scheduledRefresh } = stack.jobs.workers;
      const machineId = cfnId(stack, stack.jobs.webhookDelivery);
      const start = roleStatements(resources, roleLogicalId(stack, dispatch)).filter((s) => s.actions.some((a) => a.startsWith('states:')));
      expect(start).toEqual([{ actions: ['states:StartExecution'], resources: [{ Ref: machineId }] }]);

      const queueId = cfnId(stack, stack.jobs.itemRefresh.queue);
      const send = roleStatements(resources, roleLogicalId(stack, scheduledRefresh)).filter((s) => s.actions.some((a) => a.startsWith('sqs:')));
      expect(send).toEqual([{ actions: ['sqs:SendMessage'], resources: [{ 'Fn::GetAtt': [queueId, 'Arn'] }] }]);
    });
  });

  describe('data', () => {
    it('builds the table from TABLE: keys, GSI, TTL, PITR, on-demand, customer-managed KMS key', () => {
      const { template, stack } = get(stage);
      const keyId = cfnId(stack, stack.data.tableKey);
      template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE.globalIndexes.map((index) =>
          Match.objectLike({
            IndexName: index.indexName,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
          }),
        ),
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
        Replicas: [
          Match.objectLike({
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
            SSESpecification: { KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } },
          }),
        ],
      });
    });

    it('rotates every KMS key', () => {
      const { resources } = get(stage);
      const keys = ofType(resources, 'AWS::KMS::Key');
      expect(keys.length).toBeGreaterThanOrEqual(3);
      for (const [, key] of keys) expect(key.EnableKeyRotation).toBe(true);
    });
  });

  describe('async jobs', () => {
    it('gives every working queue a dead-letter queue, SSE and SSL-only access; the refresh queue is FIFO', () => {
      const { stack, resources } = get(stage);
      const queues = ofType(resources, 'AWS::SQS::Queue');
      const working = queues.filter(([, q]) => q.RedrivePolicy);
      expect(working).toHaveLength(2);
      for (const [, queue] of working) {
        expect(queue.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVE_COUNT);
        expect(resources[referencedLogicalIds(queue.RedrivePolicy.deadLetterTargetArn)[0]].Type).toBe('AWS::SQS::Queue');
      }
      for (const [id, queue] of queues) {
        expect(queue.SqsManagedSseEnabled).toBe(true);
        const policies = ofType(resources, 'AWS::SQS::QueuePolicy').filter(([, p]) => referencedLogicalIds(p.Queues).includes(id));
        expect(JSON.stringify(policies.map(([, p]) => p.PolicyDocument))).toContain('"aws:SecureTransport":"false"');
      }
      const refresh = resources[cfnId(stack, stack.jobs.itemRefresh.queue)].Properties!;
      expect(refresh.FifoQueue).toBe(true);
      expect(refresh.ContentBasedDeduplication).toBe(true);
    });

    it('feeds the dispatch and refresh workers from their queues and schedules refreshes at the stage interval', () => {
      const { stack, resources, template } = get(stage);
      const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping').map(([, m]) => [
        referencedLogicalIds(m.EventSourceArn)[0],
        referencedLogicalIds(m.FunctionName)[0],
      ]);
      const queueId = (q: sqs.Queue) => cfnId(stack, q);
      expect(mappings).toEqual(
        expect.arrayContaining([
          [queueId(stack.jobs.webhookEvents.queue), logicalId(stack, stack.jobs.workers.dispatch)],
          [queueId(stack.jobs.itemRefresh.queue), logicalId(stack, stack.jobs.workers.refresh)],
        ]),
      );
      const hours = stageConfig(stage).itemRefreshInterval.toHours();
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `rate(${hours} ${hours === 1 ? 'hour' : 'hours'})`,
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack, stack.jobs.workers.scheduledRefresh), 'Arn'] } })],
      });
    });

    it('defines a valid WebhookDelivery machine that retries at the schedule, then records a dead letter', () => {
      const { stack, resources } = get(stage);
      const machine = resources[cfnId(stack, stack.jobs.webhookDelivery)].Properties!;
      expect(machine.LoggingConfiguration.Level).toBe('ALL');
      expect(machine.TracingConfiguration).toEqual({ Enabled: true });

      const definition = JSON.parse(String(resolveIntrinsics(machine.DefinitionString)));
      const validation = aslValidator(definition);
      expect(validation.errorsText('\n')).toBe('');
      expect(validation.isValid).toBe(true);

      const deliveryArn = `function:${logicalId(stack, stack.jobs.workers.delivery)}`;
      const deadLetterArn = `function:${logicalId(stack, stack.jobs.workers.deadLetter)}`;
      // Follow the failure path: every Choice's Default, every other state's Next.
      const delays: number[] = [];
      let pending = 0;
      let name: string | undefined = definition.StartAt;
      const visited: string[] = [];
      while (name) {
        const state = definition.States[name];
        visited.push(name);
        if (state.Type === 'Wait') pending += state.Seconds;
        if (state.Type === 'Task' && state.Resource.endsWith(deliveryArn)) {
          expect(state.TimeoutSeconds).toBe(10);
          delays.push(pending);
          pending = 0;
        }
        name = state.Type === 'Choice' ? state.Default : state.Next;
        if (state.Type === 'Choice') {
          expect(state.Choices.map((c: { Next: string }) => definition.States[c.Next].Type)).toEqual(['Succeed']);
        }
      }
      expect(delays).toEqual([...WEBHOOK_RETRY_DELAYS_SECONDS]);
      const [recordDeadLetter, last] = visited.slice(-2).map((n) => definition.States[n]);
      expect(recordDeadLetter.Resource.endsWith(deadLetterArn)).toBe(true);
      expect(last.Type).toBe('Fail');
    });

    it('defines a valid ItemRefresh machine that retries the refresh worker', () => {
      const { stack, resources } = get(stage);
      const machine = resources[cfnId(stack, stack.jobs.itemRefreshMachine)].Properties!;
      const definition = JSON.parse(String(resolveIntrinsics(machine.DefinitionString)));
      expect(aslValidator(definition).isValid).toBe(true);
      const task = definition.States[definition.StartAt];
      expect(task.Resource.endsWith(`function:${logicalId(stack, stack.jobs.workers.refresh)}`)).toBe(true);
      expect(task.Retry.some((r: { ErrorEquals: string[] }) => r.ErrorEquals.includes('States.ALL'))).toBe(true);
    });
  });

  describe('observability', () => {
    it('alarms on API 5xx rate, p99 latency, throttles of every function, and each DLQ, to an encrypted topic', () => {
      const { stack, resources } = get(stage);
      const alarms = ofType(resources, 'AWS::CloudWatch::Alarm').map(([, a]) => a);
      const metricNames = (alarm: any) =>
        [alarm.MetricName, ...(alarm.Metrics ?? []).map((m: any) => m.MetricStat?.Metric.MetricName)].filter(Boolean);
      const topicId = cfnId(stack, stack.observability.alarmTopic);

      const fiveXx = alarms.filter((a) => metricNames(a).includes('5XXError'));
      expect(fiveXx).toHaveLength(1);
      expect(fiveXx[0].Metrics.find((m: any) => m.Expression).Expression).toMatch(/errors \/ requests/);
      expect(metricNames(fiveXx[0])).toContain('Count');

      const latency = alarms.filter((a) => metricNames(a).includes('Latency'));
      expect(latency.map((a) => a.Metrics[0].MetricStat.Stat)).toEqual(['p99']);

      const throttled = new Set(
        alarms
          .filter((a) => metricNames(a).includes('Throttles'))
          .flatMap((a) => a.Metrics.filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat.Metric.Dimensions[0].Value.Ref)),
      );
      expect(throttled.size).toBe(ROUTES.length + 1 + WORKER_COUNT);

      const dlqIds = [stack.jobs.webhookEvents.deadLetterQueue, stack.jobs.itemRefresh.deadLetterQueue].map((q) => cfnId(stack, q));
      for (const dlqId of dlqIds) {
        const depth = alarms.filter((a) => referencedLogicalIds(a.Metrics).includes(dlqId));
        expect(depth).toHaveLength(1);
        expect(depth[0].Threshold).toBe(0);
        expect(depth[0].ComparisonOperator).toBe('GreaterThanThreshold');
      }

      for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(resources[topicId].Properties!.KmsMasterKeyId).toBeDefined();
    });

    it('has a dashboard', () => {
      get(stage).template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    });
  });

  describe('cdk-nag AwsSolutions', () => {
    it('synthesizes with no unacknowledged finding and no error annotation', () => {
      const { app, stack } = get(stage);
      // Template.fromStack already synthesized with the plugin (it throws on findings); run the
      // pack directly too, so a failure lists the findings.
      const report = new AwsSolutionsChecks().validateScope(app);
      expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
      expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
    });

    it('gives every acknowledgement a specific reason and never acknowledges at stack or app level', () => {
      const { app } = get(stage);
      const acknowledgements: { path: string; id: string; reason: string; node: IConstruct }[] = [];
      for (const node of app.node.findAll()) {
        for (const entry of node.node.metadata) {
          if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
          for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
            acknowledgements.push({ path: node.node.path, id, reason, node });
          }
        }
      }
      expect(acknowledgements.length).toBeGreaterThan(0);
      for (const ack of acknowledgements) {
        expect({ id: ack.id, reasonLength: ack.reason.length >= 30 }).toEqual({ id: ack.id, reasonLength: true });
        expect(Stack.isStack(ack.node) || ack.node === app).toBe(false);
      }
    });
  });
});

describe('cdk-nag acknowledgements', () => {
  it('each silences a finding that really exists on its construct (no stale acknowledgements)', () => {
    const { app } = get('sandbox');
    // The same pack with acknowledgements ignored (isAcknowledged is cdk-nag's internal hook).
    const pack = new AwsSolutionsChecks();
    (pack as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
    const findings = pack
      .validateScope(app)
      .violations.flatMap((v) => v.violatingResources.map((r) => ({ id: v.ruleName, path: r.constructPath ?? '' })));
    const stale: string[] = [];
    for (const node of app.node.findAll()) {
      for (const entry of node.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const key of Object.keys(entry.data as Record<string, string>)) {
          const id = key.replace(/^annotation::/i, '');
          const path = node.node.path;
          if (!findings.some((f) => f.id === id && (f.path === path || f.path.startsWith(`${path}/`)))) stale.push(`${path}: ${id}`);
        }
      }
    }
    expect(stale).toEqual([]);
  });
});

describe('stage differences', () => {
  it('retains production data and deletes sandbox data', () => {
    const policy = (stage: Stage) =>
      ofType(get(stage).resources, 'AWS::DynamoDB::GlobalTable').map(([id]) => get(stage).resources[id].DeletionPolicy);
    expect(policy('sandbox')).toEqual(['Delete']);
    expect(policy('production')).toEqual(['Retain']);
    get('production').template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })],
    });
  });

  it('keeps each stage well inside the CloudFormation resource limit', () => {
    for (const stage of STAGES) expect(Object.keys(get(stage).resources).length).toBeLessThan(480);
  });
});

describe('stage parsing', () => {
  it('accepts sandbox and production and explains anything else', () => {
    expect(parseStage('sandbox')).toBe('sandbox');
    expect(parseStage('production')).toBe('production');
    expect(() => parseStage(undefined)).toThrow(/-c stage=sandbox\|production \(got nothing\)/);
    expect(() => parseStage('prod')).toThrow(/got "prod"/);
  });
});

describe('cdk-nag wiring', () => {
  it('fails synthesis when a resource breaks an AwsSolutions rule', () => {
    const app = new App();
    const stack = new Stack(app, 'Probe', { env: ENV });
    new sqs.Queue(stack, 'NoDlq');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS3/);
  });
});
