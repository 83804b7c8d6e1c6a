// CDK assertions on the synthesized app, for both stages: every route has exactly one function and
// one method per alias path, wired from a nested stack per route tag; grants and FC_* variables
// follow each route's auth mode, `dataAccess`, id and tag (routeAccessFor) and each worker's
// WORKER_ACCESS; the table, queues, state machines and alarms are shaped as designed;
// every stack stays well inside CloudFormation's resource limit, also with a much larger route
// table; cdk-nag's AwsSolutions pack has no unacknowledged finding (nested stacks included) and
// every acknowledgement says why.
//
// The parent template and the nested templates are read as one (template-helpers.flattenTemplates):
// a nested resource is keyed `<nested stack logical id>/<logical id>` and parameters are replaced by
// what the parent passes, so references across stacks compare like references within one.
import { App, type CfnElement, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { ROUTES, aliasPaths, routeById, type Route } from '../../functions/contracts/routes';
import { TABLE } from '../../functions/data/keys';
import { API_VERSION } from '../../functions/contracts/schemas';
import { STAGE_REFRESH_CADENCE } from '../../functions/core/refresh-schedule';
import {
  API_KEY_PARTITIONS,
  AUTH_AND_METER_GRANTS,
  ENV_VARS,
  EVENT_PARTITIONS,
  ROUTE_CAPABILITIES,
  ROUTE_INVOCATIONS,
  ROUTE_ROWS,
  ROW_FAMILIES,
  SECRETS_KEY_ACTIONS,
  SECRETS_KEY_CONDITIONS,
  DELIVERY_SIGNING_KEY_CONDITIONS,
  PLAID_WEBHOOK_KEY_PURPOSE,
  TABLE_KEY_ACTIONS,
  PROVIDER_SECRET_PURPOSE,
  WEBHOOK_SECRET_PURPOSE,
  routeAccessFor,
  routeSecretsKeyConditions,
  secretsKeyConditions,
  tableAccessFor,
  tableGrantsFor,
  wholeTableReason,
} from '../../lib/api-grants';
import type { ApiRouteOptions } from '../../lib/api-construct';
import { pathParameterName, planApi, routeStackId } from '../../lib/api-layout';
import { invokeSourcePath, routeStackParameters } from '../../lib/api-route-stack';
import { MAX_RECEIVE_COUNT, WEBHOOK_RETRY_DELAYS_SECONDS, WORKER_ACCESS, type WorkerName } from '../../lib/async-jobs-construct';
import { addFincoreStack } from '../../lib/fincore-app';
import type { FincoreFunction } from '../../lib/fincore-function';
import type { FincoreStack } from '../../lib/fincore-stack';
import { overridesFromContext, parseStage, PROVISIONED_TABLE_CAPACITY, stageConfig, type StageSettings } from '../../lib/stage-config';
import { TABLE_THROTTLE_METRICS } from '../../lib/observability-construct';
import { AI_MODEL_BY_STAGE, DEPLOYED_STAGES as STAGES, type DeployedStage as Stage } from '../../functions/contracts/stages';
import {
  DEAD_LETTER_TIMEOUT_SECONDS,
  DEAD_LETTER_TASK_TIMEOUT_SECONDS,
  DELIVERY_ATTEMPT_TIMEOUT_SECONDS,
  DELIVERY_WORKER_TIMEOUT_SECONDS,
  DISPATCH_WORKER_TIMEOUT_SECONDS,
  LAMBDA_THROTTLED,
  NEXT_ATTEMPT_STATE,
  webhookDeliveryAsl,
} from '../../functions/workers/state-machines';
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from '../../functions/contracts/worker-messages';
import { LIMITS, PLANS } from '../../functions/contracts/limits';
import { ACCESS_LOG_FIELDS, MIN_COMPRESSION_SIZE } from '../../lib/api-construct';
import { KEY_ROUTE_PREFIXES, WAF_WINDOW_SECONDS, WELL_FORMED_AUTHORIZATION, largestPlanRequestsPerWindow } from '../../lib/api-firewall';
import { VENDED_STATES_LOG_PREFIX } from '../../lib/async-jobs-construct';
import { API_KEY_PATTERN } from '../../functions/core/api-keys';
import { createAwsPorts } from '../../functions/platform/aws-ports';
import { AwsJsonFake, FAKE_CREDENTIALS } from '../support/aws-json-fake';
import { configFromEnv } from '../../functions/platform/runtime';
import { consoleIdentityFromEnv } from '../../functions/platform/console-identity';
import {
  apiMethods,
  apiResourcePaths,
  flattenTemplates,
  ofType,
  referencedLogicalIds,
  resolveIntrinsics,
  roleStatements,
  type Resources,
  type Statement,
  type TemplateJson,
} from './template-helpers';

// asl-validator ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const aslValidator: (definition: unknown) => { isValid: boolean; errorsText: (separator?: string) => string } = require('asl-validator');

const ENV = { account: '111111111111', region: 'us-east-1' };
const WORKER_COUNT = 5;
/** Fail well before CloudFormation's 500 resources per stack. */
const RESOURCE_BUDGET = 450;

interface Synthesized {
  stage: Stage;
  app: App;
  stack: FincoreStack;
  /** The parent stack's template. */
  template: Template;
  nested: { stack: NestedStack; template: Template }[];
  /** Parent and nested templates read as one (see flattenTemplates). */
  resources: Resources;
}

function synthesize(stage: Stage, routeOptions?: ApiRouteOptions, overrides?: StageSettings): Synthesized {
  // Bundling is skipped: these tests read the templates, not the code assets.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = addFincoreStack(app, stage, ENV, routeOptions, overrides);
  // Synthesis runs the cdk-nag validation plugin and throws on any unacknowledged finding.
  const template = Template.fromStack(stack);
  const nested = stack.node
    .findAll()
    .filter((c): c is NestedStack => NestedStack.isNestedStack(c))
    .map((n) => ({ stack: n, template: Template.fromStack(n) }));
  const resources = flattenTemplates(
    template.toJSON(),
    nested.map((n) => ({ logicalId: stack.getLogicalId(n.stack.nestedStackResource as CfnElement), template: n.template.toJSON() })),
  );
  return { stage, app, stack, template, nested, resources };
}

/** Key of a construct's CloudFormation resource in the flattened resources. */
function cfnId(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  const stack = Stack.of(element);
  const id = stack.getLogicalId(element);
  if (!NestedStack.isNestedStack(stack)) return id;
  const resource = stack.nestedStackResource as CfnElement;
  return `${Stack.of(resource).getLogicalId(resource)}/${id}`;
}
const logicalId = (fn: FincoreFunction) => cfnId(fn.fn);
const roleLogicalId = (fn: FincoreFunction) => cfnId(fn.role);
const resourceCount = (template: Template) => Object.keys(template.toJSON().Resources).length;

const built = new Map<Stage, Synthesized>();
beforeAll(() => {
  for (const stage of STAGES) built.set(stage, synthesize(stage));
});
const get = (stage: Stage) => built.get(stage)!;

/** The hosted Link page, its SDK and the page's own API: not under /v1, so one path each. */
const LINK_PAGE_ROUTES: Record<string, string> = {
  'link.page': 'GET /link',
  'link.sdk': 'GET /link/sdk.js',
  'link.session': 'POST /link/api/session',
  'link.institutions': 'POST /link/api/institutions',
  'link.connect': 'POST /link/api/connect',
  'link.mfa': 'POST /link/api/mfa',
  'link.method': 'POST /link/api/method',
  'link.consent': 'POST /link/api/consent',
  'link.upload': 'POST /link/api/upload',
  'link.oauth.start': 'POST /link/api/oauth/start',
  'link.oauth.complete': 'POST /link/api/oauth/complete',
  'link.oauth.callback': 'GET /link/oauth/callback',
  'link.oauth.resume': 'POST /link/api/oauth/resume',
  'link.accounts.select': 'POST /link/api/accounts/select',
  'link.sandbox.oauth.authorize': 'GET /link/sandbox/oauth/authorize',
  'link.sandbox.oauth.decide': 'POST /link/sandbox/oauth/authorize',
};

describe('API layout plan', () => {
  it('puts every route into the nested stack of its tag, exactly once', () => {
    const plan = planApi(ROUTES);
    const placed = plan.stacks.flatMap((s) => s.routes.map((r) => `${s.id}:${r.id}`)).sort();
    expect(placed).toEqual(ROUTES.map((r) => `${routeStackId(r)}:${r.id}`).sort());
  });

  it('keeps only the path segments shared by several route stacks in the parent', () => {
    // A new entry here means a route of another tag now sits below a path that used to belong to a
    // single route stack: that API Gateway resource moves to the parent, and CloudFormation would
    // create the new one before deleting the old. Deploy such a change in two steps (see docs/stack.md).
    expect(planApi(ROUTES).sharedPaths).toEqual(['/api', '/api/v1', '/v1']);
  });

  it('gives every route path its ANY fallback in exactly one stack', () => {
    const plan = planApi(ROUTES);
    const fallbackPaths = plan.stacks.flatMap((s) => s.fallbackPaths).sort();
    expect(fallbackPaths).toEqual([...new Set(ROUTES.flatMap(aliasPaths))].sort());
  });
});

describe.each(STAGES)('the %s stack', (stage) => {
  describe('API routes', () => {
    it('gives every route exactly one function of its own, and one method per alias path bound to it', () => {
      const { stack, resources } = get(stage);
      const methods = apiMethods(resources);
      const fallbackId = logicalId(stack.api.fallback);
      const routeFunctionIds = new Set<string>();

      for (const route of ROUTES) {
        const fn = stack.api.routeFunctions.get(route.id);
        expect(fn).toBeDefined();
        const fnId = logicalId(fn!);
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

    it('wires the hosted Link page, its SDK and its API at their one path each', () => {
      const { stack, resources } = get(stage);
      const methods = apiMethods(resources);
      const linkRoutes = ROUTES.filter((r) => r.tag === 'Hosted Link');
      expect(linkRoutes.map((r) => r.id).sort()).toEqual(Object.keys(LINK_PAGE_ROUTES).sort());
      for (const route of linkRoutes) {
        expect(aliasPaths(route)).toEqual([route.path]);
        const fnId = logicalId(stack.api.routeFunctions.get(route.id)!);
        expect(methods.filter((m) => m.functionLogicalId === fnId).map((m) => `${m.httpMethod} ${m.path}`)).toEqual([
          LINK_PAGE_ROUTES[route.id],
        ]);
        expect(methods.some((m) => m.path === route.path && m.httpMethod === 'ANY')).toBe(true);
      }
    });

    it('sends unknown paths and wrong methods on route paths to the one fallback function', () => {
      const { stack, resources } = get(stage);
      const methods = apiMethods(resources);
      const fallbackId = logicalId(stack.api.fallback);
      const anyMethods = methods.filter((m) => m.httpMethod === 'ANY' && m.functionLogicalId === fallbackId);
      const anyPaths = new Set(anyMethods.map((m) => m.path));
      expect(anyPaths.has('/')).toBe(true);
      expect(anyPaths.has('/{proxy+}')).toBe(true);
      for (const route of ROUTES) for (const path of aliasPaths(route)) expect(anyPaths.has(path)).toBe(true);
      // One ANY per path, wherever it lives.
      expect(anyMethods).toHaveLength(anyPaths.size);
    });

    it('lets API Gateway invoke a route function only through that route method and its alias paths', () => {
      const { stack, resources } = get(stage);
      const restApiId = cfnId(stack.api.restApi);
      for (const route of ROUTES) {
        const fnId = logicalId(stack.api.routeFunctions.get(route.id)!);
        const permissions = ofType(resources, 'AWS::Lambda::Permission').filter(([, p]) =>
          referencedLogicalIds(p.FunctionName).includes(fnId),
        );
        expect(permissions).toHaveLength(1);
        expect(referencedLogicalIds(permissions[0][1].SourceArn)).toEqual([restApiId]);
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
      const { resources } = get(stage);
      expect(ofType(resources, 'AWS::Lambda::Function')).toHaveLength(ROUTES.length + 1 + WORKER_COUNT);
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
          ]),
        );
        expect(fn.Environment.Variables.FC_STAGE).toBe(stage);
        // Source maps ship but are not enabled: the first error stack would parse the whole map.
        expect(fn.Environment.Variables.NODE_OPTIONS).toBeUndefined();
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
            .replace('$context.requestId', 'req-1')
            .replace('$context.domainName', 'abc.execute-api.eu-west-1.amazonaws.com')
            .replace('$context.stage', 'sandbox'),
        );
        expect(Object.keys(body)).toEqual(['error']);
        expect(Object.keys(body.error).sort()).toEqual(['code', 'display_message', 'documentation_url', 'message', 'request_id', 'type']);
        expect(body.error.request_id).toBe('req-1');
        // The base URL the functions derive on an execute-api domain (baseUrlOf): its stage included.
        expect(body.error.documentation_url).toBe(`https://abc.execute-api.eu-west-1.amazonaws.com/sandbox/docs/errors#${body.error.code}`);
        expect(body.error.display_message === null || typeof body.error.display_message === 'string').toBe(true);
      }
    });
  });

  describe('nested route stacks', () => {
    it('holds every route function, role, log group, permission and method in the nested stack of its tag', () => {
      const { stack } = get(stage);
      expect(stack.api.routeStacks.map((s) => s.node.id).sort()).toEqual([...new Set(ROUTES.map(routeStackId))].sort());
      for (const route of ROUTES) {
        const fn = stack.api.routeFunctions.get(route.id)!;
        const owner = Stack.of(fn.fn);
        expect(NestedStack.isNestedStack(owner)).toBe(true);
        expect(owner.node.id).toBe(routeStackId(route));
        expect(Stack.of(fn.role)).toBe(owner);
        expect(Stack.of(fn.logGroup)).toBe(owner);
      }
    });

    it('creates in the parent only the API root, the greedy proxy and the shared path segments', () => {
      const { template } = get(stage);
      const parentPaths = [...apiResourcePaths(template.toJSON().Resources).values()].sort();
      expect(parentPaths).toEqual(['/{proxy+}', ...planApi(ROUTES).sharedPaths].sort());
      const parentMethods = apiMethods(template.toJSON().Resources).map((m) => `${m.httpMethod} ${m.path}`).sort();
      expect(parentMethods).toEqual(['ANY /', 'ANY /{proxy+}']);
    });

    it('passes each route stack exactly its declared parameters, with no implicit cross-stack references', () => {
      const { stack, template, nested } = get(stage);
      const parentResources = template.toJSON().Resources;
      for (const routeStack of stack.api.routeStacks) {
        const plan = stack.api.plan.stacks.find((p) => p.id === routeStack.node.id)!;
        const nestedTemplate = nested.find((n) => n.stack === routeStack)!.template.toJSON();
        const declared = Object.keys(nestedTemplate.Parameters ?? {}).sort();
        const imported = plan.importedPaths.filter((p) => p !== '/').map(pathParameterName);
        expect(declared).toEqual([...routeStackParameters(plan.routes), ...imported].sort());
        const passed = parentResources[stack.getLogicalId(routeStack.nestedStackResource as CfnElement)].Properties.Parameters;
        expect(Object.keys(passed).sort()).toEqual(declared);
      }
    });

    it('passes the queues and the secrets key only to the route stacks whose routes use them', () => {
      const { stack, nested } = get(stage);
      const declaring = (parameter: string) =>
        stack.api.routeStacks
          .filter((s) => parameter in (nested.find((n) => n.stack === s)!.template.toJSON().Parameters ?? {}))
          .map((s) => s.node.id)
          .sort();
      // items/refresh, and the routes that connect an item (the Link page's connect and MFA steps, the
      // sandbox public token): a new item's history load, and a busy item's sync, go to the worker.
      // The console's item refresh too, and the Plaid-compatible API (/transactions/refresh, /sandbox/public_token/create).
      expect(declaring('ItemRefreshQueueArn')).toEqual(['RoutesConsole', 'RoutesHostedLink', 'RoutesItems', 'RoutesPlaid', 'RoutesSandbox']);
      expect(declaring('ItemRefreshQueueUrl')).toEqual(['RoutesConsole', 'RoutesHostedLink', 'RoutesItems', 'RoutesPlaid', 'RoutesSandbox']);
      // Link's token route opens the secret of a webhook it names; every stack with a route that reaches
      // an item's connector opens provider secrets; the console creates endpoints and rotates the
      // signing secret; the Plaid-compatible API does all of these and creates and opens Plaid webhook
      // keys. Not the MCP server: its tools run in their own routes' functions.
      expect(declaring('SecretsKeyArn')).toEqual([
        'RoutesAccounts', 'RoutesAssets', 'RoutesConsole', 'RoutesGraphQL', 'RoutesHostedLink', 'RoutesIdentity', 'RoutesInvestments',
        'RoutesItems', 'RoutesLiabilities', 'RoutesLink', 'RoutesPlaid', 'RoutesSandbox', 'RoutesWebhooks',
      ]);
      // The stage's connector credentials go to the same stacks, minus the ones that only seal webhook secrets.
      expect(declaring('ConnectorSecretArn')).toEqual([
        'RoutesAccounts', 'RoutesAssets', 'RoutesGraphQL', 'RoutesHostedLink', 'RoutesIdentity', 'RoutesInvestments',
        'RoutesItems', 'RoutesLiabilities', 'RoutesPlaid', 'RoutesSandbox',
      ]);
      // webhooks/events/replay (and the console's) starts a WebhookDelivery execution per new delivery.
      expect(declaring('WebhookDeliveryStateMachineArn')).toEqual(['RoutesConsole', 'RoutesWebhooks']);
      // Discovery (public documents only) and the console (no metering, no event) never emit events.
      const all = stack.api.routeStacks.map((s) => s.node.id).sort();
      expect(declaring('WebhookEventsQueueArn')).toEqual(all.filter((id) => id !== 'RoutesDiscovery' && id !== 'RoutesConsole'));
      // The console's pool goes to the stack of the sign-in routes and the page only.
      expect(declaring('ConsoleCognitoClientId')).toEqual(['RoutesConsole']);
      expect(declaring('WebhookEventsQueueUrl')).toEqual(declaring('WebhookEventsQueueArn'));
    });

    it('deploys the stage only after every route stack, and fingerprints their methods in the deployment', () => {
      const { stack, template } = get(stage);
      const deployments = ofType(template.toJSON().Resources, 'AWS::ApiGateway::Deployment');
      expect(deployments).toHaveLength(1);
      const dependsOn: string[] = template.toJSON().Resources[deployments[0][0]].DependsOn;
      for (const routeStack of stack.api.routeStacks) {
        expect(dependsOn).toContain(stack.getLogicalId(routeStack.nestedStackResource as CfnElement));
      }
      const wired = stack.api.routeStacks.flatMap((s) => s.wiring);
      expect(wired).toHaveLength(ROUTES.flatMap(aliasPaths).length + new Set(ROUTES.flatMap(aliasPaths)).size);
    });
  });

  describe('least-privilege grants', () => {
    const dynamoActions = (statements: Statement[]) => statements.flatMap((s) => s.actions).filter((a) => a.startsWith('dynamodb:'));
    const kmsActions = (statements: Statement[]) => statements.flatMap((s) => s.actions).filter((a) => a.startsWith('kms:'));
    const withPrefix = (statements: Statement[], prefix: string) => statements.filter((s) => s.actions.some((a) => a.startsWith(prefix)));
    const statementsOf = (route: Route) => {
      const { stack, resources } = get(stage);
      return roleStatements(resources, roleLogicalId(stack.api.routeFunctions.get(route.id)!));
    };
    const envOf = (fn: FincoreFunction): Record<string, unknown> => get(stage).resources[logicalId(fn)].Properties!.Environment.Variables;
    /** The ARNs and URLs of what the grants point at, as the flattened template spells them. */
    const refs = () => {
      const { stack } = get(stage);
      const arn = (c: IConstruct) => ({ 'Fn::GetAtt': [cfnId(c), 'Arn'] });
      return {
        table: arn(stack.data.table),
        tableIndexes: { 'Fn::Join': ['', [arn(stack.data.table), '/index/*']] },
        tableKey: arn(stack.data.tableKey),
        secretsKey: arn(stack.data.secretsKey),
        eventsQueue: arn(stack.jobs.webhookEvents.queue),
        eventsQueueUrl: { Ref: cfnId(stack.jobs.webhookEvents.queue) },
        refreshQueue: arn(stack.jobs.itemRefresh.queue),
        refreshQueueUrl: { Ref: cfnId(stack.jobs.itemRefresh.queue) },
        deliveryMachine: { Ref: cfnId(stack.jobs.webhookDelivery) },
        connectorSecret: { Ref: cfnId(stack.data.connectorSecret) },
      };
    };
    const leadingKeys = (partitions: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...partitions] } });
    const READ_WRITE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

    /** Table statements of a read-write grant: the table and its indexes, the table key only. */
    const expectReadWrite = (statements: Statement[]) => {
      const r = refs();
      expect(dynamoActions(statements)).toEqual(expect.arrayContaining(READ_WRITE_ACTIONS));
      for (const resource of withPrefix(statements, 'dynamodb:').flatMap((s) => s.resources)) {
        expect([r.table, r.tableIndexes]).toContainEqual(resource);
      }
      const tableKms = withPrefix(statements, 'kms:').filter((s) => !s.resources.some((x) => JSON.stringify(x) === JSON.stringify(r.secretsKey)));
      expect(tableKms.flatMap((s) => s.actions)).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:Encrypt']));
      for (const s of tableKms) expect(s.resources).toEqual([r.tableKey]);
    };
    /** Everything but the table: queue sends, secrets key, state machine starts, and the env naming them. */
    const expectBackground = (
      statements: Statement[],
      env: Record<string, unknown>,
      want: { eventsQueue: boolean; refreshQueue: boolean; secretsKey: readonly string[]; startsDeliveries: boolean; secretsKeyConditions?: unknown },
    ) => {
      const r = refs();
      expect(withPrefix(statements, 'sqs:')).toEqual([
        ...(want.eventsQueue ? [{ actions: ['sqs:SendMessage'], resources: [r.eventsQueue] }] : []),
        ...(want.refreshQueue ? [{ actions: ['sqs:SendMessage'], resources: [r.refreshQueue] }] : []),
      ]);
      const onSecretsKey = statements.filter((s) => s.resources.some((x) => JSON.stringify(x) === JSON.stringify(r.secretsKey)));
      expect(onSecretsKey).toEqual(
        want.secretsKey.length > 0 ? [{ actions: [...want.secretsKey], resources: [r.secretsKey], conditions: want.secretsKeyConditions ?? SECRETS_KEY_CONDITIONS }] : [],
      );
      expect(withPrefix(statements, 'states:')).toEqual(
        want.startsDeliveries ? [{ actions: ['states:StartExecution'], resources: [r.deliveryMachine] }] : [],
      );
      expect(env[ENV_VARS.eventsQueueUrl]).toEqual(want.eventsQueue ? r.eventsQueueUrl : undefined);
      expect(env[ENV_VARS.refreshQueueUrl]).toEqual(want.refreshQueue ? r.refreshQueueUrl : undefined);
      expect(env[ENV_VARS.secretsKeyId]).toEqual(want.secretsKey.length > 0 ? r.secretsKey : undefined);
      expect(env[ENV_VARS.deliveryStateMachineArn]).toEqual(want.startsDeliveries ? r.deliveryMachine : undefined);
    };

    it.each(ROUTES.map((r) => [r.id, r] as const))('%s gets exactly the access and environment routeAccessFor gives it', (_id, route) => {
      const { stack } = get(stage);
      const r = refs();
      const statements = statementsOf(route);
      const access = routeAccessFor(route);
      switch (access.table) {
        case 'none':
          expect(dynamoActions(statements)).toEqual([]);
          expect(kmsActions(statements)).toEqual([]);
          break;
        case 'auth-and-meter':
        case 'partitions':
          // Each table action only on the rows it is for (dynamodb:LeadingKeys), and the table key.
          expect(withPrefix(statements, 'dynamodb:')).toEqual(
            tableGrantsFor(route).map((g) => ({
              actions: [...g.actions],
              resources: [g.index ? { 'Fn::Join': ['', [r.table, `/index/${g.index}`]] } : r.table],
              conditions: leadingKeys(g.partitions),
            })),
          );
          // The secrets key, where a route has it, is checked with the background grants below.
          expect(withPrefix(statements, 'kms:').filter((s) => !s.resources.some((x) => JSON.stringify(x) === JSON.stringify(r.secretsKey)))).toEqual([
            { actions: [...TABLE_KEY_ACTIONS], resources: [r.tableKey] },
          ]);
          break;
        case 'whole-table':
          expectReadWrite(statements);
          break;
      }
      expectBackground(statements, envOf(stack.api.routeFunctions.get(route.id)!), {
        eventsQueue: access.eventsQueue,
        refreshQueue: access.refreshQueue,
        secretsKey: access.secretsKey ? SECRETS_KEY_ACTIONS : [],
        startsDeliveries: access.deliveryWorkflow,
        secretsKeyConditions: access.secretsKey ? routeSecretsKeyConditions(route.id) : undefined,
      });
    });

    it('derives table access from auth, dataAccess and the route\'s ROUTE_ROWS entry', () => {
      const probe = (facts: Partial<Route>) => tableAccessFor({ id: 'probe', auth: 'key', dataAccess: false, ...facts });
      expect(probe({ auth: 'none' })).toBe('none');
      expect(probe({})).toBe('auth-and-meter');
      expect(probe({ id: 'items.get', dataAccess: true, item: true })).toBe('partitions');
      expect(probe({ id: 'health.get', auth: 'none', dataAccess: true })).toBe('partitions');
      expect(probe({ id: 'link.session', auth: 'link', dataAccess: true })).toBe('partitions');
      // A data route without its rows, or rows for a route without data access, is a table error.
      expect(() => probe({ dataAccess: true })).toThrow(/ROUTE_ROWS/);
      expect(() => probe({ id: 'items.get', dataAccess: false })).toThrow(/ROUTE_ROWS/);
      expect(() => probe({ auth: 'link' })).toThrow(/dataAccess/);
      for (const route of ROUTES) {
        const expected = route.dataAccess ? 'partitions' : route.auth === 'none' ? 'none' : 'auth-and-meter';
        expect({ id: route.id, access: tableAccessFor(route) }).toEqual({ id: route.id, access: expected });
      }
    });

    it('derives queue and secrets-key access from the route: events for every route with table access, refresh and secrets by id or tag', () => {
      const probe = (facts: Partial<Route>) => routeAccessFor({ id: 'probe', tag: 'Items', auth: 'key', dataAccess: true, ...facts });
      const none = { refreshQueue: false, secretsKey: false, deliveryWorkflow: false, model: false, connectorConfig: false, consoleIdentity: false, invokesRoutes: [] };
      expect(probe({ auth: 'none', dataAccess: false })).toEqual({ table: 'none', eventsQueue: false, ...none });
      expect(probe({ dataAccess: false })).toEqual({ table: 'auth-and-meter', eventsQueue: true, ...none });
      expect(probe({ id: 'items.get', item: true })).toEqual({ table: 'partitions', eventsQueue: true, ...none });
      expect(probe({ id: 'items.refresh' })).toMatchObject({ ...none, refreshQueue: true });
      expect(probe({ id: 'link.token.create', tag: 'Link' })).toMatchObject({ ...none, secretsKey: true });
      expect(probe({ id: 'webhooks.events.replay', tag: 'Webhooks' })).toMatchObject({ ...none, deliveryWorkflow: true });
      // A tag grants nothing: only the routes whose code uses a capability are listed for it.
      expect(probe({ id: 'webhooks.endpoints.list', tag: 'Webhooks' })).toMatchObject(none);
      // Enqueuing a refresh, starting a delivery or opening a secret reads rows: without dataAccess the route table is wrong.
      expect(() => probe({ id: 'items.refresh', dataAccess: false })).toThrow(/dataAccess/);
      expect(() => probe({ id: 'webhooks.secret.rotate', dataAccess: false })).toThrow(/dataAccess/);
      expect(() => probe({ id: 'webhooks.events.replay', dataAccess: false })).toThrow(/dataAccess/);
      // The event and API-key partitions come from the key schema.
      expect(AUTH_AND_METER_GRANTS).toEqual([
        { actions: ['dynamodb:UpdateItem'], partitions: ['KEY#*', 'EVT#*'] },
        { actions: ['dynamodb:PutItem'], partitions: ['EVT#*', 'USAGENOTICE#*#*'] },
        { actions: ['dynamodb:BatchWriteItem'], partitions: ['REQLOG#*#*#*#*', 'REQID#*'] },
      ]);
      // A console route gets the events queue only when its own code emits (none does today).
      expect(probe({ id: 'console.keys.create', tag: 'Console', auth: 'session', console: true })).toEqual({ table: 'partitions', eventsQueue: false, ...none });
      expect(probe({ id: 'console.page', tag: 'Console', auth: 'none', console: true, dataAccess: false })).toEqual({ table: 'none', eventsQueue: false, ...none, consoleIdentity: true });
      expect(() => probe({ id: 'console.session', auth: 'session', console: true, dataAccess: false })).toThrow(/dataAccess/);
    });

    it('limits every table statement of every route by dynamodb:LeadingKeys, exempting exactly the routes ROUTE_ROWS gives the whole table', () => {
      const exempt = ROUTES.filter((route) => wholeTableReason(route.id) !== undefined).map((route) => route.id);
      expect(exempt).toEqual(Object.entries(ROUTE_ROWS).filter(([, rows]) => rows && 'wholeTable' in rows).map(([id]) => id));
      // No route needs the whole table today: every data route's partitions come from the key schema.
      expect(exempt).toEqual([]);
      for (const route of ROUTES.filter((r) => !exempt.includes(r.id))) {
        for (const statement of withPrefix(statementsOf(route), 'dynamodb:')) {
          const limit = (statement.conditions?.['ForAllValues:StringLike'] as Record<string, string[]> | undefined)?.['dynamodb:LeadingKeys'];
          expect({ route: route.id, actions: statement.actions, limited: (limit?.length ?? 0) > 0 }).toEqual({ route: route.id, actions: statement.actions, limited: true });
          // A call that names no partition would pass a ForAllValues condition: never granted under one.
          expect(statement.actions.filter((a) => ['dynamodb:Scan', 'dynamodb:DescribeTable'].includes(a))).toEqual([]);
        }
      }
    });

    it('gives every data route its ROUTE_ROWS partitions, and key routes without data the metering grant only', () => {
      const dataRoutes = ROUTES.filter((r) => r.dataAccess).map((r) => r.id).sort();
      expect(Object.keys(ROUTE_ROWS).sort()).toEqual(dataRoutes);
      for (const route of ROUTES.filter((r) => !r.dataAccess && r.auth === 'key')) {
        expect(tableAccessFor(route)).toBe('auth-and-meter');
        expect(tableGrantsFor(route)).toEqual(AUTH_AND_METER_GRANTS);
      }
    });

    it("lets exactly the MCP server invoke its tools' route functions, each by its own function's name, and nothing else invoke a function", () => {
      const { stack, resources } = get(stage);
      const mcp = stack.api.routeFunctions.get('mcp.call')!;
      const targets = ROUTE_INVOCATIONS['mcp.call']!;
      // The name of each tool's function, as the flattened template spells it (the parameter resolved to the function's Ref).
      const nameOf = (id: string) => ({ Ref: logicalId(stack.api.routeFunctions.get(id)!) });
      expect(envOf(mcp)[ENV_VARS.routeFunctions]).toEqual({ 'Fn::Join': ['', targets.flatMap((id, i) => [`${i === 0 ? '' : ','}${id}=`, nameOf(id)])] });
      expect(withPrefix(statementsOf(routeById('mcp.call')), 'lambda:')).toEqual([
        {
          actions: ['lambda:InvokeFunction'],
          resources: targets.map((id) => ({
            'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:lambda:${ENV.region}:${ENV.account}:function:`, nameOf(id)]],
          })),
        },
      ]);
      // No other function may invoke a function (the delivery state machine's own role invokes its worker).
      const mcpRole = roleLogicalId(mcp);
      const functionRoles = ofType(resources, 'AWS::Lambda::Function').map(([, props]) => (props.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
      expect(functionRoles).toContain(mcpRole);
      for (const roleId of functionRoles.filter((id) => id !== mcpRole)) {
        expect({ roleId, lambda: roleStatements(resources, roleId).flatMap((st) => st.actions).filter((a) => a.startsWith('lambda:')) }).toEqual({ roleId, lambda: [] });
      }
      for (const route of ROUTES.filter((r) => r.id !== 'mcp.call')) expect(envOf(stack.api.routeFunctions.get(route.id)!)[ENV_VARS.routeFunctions]).toBeUndefined();
    });

    it("lets exactly the AI routes invoke the stage's model, on its foundation-model ARN only, with its id and a longer timeout", () => {
      const { stack, resources } = get(stage);
      const model = AI_MODEL_BY_STAGE[stage];
      const aiRoutes = ROUTES.filter((r) => (ROUTE_CAPABILITIES.model as readonly string[]).includes(r.id));
      // The AI routes (the MCP server's ai_* tools run in those routes' own functions).
      expect(aiRoutes.map((r) => r.id).sort()).toEqual(ROUTES.filter((r) => r.tag === 'AI').map((r) => r.id).sort());
      for (const route of ROUTES) {
        const fn = stack.api.routeFunctions.get(route.id)!;
        const calls = aiRoutes.includes(route) && model !== null;
        expect({
          id: route.id,
          statements: withPrefix(statementsOf(route), 'bedrock:'),
          modelId: envOf(fn)[ENV_VARS.bedrockModelId],
          timeout: resources[logicalId(fn)].Properties!.Timeout,
        }).toEqual({
          id: route.id,
          statements: calls
            ? [
                {
                  actions: ['bedrock:InvokeModel'],
                  resources: [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':bedrock:', { Ref: 'AWS::Region' }, `::foundation-model/${model.bedrockModelId}`]] }],
                },
              ]
            : [],
          modelId: calls ? model.bedrockModelId : undefined,
          // The MCP server waits for its tools' functions: the longest of theirs (an AI route's) plus 5 s.
          timeout: aiRoutes.includes(route) ? LIMITS.aiModelTimeoutMs / 1000 + 7 : route.id === 'mcp.call' ? LIMITS.aiModelTimeoutMs / 1000 + 12 : route.longRunning ? 29 : 10,
        });
      }
      // No other role of the app (fallback, workers, state machines) may call Bedrock at all.
      const aiRoles = new Set(aiRoutes.map((r) => roleLogicalId(stack.api.routeFunctions.get(r.id)!)));
      for (const [roleId] of ofType(resources, 'AWS::IAM::Role').filter(([id]) => !aiRoles.has(id))) {
        expect({ roleId, bedrock: roleStatements(resources, roleId).flatMap((st) => st.actions).filter((a) => a.startsWith('bedrock:')) }).toEqual({ roleId, bedrock: [] });
      }
      // The timeouts leave API Gateway's 29 s integration limit room.
      expect(LIMITS.aiModelTimeoutMs / 1000 + 12).toBeLessThan(29);
    });

    it('spells the partitions of a few routes out, so a wrong derivation fails here', () => {
      const grants = (id: string) => Object.fromEntries(tableGrantsFor(routeById(id)).map((g) => [`${g.index ?? 'table'} ${g.actions.join(',')}`, g.partitions]));
      expect(grants('health.get')).toEqual({ 'table dynamodb:GetItem': ['HEALTH'] });
      // Every key route: the metering write, the usage event and its month's notice, the request log
      // entry and its request-id lookup (one BatchWriteItem).
      expect(grants('items.get')).toEqual({
        'table dynamodb:GetItem': ['TOKEN#*', 'ITEM#*'],
        'table dynamodb:UpdateItem': ['KEY#*', 'EVT#*'],
        'table dynamodb:PutItem': ['EVT#*', 'USAGENOTICE#*#*'],
        'table dynamodb:BatchWriteItem': ['REQLOG#*#*#*#*', 'REQID#*'],
      });
      expect(grants('webhooks.deliveries.list')).toEqual({
        'gsi1 dynamodb:Query': ['DLVS#*#test', 'DLVS#*#live'],
        'table dynamodb:UpdateItem': ['KEY#*', 'EVT#*'],
        'table dynamodb:PutItem': ['EVT#*', 'USAGENOTICE#*#*'],
        'table dynamodb:BatchWriteItem': ['REQLOG#*#*#*#*', 'REQID#*'],
      });
      expect(grants('link.session')).toEqual({
        'table dynamodb:GetItem': ['LINK#*'],
        'table dynamodb:UpdateItem': ['LINKCALLS#token#*', 'LINKCALLS#address#*'],
      });
      // One statement per action carries every partition it may touch, so one batch may span them;
      // actions with the same partitions share a statement.
      // items.remove makes the item unreachable in one transaction (its purge row a Put); the refresh
      // worker deletes the rest, so the route reaches no feed row at all.
      expect(grants('items.remove')).toEqual({
        'table dynamodb:GetItem,dynamodb:DeleteItem': ['TOKEN#*', 'ITEM#*'],
        'table dynamodb:UpdateItem': ['KEY#*', 'EVT#*'],
        'table dynamodb:PutItem': ['EVT#*', 'ITEM#*', 'USAGENOTICE#*#*'],
        'table dynamodb:BatchWriteItem': ['REQLOG#*#*#*#*', 'REQID#*'],
      });
      // Console routes: the session (auth: 'session'), then the organisation check and audit row.
      expect(grants('console.keys.create')).toEqual({
        'table dynamodb:GetItem': ['KEY#*', 'APP#*', 'SESSION#*'],
        // The issuing transaction checks the application's plan and organisation are still as read.
        'table dynamodb:ConditionCheckItem': ['APP#*'],
        'table dynamodb:BatchGetItem': ['KEY#*', 'ORG#*'],
        'gsi1 dynamodb:Query': ['APPKEYS#*'],
        // AUDIT#: a repeated refusal is counted on the audit row of the first.
        'table dynamodb:UpdateItem': ['KEY#*', 'SESSION#*', 'AUDIT#*'],
        'table dynamodb:PutItem': ['AUDIT#*'],
        'table dynamodb:DeleteItem': ['SESSION#*'],
      });
      expect(grants('console.requests.search')).toEqual({
        'table dynamodb:GetItem': ['APP#*', 'REQLOG#*#*#*#*', 'REQID#*', 'SESSION#*'],
        'table dynamodb:BatchGetItem': ['ORG#*'],
        'table dynamodb:Query': ['REQLOG#*#*#*#*'],
        'table dynamodb:UpdateItem': ['SESSION#*', 'AUDIT#*'],
        'table dynamodb:DeleteItem': ['SESSION#*'],
        'table dynamodb:PutItem': ['AUDIT#*'],
      });
      expect(grants('console.session')).toEqual({
        'table dynamodb:GetItem,dynamodb:UpdateItem,dynamodb:DeleteItem': ['SESSION#*'],
        'table dynamodb:BatchGetItem': ['ORG#*'],
        'gsi1 dynamodb:Query': ['USERORGS#*'],
      });
      expect(grants('console.auth.start')).toEqual({ 'table dynamodb:PutItem': ['SIGNIN#state#*'] });
    });

    it('gives the console routes their session, organisation and audit rows, never a Scan, never the whole table', () => {
      const consoleRoutes = ROUTES.filter((r) => r.console);
      expect(consoleRoutes.length).toBeGreaterThan(30);
      for (const route of consoleRoutes) {
        expect({ id: route.id, metering: route.metering }).toEqual({ id: route.id, metering: 'none' });
        const access = tableAccessFor(route);
        // The page is a public document; everything else reads or writes console rows by partition.
        expect({ id: route.id, access }).toEqual({ id: route.id, access: route.id === 'console.page' ? 'none' : 'partitions' });
        const grants = tableGrantsFor(route);
        const partitions = grants.flatMap((g) => g.partitions);
        expect(grants.flatMap((g) => g.actions).filter((a) => a === 'dynamodb:Scan')).toEqual([]);
        // No console route authenticates or meters a key, nor writes the request log (search and usage read it).
        const logWrites = grants.filter((g) => g.partitions.some((p) => /^(REQLOG|REQID|USAGENOTICE)#/.test(p)) && g.actions.some((a) => a !== 'dynamodb:GetItem' && a !== 'dynamodb:Query'));
        expect({ id: route.id, logWrites }).toEqual({ id: route.id, logWrites: [] });
        if (route.auth === 'session') {
          expect(tableGrantsFor(route).some((g) => g.actions.includes('dynamodb:GetItem') && g.partitions.includes('SESSION#*'))).toBe(true);
        }
        // Only the key management routes (and usage, which reads the keys' counts) reach the key rows.
        const keyRows = partitions.some((p) => p === 'KEY#*');
        expect({ id: route.id, keyRows }).toEqual({
          id: route.id,
          keyRows: ['console.keys.create', 'console.keys.list', 'console.keys.revoke', 'console.applications.update', 'console.orgs.delete', 'console.usage.get'].includes(route.id),
        });
        // A console route writes a key row only to issue, re-plan or revoke keys.
        const writesKeys = grants.some((g) => g.partitions.includes('KEY#*') && g.actions.some((a) => a !== 'dynamodb:GetItem' && a !== 'dynamodb:BatchGetItem'));
        expect({ id: route.id, writesKeys }).toEqual({
          id: route.id,
          writesKeys: ['console.keys.create', 'console.keys.revoke', 'console.applications.update', 'console.orgs.delete'].includes(route.id),
        });
      }
      // Every organisation and application action checks membership and writes its audit row.
      for (const route of consoleRoutes.filter((r) => r.auth === 'session' && !['console.session', 'console.auth.logout', 'console.orgs.create', 'console.invitations.accept'].includes(r.id))) {
        const grants = tableGrantsFor(route);
        expect({ id: route.id, membership: grants.some((g) => g.actions.includes('dynamodb:BatchGetItem') && g.partitions.includes('ORG#*')) }).toEqual({ id: route.id, membership: true });
        expect({ id: route.id, audit: grants.some((g) => g.actions.includes('dynamodb:PutItem') && g.partitions.includes('AUDIT#*')) }).toEqual({ id: route.id, audit: true });
      }
    });

    it('serves the console page at /console and /console/ without any table access, and tells it how people sign in', () => {
      const { stack, resources } = get(stage);
      const page = routeById('console.page');
      expect([page.method, page.path, page.auth, page.dataAccess]).toEqual(['GET', '/console', 'none', false]);
      const fn = stack.api.routeFunctions.get('console.page')!;
      const methods = apiMethods(resources).filter((m) => m.functionLogicalId === logicalId(fn)).map((m) => `${m.httpMethod} ${m.path}`);
      expect(methods).toEqual(['GET /console']);
      expect(dynamoActions(statementsOf(page))).toEqual([]);
      expect(Object.keys(envOf(fn)).filter((k) => k.startsWith('FC_')).sort()).toEqual(
        [ENV_VARS.stage, ENV_VARS.tableName, ENV_VARS.consoleCognitoClientId, ENV_VARS.consoleCognitoDomain, ENV_VARS.consoleCognitoUserPoolId].sort(),
      );
    });

    it('gives the Link page API (auth: link) its session, counter and connection rows and never the API-key rows', () => {
      const linkRoutes = ROUTES.filter((r) => r.auth === 'link');
      expect(linkRoutes.map((r) => r.id).sort()).toEqual(
        ['link.accounts.select', 'link.connect', 'link.consent', 'link.institutions', 'link.method', 'link.mfa', 'link.oauth.complete', 'link.oauth.resume', 'link.oauth.start', 'link.session', 'link.upload'],
      );
      for (const route of linkRoutes) {
        expect(route.metering).toBe('none');
        expect(tableAccessFor(route)).toBe('partitions');
        const partitions = tableGrantsFor(route).flatMap((g) => g.partitions);
        expect(partitions).toEqual(expect.arrayContaining([...ROW_FAMILIES.linkToken.partitions, ...ROW_FAMILIES.linkCalls.partitions]));
        expect(partitions).not.toEqual(expect.arrayContaining(API_KEY_PARTITIONS));
        expect(dynamoActions(statementsOf(route))).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
      }
    });

    it('gives the scripts and public documents that touch no rows no table, key, queue or environment beyond the table name', () => {
      const { stack } = get(stage);
      const js = ROUTES.filter((r) => r.responseKind === 'js');
      expect(js.map((r) => r.id)).toEqual(['link.sdk']);
      const publicRoutes = ROUTES.filter((r) => r.auth === 'none' && !r.dataAccess);
      expect(publicRoutes.map((r) => r.id).sort()).toEqual(
        ['console.page', 'discovery.ai-plugin', 'discovery.llms', 'discovery.llms-full', 'discovery.mcp', 'discovery.openapi', 'docs.errors', 'docs.page', 'graphql.ide', 'link.oauth.callback', 'link.sdk', 'mcp.describe'].sort(),
      );
      for (const route of publicRoutes) {
        const statements = statementsOf(route);
        expect(statements.flatMap((s) => s.actions).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'))).toEqual([]);
        const env = Object.keys(envOf(stack.api.routeFunctions.get(route.id)!)).filter((k) => k.startsWith('FC_') && !k.startsWith('FC_CONSOLE_COGNITO_'));
        expect(env.sort()).toEqual([ENV_VARS.stage, ENV_VARS.tableName].sort());
      }
    });

    /** Every role of the app (routes, fallback, workers, machines, ...) whose statements name `arn`. */
    const rolesReaching = (arn: unknown, action: string) => {
      const { resources } = get(stage);
      return ofType(resources, 'AWS::IAM::Role')
        .map(([id]) => id)
        .filter((id) =>
          roleStatements(resources, id).some(
            (s) => s.actions.includes(action) && s.resources.some((x) => JSON.stringify(x) === JSON.stringify(arn)),
          ),
        )
        .sort();
    };
    const routeRoles = (predicate: (r: Route) => boolean) => {
      const { stack } = get(stage);
      return ROUTES.filter(predicate).map((r) => roleLogicalId(stack.api.routeFunctions.get(r.id)!));
    };
    const workerRoles = (...names: (keyof FincoreStack['jobs']['workers'])[]) =>
      names.map((n) => roleLogicalId(get(stage).stack.jobs.workers[n]));

    it('lets only the workers that sign deliveries or open provider tokens, and the routes that seal or open a secret, use the secrets key', () => {
      const { secretsKey } = refs();
      // link.token.create seals the webhook secret of a webhook it names. The rest reach an item's
      // connector: they open its provider tokens (and Link seals new ones).
      const sealing = [
        'accounts.balance.get', 'assets.get', 'console.webhooks.endpoints.create', 'console.webhooks.secret.rotate', 'graphql.query', 'identity.get', 'investments.holdings.get', 'investments.transactions.get',
        // item.webhook.update creates the environment's webhook secret on first use, as link.token.create does.
        'item.webhook.update', 'items.remove', 'items.statements.upload', 'liabilities.get', 'link.connect', 'link.consent', 'link.mfa', 'link.oauth.complete',
        'link.oauth.resume', 'link.oauth.start', 'link.token.create', 'link.upload', 'plaid.call', 'sandbox.public_token.create', 'webhooks.endpoints.create',
        'webhooks.secret.rotate',
      ];
      expect([...ROUTE_CAPABILITIES.secretsKey].sort()).toEqual(sealing);
      // Dispatch makes each delivery's first attempt, the delivery worker the retries: both sign
      // (Decrypt only). The refresh worker opens provider tokens and seals rotated ones.
      const signers = workerRoles('dispatch', 'delivery');
      const expected = [...routeRoles((r) => sealing.includes(r.id)), ...signers, ...workerRoles('refresh')].sort();
      expect(rolesReaching(secretsKey, 'kms:Decrypt')).toEqual(expected);
      expect(rolesReaching(secretsKey, 'kms:GenerateDataKey')).toEqual(expected.filter((id) => !signers.includes(id)));
      // Nothing else on the secrets key, for anyone.
      const { resources } = get(stage);
      for (const [id] of ofType(resources, 'AWS::IAM::Role')) {
        for (const s of roleStatements(resources, id)) {
          if (s.resources.some((x) => JSON.stringify(x) === JSON.stringify(secretsKey))) {
            expect(s.actions.every((a) => SECRETS_KEY_ACTIONS.includes(a))).toBe(true);
            // Only data keys bound to the encryption contexts the code sends: webhook secrets, provider
            // secrets, or (the refresh worker and the routes that do both) either; the delivery
            // workers' signing keys (webhook secrets and Plaid webhook keys); and the Plaid-compatible
            // API's three.
            expect([
              SECRETS_KEY_CONDITIONS,
              secretsKeyConditions([WEBHOOK_SECRET_PURPOSE]),
              secretsKeyConditions([PROVIDER_SECRET_PURPOSE]),
              DELIVERY_SIGNING_KEY_CONDITIONS,
              secretsKeyConditions([WEBHOOK_SECRET_PURPOSE, PROVIDER_SECRET_PURPOSE, PLAID_WEBHOOK_KEY_PURPOSE]),
            ]).toContainEqual(s.conditions);
          }
        }
      }
    });

    it('lets only items.refresh, items.remove (its purge) and the connecting routes (among API routes) and the scheduled-refresh worker send to the refresh queue', () => {
      // The Plaid-compatible API runs items.refresh (/transactions/refresh), items.remove (/item/remove)
      // and sandbox.public_token.create; link.accounts.select starts the history load of an item that
      // waited for the user's choice.
      expect(rolesReaching(refs().refreshQueue, 'sqs:SendMessage')).toEqual(
        [
          ...routeRoles((r) =>
            ['items.refresh', 'items.remove', 'console.items.refresh', 'link.accounts.select', 'link.connect', 'link.consent', 'link.mfa', 'link.oauth.complete', 'link.oauth.resume', 'link.upload', 'sandbox.public_token.create', 'plaid.call'].includes(r.id),
          ),
          ...workerRoles('scheduledRefresh'),
        ].sort(),
      );
    });

    it('lets only the routes that reach a live connector and the refresh worker read the connector credentials, and only read them', () => {
      const readers = rolesReaching(refs().connectorSecret, 'secretsmanager:GetSecretValue');
      expect(readers).toEqual([...routeRoles((r) => (ROUTE_CAPABILITIES.connectorConfig as readonly string[]).includes(r.id)), ...workerRoles('refresh')].sort());
      expect(readers.length).toBeGreaterThan(10);
      const { resources } = get(stage);
      for (const [id] of ofType(resources, 'AWS::IAM::Role')) {
        for (const st of roleStatements(resources, id)) {
          if (st.resources.some((x) => JSON.stringify(x) === JSON.stringify(refs().connectorSecret))) {
            expect(st.actions.every((a) => a === 'secretsmanager:GetSecretValue' || a === 'secretsmanager:DescribeSecret')).toBe(true);
          }
        }
      }
      // The secret starts empty: no connector serves live traffic until the operator fills it in.
      const secret = ofType(resources, 'AWS::SecretsManager::Secret');
      expect(secret).toHaveLength(1);
      expect(secret[0][1].SecretString).toBe('{}');
    });

    it('lets only webhooks/events/replay and its console twin (among API routes) and the dispatch worker start WebhookDelivery executions', () => {
      const { resources } = get(stage);
      const starters = ofType(resources, 'AWS::IAM::Role')
        .map(([id]) => id)
        .filter((id) => roleStatements(resources, id).some((s) => s.actions.includes('states:StartExecution')))
        .sort();
      expect(starters).toEqual([...routeRoles((r) => r.id === 'webhooks.events.replay' || r.id === 'console.webhooks.events.replay'), ...workerRoles('dispatch')].sort());
      expect(rolesReaching(refs().deliveryMachine, 'states:StartExecution')).toEqual(starters);
    });

    it('lets every key route, every route with data access, and the refresh workers send to the events queue', () => {
      const senders = rolesReaching(refs().eventsQueue, 'sqs:SendMessage');
      for (const role of routeRoles((r) => r.auth === 'key')) expect(senders).toContain(role);
      // Console routes meter nothing and their code emits no event (ROUTE_CAPABILITIES.consoleEvents is empty).
      expect(ROUTE_CAPABILITIES.consoleEvents).toEqual([]);
      expect(senders).toEqual(
        [...routeRoles((r) => !r.console && (r.auth !== 'none' || r.dataAccess)), ...workerRoles('refresh', 'scheduledRefresh')].sort(),
      );
      // Only SendMessage: no route or other worker may receive, delete or purge. The two consumers
      // get receive rights on their own queue from their event source mapping.
      const { stack, resources } = get(stage);
      const consumers = workerRoles('dispatch', 'refresh');
      for (const [id] of ofType(resources, 'AWS::IAM::Role')) {
        if (consumers.includes(id)) continue;
        const sqsActions = roleStatements(resources, id).flatMap((s) => s.actions).filter((a) => a.startsWith('sqs:'));
        expect(sqsActions.every((a) => a === 'sqs:SendMessage')).toBe(true);
      }
      expect(stack.jobs.workers.dispatch).toBeDefined();
    });

    it.each(Object.keys(WORKER_ACCESS) as WorkerName[])('the %s worker gets exactly its WORKER_ACCESS grants and environment', (name) => {
      const { stack, resources } = get(stage);
      const r = refs();
      const fn = stack.jobs.workers[name];
      const access = WORKER_ACCESS[name];
      const statements = roleStatements(resources, roleLogicalId(fn));
      const env = envOf(fn);
      expect(env[ENV_VARS.tableName]).toEqual({ Ref: cfnId(stack.data.table) });
      expect(env[ENV_VARS.stage]).toBe(stage);
      switch (access.table) {
        case 'read-write':
          expectReadWrite(statements);
          break;
        case 'update-deliveries':
          expect(withPrefix(statements, 'dynamodb:')).toEqual([
            { actions: ['dynamodb:UpdateItem'], resources: [r.table], conditions: leadingKeys(EVENT_PARTITIONS) },
          ]);
          expect(withPrefix(statements, 'kms:')).toEqual([{ actions: [...TABLE_KEY_ACTIONS], resources: [r.tableKey] }]);
          break;
      }
      // A consumer's receive rights on its own queue come from its event source mapping (checked below).
      const consumed = statements.filter((s) => s.actions.includes('sqs:ReceiveMessage'));
      expect(consumed.flatMap((s) => s.resources)).toEqual(
        name === 'dispatch' ? [r.eventsQueue] : name === 'refresh' ? [r.refreshQueue] : [],
      );
      expect(consumed.every((s) => !s.actions.includes('sqs:SendMessage'))).toBe(true);
      expectBackground(statements.filter((s) => !consumed.includes(s)), env, access);
    });

    it('wires the workers as the webhook and refresh flows need them', () => {
      // Spelled out rather than derived, so a wrong WORKER_ACCESS entry fails here.
      expect(WORKER_ACCESS).toMatchObject({
        dispatch: { table: 'read-write', startsDeliveries: true, eventsQueue: false, refreshQueue: false, secretsKey: ['kms:Decrypt'] },
        delivery: { table: 'read-write', secretsKey: ['kms:Decrypt'], eventsQueue: false, refreshQueue: false, startsDeliveries: false },
        deadLetter: { table: 'update-deliveries', secretsKey: [], eventsQueue: false, refreshQueue: false, startsDeliveries: false },
        refresh: { table: 'read-write', eventsQueue: true, refreshQueue: false, secretsKey: ['kms:Decrypt', 'kms:GenerateDataKey'], startsDeliveries: false, connectorConfig: true },
        scheduledRefresh: { table: 'read-write', eventsQueue: true, refreshQueue: true, secretsKey: [], startsDeliveries: false },
      });
    });

    it('gives the routes that import a statement within the request the longest timeout API Gateway waits for, and no other route', () => {
      const { stack } = get(stage);
      const timeoutOf = (id: string) => Stack.of(stack.api.routeFunctions.get(id)!.fn).resolve((stack.api.routeFunctions.get(id)!.fn.node.defaultChild as unknown as { timeout: number }).timeout);
      expect(ROUTES.filter((r) => r.longRunning).map((r) => r.id).sort()).toEqual(['items.statements.upload', 'link.upload']);
      for (const id of ['items.statements.upload', 'link.upload']) expect(timeoutOf(id)).toBe(29);
      expect(timeoutOf('items.get')).toBeLessThan(29);
      const memoryOf = (id: string) => Stack.of(stack.api.routeFunctions.get(id)!.fn).resolve((stack.api.routeFunctions.get(id)!.fn.node.defaultChild as unknown as { memorySize: number }).memorySize);
      expect(memoryOf('link.upload')).toBe(1769);
    });

    it('uses no managed policies on function roles and grants "*" only for X-Ray', () => {
      const { stack, resources } = get(stage);
      for (const fn of allFunctions(stack)) {
        const roleId = roleLogicalId(fn);
        expect(resources[roleId].Properties?.ManagedPolicyArns).toBeUndefined();
        for (const statement of roleStatements(resources, roleId)) {
          if (statement.resources.includes('*')) {
            expect(statement.actions.every((a) => a.startsWith('xray:'))).toBe(true);
          }
        }
      }
    });
  });

  describe('data', () => {
    it('builds the table from TABLE: keys, GSI, TTL, PITR, on-demand, customer-managed KMS key', () => {
      const { template, stack } = get(stage);
      const keyId = cfnId(stack.data.tableKey);
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
      const refresh = resources[cfnId(stack.jobs.itemRefresh.queue)].Properties!;
      expect(refresh.FifoQueue).toBe(true);
      // The sender names every message's deduplication id (see 'the background adapters' below).
      expect(refresh.ContentBasedDeduplication).toBe(false);
      expect(resources[cfnId(stack.jobs.itemRefresh.deadLetterQueue)].Properties!.FifoQueue).toBe(true);
      const events = resources[cfnId(stack.jobs.webhookEvents.queue)].Properties!;
      expect(events.FifoQueue).toBeUndefined();
    });

    it('feeds the dispatch and refresh workers from their queues and runs the scheduled work every 5 minutes', () => {
      const { stack, resources, template } = get(stage);
      const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping').map(([, m]) => [
        referencedLogicalIds(m.EventSourceArn)[0],
        referencedLogicalIds(m.FunctionName)[0],
      ]);
      const queueId = (q: sqs.Queue) => cfnId(q);
      expect(mappings).toEqual(
        expect.arrayContaining([
          [queueId(stack.jobs.webhookEvents.queue), logicalId(stack.jobs.workers.dispatch)],
          [queueId(stack.jobs.itemRefresh.queue), logicalId(stack.jobs.workers.refresh)],
        ]),
      );
      // The outbox sweep runs at least every 5 minutes; the refresh sweep in the same run queues only due items.
      expect(stageConfig(stage).scheduledWork.every.toMinutes()).toBe(5);
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(5 minutes)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(stack.jobs.workers.scheduledRefresh), 'Arn'] } })],
      });
    });

    it("states the refresh cadence the stage's functions apply (the entry they read by FC_STAGE)", () => {
      expect(stageConfig(stage).scheduledWork.refreshCadence).toBe(STAGE_REFRESH_CADENCE[stage]);
    });

    /** The machine's definition, resolved to ASL (worker ARNs become placeholders naming their logical ids). */
    const definitionOf = (resources: Resources, machineId: string) =>
      JSON.parse(String(resolveIntrinsics(resources[machineId].Properties!.DefinitionString)));
    const placeholderArn = (fn: FincoreFunction) => String(resolveIntrinsics({ 'Fn::GetAtt': [logicalId(fn), 'Arn'] }));
    /** lambda:* statements of a machine's execution role. */
    const lambdaGrants = (resources: Resources, machineId: string) =>
      roleStatements(resources, referencedLogicalIds(resources[machineId].Properties!.RoleArn)[0]).filter((s) =>
        s.actions.some((a) => a.startsWith('lambda:')),
      );

    it('deploys exactly the shared WebhookDelivery definition (state-machines.ts), valid, logged and traced', () => {
      const { stack, resources } = get(stage);
      const machineId = cfnId(stack.jobs.webhookDelivery);
      const machine = resources[machineId].Properties!;
      expect(machine.LoggingConfiguration.Level).toBe('ALL');
      expect(machine.LoggingConfiguration.IncludeExecutionData).toBe(false);
      expect(machine.TracingConfiguration).toEqual({ Enabled: true });

      const definition = definitionOf(resources, machineId);
      const { delivery, deadLetter } = stack.jobs.workers;
      expect(definition).toEqual(
        webhookDeliveryAsl({ deliveryWorkerArn: placeholderArn(delivery), deadLetterWorkerArn: placeholderArn(deadLetter) }),
      );
      const validation = aslValidator(definition);
      expect(validation.errorsText('\n')).toBe('');
      expect(validation.isValid).toBe(true);
      // The execution role may invoke these two workers and nothing else (no versions, no aliases).
      expect(lambdaGrants(resources, machineId)).toEqual([
        {
          actions: ['lambda:InvokeFunction'],
          resources: [{ 'Fn::GetAtt': [logicalId(delivery), 'Arn'] }, { 'Fn::GetAtt': [logicalId(deadLetter), 'Arn'] }],
        },
      ]);
    });

    it('begins each execution after the attempts already made: a failed first attempt by dispatch at the wait before attempt 2, a replay at attempt 1', () => {
      const { stack, resources } = get(stage);
      const definition = definitionOf(resources, cfnId(stack.jobs.webhookDelivery));
      expect(definition.StartAt).toBe(NEXT_ATTEMPT_STATE);
      const choice = definition.States[NEXT_ATTEMPT_STATE];
      expect(choice.Type).toBe('Choice');
      const entryAfter = (made: number) =>
        choice.Choices.find((c: { And: { Variable: string; NumericEquals?: number; NumericGreaterThanEquals?: number }[] }) =>
          c.And.some((x) => x.Variable === '$.attempts_made' && (x.NumericEquals === made || (x.NumericGreaterThanEquals !== undefined && made >= x.NumericGreaterThanEquals))),
        )?.Next ?? choice.Default;
      expect(entryAfter(0)).toBe('Attempt1');
      expect(definition.States[entryAfter(1)]).toMatchObject({ Type: 'Wait', Seconds: WEBHOOK_RETRY_DELAYS_SECONDS[1], Next: 'Attempt2' });
      for (let made = 1; made < WEBHOOK_RETRY_DELAYS_SECONDS.length; made += 1) expect(entryAfter(made)).toBe(`WaitBeforeAttempt${made + 1}`);
      expect(entryAfter(WEBHOOK_RETRY_DELAYS_SECONDS.length)).toBe('RecordDeadLetter');
    });

    it('gives the dispatch worker (which makes every first attempt of a batch at once) one POST\'s limit and more, and the events queue six times that as visibility', () => {
      const { stack, resources } = get(stage);
      const timeout = resources[logicalId(stack.jobs.workers.dispatch)].Properties!.Timeout;
      expect(timeout).toBe(DISPATCH_WORKER_TIMEOUT_SECONDS);
      expect(timeout).toBeGreaterThanOrEqual(2 * Math.ceil(WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000) + 30);
      expect(resources[cfnId(stack.jobs.webhookEvents.queue)].Properties!.VisibilityTimeout).toBe(6 * DISPATCH_WORKER_TIMEOUT_SECONDS);
      // The delivery worker makes one POST per invocation.
      expect(DELIVERY_WORKER_TIMEOUT_SECONDS).toBeGreaterThan(WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000);
    });

    it('retries webhook deliveries at the schedule, one invocation per attempt, then records a dead letter', () => {
      const { stack, resources } = get(stage);
      const definition = definitionOf(resources, cfnId(stack.jobs.webhookDelivery));
      const deliveryArn = placeholderArn(stack.jobs.workers.delivery);
      const deadLetterArn = placeholderArn(stack.jobs.workers.deadLetter);
      // Follow the failure path of a replay (it makes every attempt): every Choice's Default, every
      // other state's Next.
      const delays: number[] = [];
      const attempts: number[] = [];
      let pending = 0;
      let name: string | undefined = definition.StartAt;
      const visited: string[] = [];
      while (name) {
        const state = definition.States[name];
        visited.push(name);
        if (state.Type === 'Wait') pending += state.Seconds;
        if (state.Type === 'Task' && state.Parameters.FunctionName === deliveryArn) {
          expect(state.Resource).toBe('arn:aws:states:::lambda:invoke');
          // Well above the worker's own timeout: a slow attempt ends as the worker's error, not a task timeout.
          expect(state.TimeoutSeconds).toBe(DELIVERY_ATTEMPT_TIMEOUT_SECONDS);
          expect(state.TimeoutSeconds).toBeGreaterThanOrEqual(2 * DELIVERY_WORKER_TIMEOUT_SECONDS + 10);
          // Only throttling is retried inside an attempt (the worker never ran): at most one POST per attempt.
          expect(state.Retry).toEqual([expect.objectContaining({ ErrorEquals: [LAMBDA_THROTTLED] })]);
          // A worker error or timeout is caught and goes on to the next attempt.
          expect(state.Catch).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: state.Next })]);
          // The execution input stays intact; only $.outcome changes.
          expect(state.ResultPath).toBe('$.outcome');
          attempts.push(state.Parameters.Payload.attempt);
          delays.push(pending);
          pending = 0;
        }
        name = state.Type === 'Choice' ? state.Default : state.Next;
        if (state.Type === 'Choice' && visited.length > 1) {
          expect(state.Choices.map((c: { Next: string }) => definition.States[c.Next].Type)).toEqual(['Succeed']);
        }
      }
      expect(delays).toEqual([...WEBHOOK_RETRY_DELAYS_SECONDS]);
      expect(attempts).toEqual(WEBHOOK_RETRY_DELAYS_SECONDS.map((_, i) => i + 1));
      const [recordDeadLetter, last] = visited.slice(-2).map((n) => definition.States[n]);
      expect(recordDeadLetter.Parameters.FunctionName).toBe(deadLetterArn);
      expect(recordDeadLetter.Parameters.Payload.attempts).toBe(WEBHOOK_RETRY_DELAYS_SECONDS.length);
      expect(last).toMatchObject({ Type: 'Fail', Error: 'WebhookUndeliverable' });
    });

    it('deploys no ItemRefresh state machine: refreshes run from the FIFO queue (one message group per item)', () => {
      const { resources } = get(stage);
      const machines = ofType(resources, 'AWS::StepFunctions::StateMachine');
      expect(machines).toHaveLength(1);
      expect(JSON.stringify(machines[0][1].StateMachineName)).toContain('WebhookDelivery');
    });
  });

  describe('operational settings', () => {
    const config = () => stageConfig(stage);
    it('sizes stage throttling so the documented rate and burst of every plan is reachable', () => {
      const { apiThrottle } = config();
      const largest = Math.max(...Object.values(PLANS).map((p) => p.ratePerSecond));
      expect(apiThrottle.rateLimit).toBeGreaterThanOrEqual(largest);
      expect(apiThrottle.burstLimit).toBeGreaterThanOrEqual(largest * LIMITS.burstMultiplier);
      // The account's default regional burst: a larger stage burst could never be used.
      expect(apiThrottle.burstLimit).toBeLessThanOrEqual(5_000);
    });

    it('puts a WAF web ACL on the stage: malformed-key floods and single-address floods are blocked per IP with 429', () => {
      const { stack, resources } = get(stage);
      const [[aclId, acl]] = ofType(resources, 'AWS::WAFv2::WebACL');
      expect(acl.Scope).toBe('REGIONAL');
      const [malformed, all] = acl.Rules;
      expect(malformed.Name).toBe('MalformedKeyPerIp');
      expect(malformed.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: WAF_WINDOW_SECONDS, Limit: config().firewall.malformedKeyPerIp });
      const scope = JSON.stringify(malformed.Statement.RateBasedStatement.ScopeDownStatement);
      for (const prefix of KEY_ROUTE_PREFIXES) expect(scope).toContain(JSON.stringify(prefix));
      expect(scope).toContain('NotStatement');
      // The regex accepts exactly the keys the handler accepts.
      const regex = new RegExp(WELL_FORMED_AUTHORIZATION);
      expect(regex.test(`Bearer fc_sk_test_${'a'.repeat(32)}`)).toBe(true);
      expect(regex.test('Bearer junk')).toBe(false);
      expect(WELL_FORMED_AUTHORIZATION).toBe(`^Bearer ${API_KEY_PATTERN.source.slice(1)}`);
      expect(all.Statement.RateBasedStatement.Limit).toBeGreaterThanOrEqual(largestPlanRequestsPerWindow());
      for (const rule of acl.Rules) expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(429);
      const [[, association]] = ofType(resources, 'AWS::WAFv2::WebACLAssociation');
      expect(association.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      expect(JSON.stringify(association.ResourceArn)).toContain(cfnId(stack.api.restApi));
      expect(JSON.stringify(association.ResourceArn)).toContain(JSON.stringify({ Ref: cfnId(stack.api.restApi.deploymentStage) }));
    });

    it('caps worker concurrency so a webhook burst cannot starve the API', () => {
      const { stack, resources } = get(stage);
      const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping');
      expect(mappings).toHaveLength(2);
      for (const [, mapping] of mappings) expect(mapping.ScalingConfig.MaximumConcurrency).toBeGreaterThanOrEqual(2);
      const reserved = resources[logicalId(stack.jobs.workers.delivery)].Properties!.ReservedConcurrentExecutions;
      expect(reserved).toBe(config().workers.deliveryReservedConcurrency);
      if (stage === 'production') expect(reserved).toBeGreaterThan(0);
      expect(resources[logicalId(stack.jobs.workers.delivery)].Properties!.Timeout).toBe(DELIVERY_WORKER_TIMEOUT_SECONDS);
      expect(resources[logicalId(stack.jobs.workers.deadLetter)].Properties!.Timeout).toBe(DEAD_LETTER_TIMEOUT_SECONDS);
      expect(DEAD_LETTER_TASK_TIMEOUT_SECONDS).toBeGreaterThan(DEAD_LETTER_TIMEOUT_SECONDS);
    });

    it('protects production from deletion, and logs state machines under /aws/vendedlogs/states/', () => {
      const { stack, resources } = get(stage);
      expect(stack.terminationProtection).toBe(stage === 'production');
      for (const [, machine] of ofType(resources, 'AWS::StepFunctions::StateMachine')) {
        const groupId = referencedLogicalIds(machine.LoggingConfiguration.Destinations)[0];
        expect(resources[groupId].Properties!.LogGroupName).toMatch(new RegExp(`^${VENDED_STATES_LOG_PREFIX}fincore-${stage}-`));
      }
    });

    it('writes access log lines that stay valid JSON whatever the client sends, and compresses responses', () => {
      const { template } = get(stage);
      const [stageProps] = Object.values(template.findResources('AWS::ApiGateway::Stage')).map((r) => r.Properties);
      const format: string = stageProps.AccessLogSetting.Format;
      expect(format).not.toMatch(/userAgent|\$context\.path"|\$context\.error\.message"/);
      // Substitute hostile values for every variable: the line must still parse.
      const hostile = format.replace(/\$context\.error\.messageString/g, JSON.stringify('a "quoted" \\ message')).replace(/\$context\.[A-Za-z.]+/g, 'x1');
      expect(Object.keys(JSON.parse(hostile))).toEqual([...Object.keys(ACCESS_LOG_FIELDS), 'errorMessage']);
      template.hasResourceProperties('AWS::ApiGateway::RestApi', { MinimumCompressionSize: MIN_COMPRESSION_SIZE.toBytes() });
    });

    it('leaves the account-level API Gateway role to one opted-in stack', () => {
      const { resources } = get(stage);
      expect(ofType(resources, 'AWS::ApiGateway::Account')).toEqual([]);
      const withAccount = synthesize(stage, {}, { manageApiGatewayAccount: true });
      const accounts = Object.entries(withAccount.resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Account');
      expect(accounts).toHaveLength(1);
      expect(accounts[0][1].DeletionPolicy).toBe('Retain');
    });

    it('optionally subscribes an email and an existing topic to the alarms, and serves a custom domain as FC_BASE_URL', () => {
      const topicArn = 'arn:aws:sns:us-east-1:111111111111:oncall';
      const custom = synthesize(stage, {}, {
        alarmSubscription: { email: 'ops@example.com', topicArn },
        customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' },
      });
      const subscriptions = ofType(custom.resources, 'AWS::SNS::Subscription');
      expect(subscriptions.map(([, sub]) => [sub.Protocol, sub.Endpoint])).toEqual([['email', 'ops@example.com']]);
      for (const [, alarm] of ofType(custom.resources, 'AWS::CloudWatch::Alarm')) expect(alarm.AlarmActions).toContain(topicArn);
      expect(ofType(custom.resources, 'AWS::ApiGateway::DomainName')).toEqual([
        [expect.any(String), expect.objectContaining({ DomainName: 'api.example.com', SecurityPolicy: 'TLS_1_2' })],
      ]);
      for (const [, fn] of ofType(custom.resources, 'AWS::Lambda::Function')) {
        expect(fn.Environment.Variables.FC_BASE_URL).toBe('https://api.example.com');
      }
      // Without a custom domain no function is told a base URL.
      for (const [, fn] of ofType(get(stage).resources, 'AWS::Lambda::Function')) expect(fn.Environment.Variables.FC_BASE_URL).toBeUndefined();
    });
  });

  describe('console sign-in (Cognito)', () => {
    const envOf = (fn: FincoreFunction): Record<string, unknown> => get(stage).resources[logicalId(fn)].Properties!.Environment.Variables;
    const poolIds = () => {
      const { stack } = get(stage);
      return {
        pool: { Ref: cfnId(stack.consoleIdentity.userPool) },
        client: { Ref: cfnId(stack.consoleIdentity.client) },
        domain: { 'Fn::Join': ['', [{ Ref: cfnId(stack.consoleIdentity.domain) }, '.auth.us-east-1.amazoncognito.com']] },
      };
    };

    it('has one user pool with optional TOTP MFA, one hosted UI domain and one public PKCE client calling back to the stage URL', () => {
      const { stack, resources } = get(stage);
      expect(ofType(resources, 'AWS::Cognito::UserPool')).toEqual([[cfnId(stack.consoleIdentity.userPool), expect.objectContaining({ MfaConfiguration: 'OPTIONAL', EnabledMfas: ['SOFTWARE_TOKEN_MFA'] })]]);
      expect(ofType(resources, 'AWS::Cognito::UserPoolDomain')).toHaveLength(1);
      const clients = ofType(resources, 'AWS::Cognito::UserPoolClient');
      expect(clients).toHaveLength(1);
      const client = clients[0][1];
      // A public client: no secret to keep; the authorization code (redeemed with a PKCE verifier) only.
      expect(client).toMatchObject({ GenerateSecret: false, AllowedOAuthFlows: ['code'], AllowedOAuthFlowsUserPoolClient: true });
      // {base_url} without a custom domain: the API's execute-api URL with the stage, built from the
      // API's id (not restApi.url, whose reference to the stage would close a dependency cycle).
      const stageUrl = { 'Fn::Join': ['', ['https://', { Ref: cfnId(stack.api.restApi) }, `.execute-api.us-east-1.`, { Ref: 'AWS::URLSuffix' }, `/${stage}`]] };
      const resolved = (value: unknown) => JSON.stringify(resolveIntrinsics(value));
      expect(resolved(client.CallbackURLs)).toBe(resolved([{ 'Fn::Join': ['', [stageUrl, '/console/api/auth/callback']] }]));
      expect(resolved(client.LogoutURLs)).toBe(resolved([{ 'Fn::Join': ['', [stageUrl, '/console/']] }]));
      expect(referencedLogicalIds(client.CallbackURLs)).toEqual([cfnId(stack.api.restApi)]);
    });

    it('names the pool, its hosted UI and the console URL in the stack outputs', () => {
      const outputs = get(stage).template.toJSON().Outputs;
      const ids = poolIds();
      expect(outputs.ConsoleSignInDomain.Value).toEqual(ids.domain);
      expect(outputs.ConsoleUserPoolId.Value).toEqual(ids.pool);
      expect(JSON.stringify(resolveIntrinsics(outputs.ConsoleUrl.Value))).toMatch(new RegExp(`execute-api\\.us-east-1\\.amazonaws\\.com/${stage}/console/"$`));
    });

    it('tells exactly the routes that sign in (ROUTE_CAPABILITIES.consoleIdentity) the pool, client and hosted UI, through declared parameters', () => {
      const { stack, nested } = get(stage);
      const ids = poolIds();
      for (const route of ROUTES) {
        const env = envOf(stack.api.routeFunctions.get(route.id)!);
        const cognito = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('FC_CONSOLE_COGNITO_')));
        expect({ route: route.id, cognito }).toEqual({
          route: route.id,
          cognito: routeAccessFor(route).consoleIdentity
            ? { [ENV_VARS.consoleCognitoDomain]: ids.domain, [ENV_VARS.consoleCognitoClientId]: ids.client, [ENV_VARS.consoleCognitoUserPoolId]: ids.pool }
            : {},
        });
      }
      const declaring = stack.api.routeStacks.filter((s) => 'ConsoleCognitoClientId' in (nested.find((n) => n.stack === s)!.template.toJSON().Parameters ?? {}));
      expect(declaring.map((s) => s.node.id).sort()).toEqual(
        [...new Set(ROUTES.filter((r) => routeAccessFor(r).consoleIdentity).map(routeStackId))].sort(),
      );
      // The hosted UI and the token endpoint are public HTTPS endpoints: nobody gets a Cognito IAM action.
      const { resources } = get(stage);
      for (const [id] of ofType(resources, 'AWS::IAM::Role')) {
        expect(roleStatements(resources, id).flatMap((st) => st.actions).filter((a) => a.startsWith('cognito'))).toEqual([]);
      }
    });

    it('calls back to the custom domain when the stage has one', () => {
      const custom = synthesize(stage, {}, { customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' } });
      const [[, client]] = ofType(custom.resources, 'AWS::Cognito::UserPoolClient');
      expect(client.CallbackURLs).toEqual(['https://api.example.com/console/api/auth/callback']);
      expect(client.LogoutURLs).toEqual(['https://api.example.com/console/']);
      expect(custom.template.toJSON().Outputs.ConsoleUrl.Value).toBe('https://api.example.com/console/');
    });
    it('bills provisioned capacity with autoscaling when the stage config chooses it, the index scaled on its own', () => {
      const wanted = PROVISIONED_TABLE_CAPACITY[stage];
      const provisioned = synthesize(stage, {}, { tableCapacity: wanted });
      const scaling = ({ min, max, seed }: { min: number; max: number; seed: number }) => ({
        MinCapacity: min,
        MaxCapacity: max,
        SeedCapacity: seed,
        TargetTrackingScalingPolicyConfiguration: { TargetValue: wanted.targetUtilizationPercent },
      });
      provisioned.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
        BillingMode: 'PROVISIONED',
        WriteProvisionedThroughputSettings: { WriteCapacityAutoScalingSettings: scaling(wanted.writes) },
        GlobalSecondaryIndexes: TABLE.globalIndexes.map((index) =>
          Match.objectLike({ IndexName: index.indexName, WriteProvisionedThroughputSettings: { WriteCapacityAutoScalingSettings: scaling(wanted.indexWrites) } }),
        ),
        Replicas: [
          Match.objectLike({
            ReadProvisionedThroughputSettings: { ReadCapacityAutoScalingSettings: scaling(wanted.reads) },
            GlobalSecondaryIndexes: TABLE.globalIndexes.map((index) =>
              Match.objectLike({ IndexName: index.indexName, ReadProvisionedThroughputSettings: { ReadCapacityAutoScalingSettings: scaling(wanted.indexReads) } }),
            ),
          }),
        ],
      });
      // Within the account's default regional quota (80,000 of each over all tables and indexes).
      expect(wanted.reads.max + wanted.indexReads.max * TABLE.globalIndexes.length).toBeLessThanOrEqual(80_000);
      expect(wanted.writes.max + wanted.indexWrites.max * TABLE.globalIndexes.length).toBeLessThanOrEqual(80_000);
      // Every stage is on demand until its committed config says otherwise.
      expect(stageConfig(stage).tableCapacity).toEqual({ mode: 'on-demand' });
      get(stage).template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { BillingMode: 'PAY_PER_REQUEST', WriteProvisionedThroughputSettings: Match.absent() });
    });
  });

  describe('observability', () => {
    it('alarms on API 5xx rate, p99 latency, throttles of every function, and each DLQ, to an encrypted topic', () => {
      const { stack, resources } = get(stage);
      const alarms = ofType(resources, 'AWS::CloudWatch::Alarm').map(([, a]) => a);
      const metricNames = (alarm: TemplateJson) =>
        [alarm.MetricName, ...(alarm.Metrics ?? []).map((m: TemplateJson) => m.MetricStat?.Metric.MetricName)].filter(Boolean);
      const topicId = cfnId(stack.observability.alarmTopic);

      const fiveXx = alarms.filter((a) => metricNames(a).includes('5XXError'));
      expect(fiveXx).toHaveLength(1);
      expect(fiveXx[0].Metrics.find((m: TemplateJson) => m.Expression).Expression).toMatch(/errors \/ requests/);
      expect(metricNames(fiveXx[0])).toContain('Count');

      const latency = alarms.filter((a) => metricNames(a).includes('Latency'));
      expect(latency.map((a) => a.Metrics[0].MetricStat.Stat)).toEqual(['p99']);

      // Functions in nested stacks reach the parent's alarms through nested stack outputs.
      const throttled = new Set(
        alarms
          .filter((a) => metricNames(a).includes('Throttles'))
          .flatMap((a) => a.Metrics.filter((m: TemplateJson) => m.MetricStat).map((m: TemplateJson) => m.MetricStat.Metric.Dimensions[0].Value.Ref)),
      );
      expect(throttled.size).toBe(ROUTES.length + 1 + WORKER_COUNT);
      expect([...throttled].sort()).toEqual(allFunctions(stack).map(logicalId).sort());

      const dlqIds = [stack.jobs.webhookEvents.deadLetterQueue, stack.jobs.itemRefresh.deadLetterQueue].map((q) => cfnId(q));
      for (const dlqId of dlqIds) {
        const depth = alarms.filter((a) => referencedLogicalIds(a.Metrics).includes(dlqId));
        expect(depth).toHaveLength(1);
        expect(depth[0].Threshold).toBe(0);
        expect(depth[0].ComparisonOperator).toBe('GreaterThanThreshold');
      }

      // The table's throttled requests: reads and writes of the table and of each index, in one alarm.
      const tableThrottles = alarms.filter((a) => metricNames(a).includes('WriteThrottleEvents'));
      expect(tableThrottles).toHaveLength(1);
      const throttleDimensions = tableThrottles[0].Metrics.filter((m: TemplateJson) => m.MetricStat).map((m: TemplateJson) => [
        m.MetricStat.Metric.MetricName,
        m.MetricStat.Metric.Dimensions.find((d: TemplateJson) => d.Name === 'GlobalSecondaryIndexName')?.Value ?? 'table',
      ]);
      expect(throttleDimensions.sort()).toEqual(
        ['table', ...TABLE.globalIndexes.map((i) => i.indexName)].flatMap((on) => TABLE_THROTTLE_METRICS.map((name) => [name, on])).sort(),
      );
      expect(tableThrottles[0].Threshold).toBe(stageConfig(stage).alarms.tableThrottleEvents);
      expect(tableThrottles[0].ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
      expect(tableThrottles[0].EvaluationPeriods).toBe(2);
      // Every metric is of this stack's table, and the sum counts a metric without data as 0.
      const throttleIds = tableThrottles[0].Metrics.filter((m: TemplateJson) => m.MetricStat).map((m: TemplateJson) => m.Id as string);
      for (const m of tableThrottles[0].Metrics.filter((m: TemplateJson) => m.MetricStat)) {
        expect(m.MetricStat.Metric.Dimensions.find((d: TemplateJson) => d.Name === 'TableName').Value).toEqual({ Ref: cfnId(stack.data.table) });
      }
      const sum = tableThrottles[0].Metrics.find((m: TemplateJson) => m.Expression).Expression as string;
      expect(sum.split(' + ').sort()).toEqual(throttleIds.map((id: string) => `FILL(${id}, 0)`).sort());

      for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(resources[topicId].Properties!.KmsMasterKeyId).toBeDefined();
    });

    it('has a dashboard that graphs every function, those in nested stacks included', () => {
      const { stack, template, resources } = get(stage);
      template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
      const [[, dashboard]] = ofType(resources, 'AWS::CloudWatch::Dashboard');
      const referenced = new Set(referencedLogicalIds(dashboard.DashboardBody));
      for (const fn of allFunctions(stack)) expect(referenced.has(logicalId(fn))).toBe(true);
    });
  });

  describe('cdk-nag AwsSolutions', () => {
    it('synthesizes with no unacknowledged finding and no error annotation', () => {
      const { app, stack } = get(stage);
      // Template.fromStack already synthesized with the plugin (it throws on findings); run the
      // pack directly too, so a failure lists the findings.
      const report = new AwsSolutionsChecks().validateScope(app);
      expect(report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
      // Nested stacks are no artifacts of their own: their annotations are in the parent's metadata.
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
    // The pack walks the nested stacks too: their functions' findings are there to acknowledge.
    expect(findings.some((f) => f.path.includes('/Api/RoutesItems/ItemsGet/'))).toBe(true);
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

});

describe('CloudFormation resource limit (500 per stack)', () => {
  it.each(STAGES)('keeps the %s parent stack and every nested stack under the budget', (stage) => {
    const { template, nested } = get(stage);
    expect(resourceCount(template)).toBeLessThan(RESOURCE_BUDGET);
    // The parent does not grow with routes (only by one nested stack per new tag and one alarm per
    // ten functions), so it keeps most of its budget.
    expect(resourceCount(template)).toBeLessThan(150);
    for (const { stack, template: nestedTemplate } of nested) {
      expect({ stack: stack.node.id, count: resourceCount(nestedTemplate) < RESOURCE_BUDGET }).toEqual({
        stack: stack.node.id,
        count: true,
      });
    }
  });

  it('still fits with 30 more routes (webhook management, more in existing tags)', () => {
    const size = ROUTES.length + 30;
    const routes = largerRouteTable(size);
    expect(routes).toHaveLength(size);
    const { stack, template, nested, resources } = synthesize('production', { routes, handlerEntry: stubEntry });
    expect(stack.api.routeFunctions.size).toBe(size);
    expect(ofType(resources, 'AWS::Lambda::Function')).toHaveLength(size + 1 + WORKER_COUNT);
    expect(resourceCount(template)).toBeLessThan(150);
    const counts = new Map(nested.map((n) => [n.stack.node.id, resourceCount(n.template)]));
    // The console's stack (36 routes outside /v1, about 7 resources each) is the largest and is not
    // grown here; the stacks that grow keep half their budget.
    expect(counts.get('RoutesConsole')).toBeLessThan(300);
    expect(Math.max(...[...counts].filter(([id]) => id !== 'RoutesConsole').map(([, count]) => count))).toBeLessThan(RESOURCE_BUDGET / 2);
  });

  it('takes a new stage deployment when any route stack changes its methods', () => {
    const deploymentId = (routes: readonly Route[]) => {
      const { template } = synthesize('sandbox', { routes, handlerEntry: stubEntry });
      return ofType(template.toJSON().Resources, 'AWS::ApiGateway::Deployment').map(([id]) => id);
    };
    const all = deploymentId(ROUTES);
    expect(all).toHaveLength(1);
    // Dropping one route changes only its nested stack; the parent template must still change.
    expect(deploymentId(ROUTES.filter((r) => r.id !== 'income.get'))).not.toEqual(all);
    expect(deploymentId(ROUTES)).toEqual(all);
  });
});

function allFunctions(stack: FincoreStack): FincoreFunction[] {
  return [...stack.api.routeFunctions.values(), stack.api.fallback, ...Object.values(stack.jobs.workers)];
}

/** Synthetic routes have no handler file; any existing entry does for a template-only synth. */
function stubEntry(route: Route): string {
  return ROUTES.some((r) => r.id === route.id) ? `api/${route.id}.ts` : 'platform/fallback.ts';
}

/**
 * ROUTES plus eight more webhook-management routes (the `Webhooks` stack is the one that grows),
 * topped up with more routes in existing tags, each under its tag's own path prefix.
 */
function largerRouteTable(size: number): Route[] {
  // Key-authenticated without rows of their own: a data route would need its rows in ROUTE_ROWS.
  const template: Route = { ...routeById('items.get'), item: false, dataAccess: false };
  const extra: Route[] = [];
  for (const name of ['create', 'get', 'list', 'update', 'delete', 'rotate_secret', 'test', 'deliveries']) {
    extra.push({ ...template, id: `webhooks.${name}`, path: `/v1/webhooks/${name}`, tag: 'Webhooks' });
  }
  const tags = ['AI', 'Transactions', 'Items', 'Accounts', 'Sandbox', 'Investments'];
  for (let index = 0; ROUTES.length + extra.length < size; index += 1) {
    const tag = tags[index % tags.length];
    const prefix = ROUTES.find((r) => r.tag === tag)!.path.split('/').slice(0, 3).join('/');
    extra.push({ ...template, id: `scale.${index}`, path: `${prefix}/scale_${index}`, tag });
  }
  return [...ROUTES, ...extra];
}

describe('stage parsing', () => {
  it('reads the optional per-deployment settings from CDK context and refuses half a custom domain', () => {
    const context = (values: Record<string, unknown>) => (key: string) => values[key];
    expect(overridesFromContext(context({}))).toEqual({ alarmSubscription: undefined, customDomain: undefined, manageApiGatewayAccount: undefined });
    expect(overridesFromContext(context({ alarmEmail: 'ops@example.com', apiGatewayAccount: 'true', domainName: 'a.example', certificateArn: 'arn:c' }))).toEqual({
      alarmSubscription: { email: 'ops@example.com', topicArn: undefined },
      customDomain: { domainName: 'a.example', certificateArn: 'arn:c' },
      manageApiGatewayAccount: true,
    });
    expect(() => overridesFromContext(context({ domainName: 'a.example' }))).toThrow(/certificateArn/);
    // The capacity mode is committed per stage: a flag that a later deploy could forget is refused.
    expect(() => overridesFromContext(context({ tableCapacity: 'provisioned' }))).toThrow(/set per stage in lib\/stage-config.ts/);
    // Unset overrides keep the stage's own values.
    expect(stageConfig('production', overridesFromContext(context({}))).manageApiGatewayAccount).toBe(false);
  });

  it('accepts sandbox and production and explains anything else', () => {
    expect(parseStage('sandbox')).toBe('sandbox');
    expect(parseStage('production')).toBe('production');
    expect(() => parseStage(undefined)).toThrow(/-c stage=sandbox\|production \(got nothing\)/);
    expect(() => parseStage('prod')).toThrow(/got "prod"/);
  });
});

describe('the background adapters read the environment the stack sets', () => {
  // Loopback stand-ins of SQS and Step Functions, recording what the adapters send.
  const aws = new AwsJsonFake({ 'AmazonSQS.SendMessage': () => ({}), 'AWSStepFunctions.StartExecution': () => ({}) });
  beforeAll(() => aws.start());
  afterAll(() => aws.close());
  const local = () => ({
    AWS_ENDPOINT_URL_SQS: aws.endpoint,
    AWS_ENDPOINT_URL_SFN: aws.endpoint,
    AWS_ACCESS_KEY_ID: FAKE_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: FAKE_CREDENTIALS.secretAccessKey,
  });

  it('sends events and refreshes to the queue URLs in FC_WEBHOOK_EVENTS_QUEUE_URL / FC_ITEM_REFRESH_QUEUE_URL', async () => {
    const ports = createAwsPorts(
      { ...local(), [ENV_VARS.eventsQueueUrl]: 'https://sqs/events', [ENV_VARS.refreshQueueUrl]: 'https://sqs/refresh.fifo' },
      'us-east-1',
    );
    await ports.eventBus.publish('evt_1');
    await ports.refreshQueue.enqueue({ item_id: 'item_1', reason: 'on_demand' });
    const sent = aws.inputsOf('SendMessage');
    expect(sent[0]).toMatchObject({ QueueUrl: 'https://sqs/events' });
    expect(sent[0].MessageGroupId).toBeUndefined();
    // FIFO: one group per item and an explicit deduplication id, so the queue's content-based
    // deduplication stays off (asserted on the template above).
    expect(sent[1]).toMatchObject({ QueueUrl: 'https://sqs/refresh.fifo', MessageGroupId: 'item_1' });
    expect(sent[1].MessageDeduplicationId).toEqual(expect.stringMatching(/^item_1-/));
  });

  it('starts deliveries on the machine in FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN and refuses to run without it', async () => {
    const input = { delivery_id: 'evt_1:whep_1:0', event_id: 'evt_1', endpoint_id: 'whep_1', application_id: 'app_1', environment: 'test' as const, body: '{}', attempts_made: 1 };
    await createAwsPorts({ ...local(), [ENV_VARS.deliveryStateMachineArn]: 'arn:aws:states:us-east-1:1:stateMachine:m' }, 'us-east-1').deliveries.start(input);
    const started = aws.inputsOf('StartExecution');
    expect(started[0]).toMatchObject({ stateMachineArn: 'arn:aws:states:us-east-1:1:stateMachine:m' });
    expect(JSON.parse(String(started[0].input))).toEqual(input);
    // A function the stack did not give a variable fails loudly rather than sending nowhere.
    const bare = createAwsPorts({}, 'us-east-1');
    await expect(bare.eventBus.publish('evt_1')).rejects.toThrow(ENV_VARS.eventsQueueUrl);
    await expect(bare.refreshQueue.enqueue({ item_id: 'i', reason: 'scheduled' })).rejects.toThrow(ENV_VARS.refreshQueueUrl);
    await expect(bare.deliveries.start(input)).rejects.toThrow(ENV_VARS.deliveryStateMachineArn);
  });

  it('reads the table, stage and secrets key from FC_TABLE_NAME, FC_STAGE and FC_SECRETS_KMS_KEY_ID', () => {
    const config = configFromEnv({ [ENV_VARS.tableName]: 't', [ENV_VARS.stage]: 'sandbox', [ENV_VARS.secretsKeyId]: 'arn:aws:kms:k' });
    expect(config).toMatchObject({ tableName: 't', stage: 'sandbox', secretsKmsKeyId: 'arn:aws:kms:k' });
  });

  it("signs the console in through the pool named by FC_CONSOLE_COGNITO_*, and refuses local passwords on a deployed stage without them", () => {
    const identity = consoleIdentityFromEnv({
      [ENV_VARS.stage]: 'sandbox',
      AWS_REGION: 'eu-west-1',
      [ENV_VARS.consoleCognitoDomain]: 'fincore-console-sandbox-111111111111.auth.eu-west-1.amazoncognito.com',
      [ENV_VARS.consoleCognitoClientId]: 'client123',
      [ENV_VARS.consoleCognitoUserPoolId]: 'eu-west-1_pool',
    });
    expect(identity).toMatchObject({
      kind: 'cognito',
      settings: { domain: 'fincore-console-sandbox-111111111111.auth.eu-west-1.amazoncognito.com', clientId: 'client123', userPoolId: 'eu-west-1_pool', region: 'eu-west-1' },
    });
    expect(() => consoleIdentityFromEnv({ [ENV_VARS.stage]: 'sandbox' })).toThrow(/Cognito/);
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
