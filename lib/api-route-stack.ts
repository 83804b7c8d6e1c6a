// A nested stack holding the functions, API Gateway resources and methods of one group of routes
// (one tag, see lib/api-layout.ts). Keeping them out of the parent stack is what lets the route
// table grow: each route costs about ten CloudFormation resources, and every stack is limited to 500.
//
// Everything the stack needs from the parent arrives as a declared parameter (the REST API id, the
// ids of the parent-owned resources it hangs under, the table, its key, the fallback function and,
// when its routes need them, the webhook-events queue, the item-refresh queue, the secrets key,
// the WebhookDelivery state machine, the connector secret and the console's Cognito pool),
// so its template reads on its own and cdk-nag findings name stable parameters.
import { ArnFormat, Aws, Duration, CfnParameter, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { aliasPaths, routeById, type Route } from '../functions/contracts/routes';
import {
  ENV_VARS,
  MODEL_ACTIONS,
  ROUTE_INVOKE_ACTIONS,
  CONNECTOR_SECRET_ACTIONS,
  SECRETS_KEY_ACTIONS,
  TABLE_KEY_ACTIONS,
  foundationModelArn,
  isInvokedByRoutes,
  routeAccessFor,
  routeSecretsKeyConditions,
  tableGrantsFor,
  wholeTableReason,
  type RouteAccess,
} from './api-grants';
import { pascalId, pathParameterName, type RouteStackPlan } from './api-layout';
import { bundledSdksFor } from './bundled-sdks';
import { consoleIdentityEnvironment, type ConsoleIdentitySettings } from './console-identity';
import { FincoreFunction } from './fincore-function';
import type { StageConfig } from './stage-config';

export interface RouteStackProps {
  config: StageConfig;
  plan: RouteStackPlan;
  restApi: apigw.IRestApi;
  /** The parent-owned resources named by `plan.importedPaths` ('/' is the root). */
  parentResources: ReadonlyMap<string, apigw.IResource>;
  table: dynamodb.ITableV2;
  tableKey: kms.IKey;
  fallback: FincoreFunction;
  /** The webhook-events queue (standard): every route that may emit an event sends to it. */
  eventsQueue: sqs.IQueue;
  /** The item-refresh queue (FIFO): items.refresh sends to it. */
  refreshQueue: sqs.IQueue;
  /** Envelope key of the webhook signing secrets. */
  secretsKey: kms.IKey;
  /** The WebhookDelivery state machine: webhooks.events.replay starts executions of it. */
  deliveryWorkflow: sfn.IStateMachine;
  /** The stage's connector credentials secret (Data.connectorSecret). */
  connectorSecret: secretsmanager.ISecret;
  /** The console's Cognito user pool, hosted UI domain and app client (ConsoleIdentity.settings). */
  consoleIdentity: ConsoleIdentitySettings;
  /** Entry below functions/ of a route's handler. */
  handlerEntry: (route: Route) => string;
}

/** Parameters every route stack declares, besides one per imported path. */
export const ROUTE_STACK_PARAMETERS = [
  'RestApiId',
  'RootResourceId',
  'TableName',
  'TableArn',
  'TableKeyArn',
  'FallbackFunctionArn',
] as const;

/** Parameters a route stack declares only when one of its routes needs that resource (routeAccessFor). */
export const EVENTS_QUEUE_PARAMETERS = ['WebhookEventsQueueArn', 'WebhookEventsQueueUrl'] as const;
export const REFRESH_QUEUE_PARAMETERS = ['ItemRefreshQueueArn', 'ItemRefreshQueueUrl'] as const;
export const SECRETS_KEY_PARAMETERS = ['SecretsKeyArn'] as const;
export const DELIVERY_WORKFLOW_PARAMETERS = ['WebhookDeliveryStateMachineArn'] as const;
export const CONNECTOR_SECRET_PARAMETERS = ['ConnectorSecretArn'] as const;
export const CONSOLE_IDENTITY_PARAMETERS = ['ConsoleCognitoDomain', 'ConsoleCognitoClientId', 'ConsoleCognitoUserPoolId'] as const;

/** A long-running route's function timeout: API Gateway waits at most 29 s for an integration. */
export const LONG_RUNNING_TIMEOUT = Duration.seconds(29);
/**
 * A long-running route's memory: 1,769 MB is one full vCPU, so a statement import runs at about the
 * rate bench/statement-import.ts measures (512 MB gets under a third of a vCPU).
 */
export const LONG_RUNNING_MEMORY_MB = 1769;

/** Every parameter a stack of these routes declares, besides one per imported path. */
export function routeStackParameters(routes: readonly Route[]): string[] {
  const access = routes.map(routeAccessFor);
  return [
    ...ROUTE_STACK_PARAMETERS,
    ...(access.some((a) => a.eventsQueue) ? EVENTS_QUEUE_PARAMETERS : []),
    ...(access.some((a) => a.refreshQueue) ? REFRESH_QUEUE_PARAMETERS : []),
    ...(access.some((a) => a.secretsKey) ? SECRETS_KEY_PARAMETERS : []),
    ...(access.some((a) => a.deliveryWorkflow) ? DELIVERY_WORKFLOW_PARAMETERS : []),
    ...(access.some((a) => a.connectorConfig) ? CONNECTOR_SECRET_PARAMETERS : []),
    ...(access.some((a) => a.consoleIdentity) ? CONSOLE_IDENTITY_PARAMETERS : []),
    ...invokedRoutesOf(routes).map(routeFunctionParameterName),
  ];
}

/** The routes whose functions these routes hand calls to (ROUTE_INVOCATIONS), each once. */
function invokedRoutesOf(routes: readonly Route[]): string[] {
  return [...new Set(routes.flatMap((route) => routeAccessFor(route).invokesRoutes))];
}

/** The parameter that carries the name of a route's function into a stack whose routes invoke it: `RouteFunctionAiCategorize`. */
export function routeFunctionParameterName(routeId: string): string {
  return `RouteFunction${pascalId(routeId)}`;
}

/** Construct id of a route's function, e.g. `items.get` -> `ItemsGet`, `discovery.llms-full` -> `DiscoveryLlmsFull`. */
export function routeConstructId(routeId: string): string {
  return pascalId(routeId);
}

export class RouteStack extends NestedStack {
  readonly routeFunctions = new Map<string, FincoreFunction>();
  /** Routes of other stacks whose functions this stack's routes invoke: the parent sets each one's routeFunctionParameterName. */
  readonly invokedRoutes: readonly string[];
  /**
   * Every method this stack adds, as `METHOD /path -> target`. The parent folds it into the API
   * deployment's logical id, so any change to the wiring here produces a new deployment of the stage.
   */
  readonly wiring: string[] = [];

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    const { config, plan } = props;
    const parameterValues: Record<string, string> = {
      RestApiId: props.restApi.restApiId,
      RootResourceId: props.restApi.root.resourceId,
      TableName: props.table.tableName,
      TableArn: props.table.tableArn,
      TableKeyArn: props.tableKey.keyArn,
      FallbackFunctionArn: props.fallback.fn.functionArn,
    };
    const optional: Record<string, string> = {
      WebhookEventsQueueArn: props.eventsQueue.queueArn,
      WebhookEventsQueueUrl: props.eventsQueue.queueUrl,
      ItemRefreshQueueArn: props.refreshQueue.queueArn,
      ItemRefreshQueueUrl: props.refreshQueue.queueUrl,
      SecretsKeyArn: props.secretsKey.keyArn,
      WebhookDeliveryStateMachineArn: props.deliveryWorkflow.stateMachineArn,
      ConnectorSecretArn: props.connectorSecret.secretArn,
      ConsoleCognitoDomain: props.consoleIdentity.domain,
      ConsoleCognitoClientId: props.consoleIdentity.clientId,
      ConsoleCognitoUserPoolId: props.consoleIdentity.userPoolId,
    };
    const declared = routeStackParameters(plan.routes);
    // The invoked functions' names are set by the parent once every route stack exists (setParameter).
    for (const name of declared.filter((n) => !(n in parameterValues) && n in optional)) parameterValues[name] = optional[name];
    for (const path of plan.importedPaths.filter((p) => p !== '/')) {
      const name = pathParameterName(path);
      if (name in parameterValues) throw new Error(`${id}: two parameters named ${name}`);
      const resource = props.parentResources.get(path);
      if (!resource) throw new Error(`${id}: the parent has no resource at ${path}`);
      parameterValues[name] = resource.resourceId;
    }
    super(scope, id, {
      description: `fincore ${config.stage}: ${plan.routes.length} route(s) tagged ${plan.routes[0].tag}`,
      parameters: parameterValues,
    });

    const param = (name: string, description: string) =>
      new CfnParameter(this, name, { type: 'String', description }).valueAsString;
    const restApiId = param('RestApiId', 'Id of the REST API');
    const rootResourceId = param('RootResourceId', 'Id of the REST API root resource');
    const restApi = apigw.RestApi.fromRestApiAttributes(this, 'RestApi', { restApiId, rootResourceId });
    const parents = new Map<string, apigw.IResource>();
    for (const path of plan.importedPaths) {
      parents.set(
        path,
        path === '/'
          ? restApi.root
          : apigw.Resource.fromResourceAttributes(this, `Imported${pathParameterName(path)}`, {
              restApi,
              path,
              resourceId: param(pathParameterName(path), `Id of the API resource ${path} (owned by the parent stack)`),
            }),
      );
    }
    const tableArn = param('TableArn', 'ARN of the table');
    const tableKeyArn = param('TableKeyArn', 'ARN of the table encryption key');
    const tableKey = kms.Key.fromKeyArn(this, 'TableKey', tableKeyArn);
    const table = dynamodb.TableV2.fromTableAttributes(this, 'Table', {
      tableArn,
      encryptionKey: tableKey,
      grantIndexPermissions: true,
    });
    const tableName = param('TableName', 'Name of the table');
    const has = (name: string) => declared.includes(name);
    const background: BackgroundRefs = {
      eventsQueue: has('WebhookEventsQueueArn')
        ? { arn: param('WebhookEventsQueueArn', 'ARN of the webhook-events queue'), url: param('WebhookEventsQueueUrl', 'URL of the webhook-events queue') }
        : undefined,
      refreshQueue: has('ItemRefreshQueueArn')
        ? { arn: param('ItemRefreshQueueArn', 'ARN of the item-refresh FIFO queue'), url: param('ItemRefreshQueueUrl', 'URL of the item-refresh FIFO queue') }
        : undefined,
      secretsKeyArn: has('SecretsKeyArn') ? param('SecretsKeyArn', 'ARN of the webhook secrets key') : undefined,
      deliveryStateMachineArn: has('WebhookDeliveryStateMachineArn')
        ? param('WebhookDeliveryStateMachineArn', 'ARN of the WebhookDelivery state machine')
        : undefined,
      connectorSecretArn: has('ConnectorSecretArn') ? param('ConnectorSecretArn', 'ARN of the connector credentials secret') : undefined,
      consoleIdentity: has('ConsoleCognitoDomain')
        ? {
            domain: param('ConsoleCognitoDomain', "Host of the console user pool's hosted UI"),
            clientId: param('ConsoleCognitoClientId', "Id of the console's Cognito app client"),
            userPoolId: param('ConsoleCognitoUserPoolId', 'Id of the console user pool'),
          }
        : undefined,
    };
    const fallback = lambdaProxy(param('FallbackFunctionArn', 'ARN of the fallback function (404/405)'));
    this.invokedRoutes = invokedRoutesOf(plan.routes);
    const invokedNames = new Map(this.invokedRoutes.map((id) => [id, param(routeFunctionParameterName(id), `Name of the ${id} route's function`)]));

    const resourceFor = (path: string): apigw.IResource => {
      const [base, parent] = [...parents].filter(([p]) => p === '/' || path === p || path.startsWith(`${p}/`)).sort(
        ([a], [b]) => b.length - a.length,
      )[0];
      return path === base ? parent : parent.resourceForPath(base === '/' ? path : path.slice(base.length + 1));
    };
    const methodOptions = { authorizationType: apigw.AuthorizationType.NONE };

    for (const route of plan.routes) {
      const model = stageModelOf(route, config);
      const fn = new FincoreFunction(this, routeConstructId(route.id), {
        entry: props.handlerEntry(route),
        description: `${route.id}: ${route.method} ${route.path}`,
        config,
        environment: { ...routeEnvironment(route, tableName, background), ...(model ? { [ENV_VARS.bedrockModelId]: model.bedrockModelId } : {}) },
        memorySize: route.longRunning ? LONG_RUNNING_MEMORY_MB : config.apiFunction.memorySize,
        timeout: routeFunctionTimeout(route, config),
        bundledSdks: bundledSdksFor({ ...routeAccessFor(route), model: model !== null }),
        answersInlineCalls: isInvokedByRoutes(route.id),
      });
      grantRoute(route, fn, table, tableArn, tableKeyArn, background);
      if (model) fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...MODEL_ACTIONS], resources: [foundationModelArn(Aws.PARTITION, Aws.REGION, model.bedrockModelId)] }));
      grantRouteInvocations(route, fn, invokedNames);
      this.routeFunctions.set(route.id, fn);

      const integration = lambdaProxy(fn.fn.functionArn);
      for (const path of aliasPaths(route)) {
        acknowledgeNoGatewayAuth(resourceFor(path).addMethod(route.method, integration, methodOptions), route);
        this.wiring.push(`${route.method} ${path} -> ${route.id}`);
      }
      fn.fn.addPermission('InvokeFromApi', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: restApi.arnForExecuteApi(route.method, invokeSourcePath(route), '*'),
      });
    }

    // A wrong method on a known path reaches the fallback (405 with Allow); API Gateway prefers the
    // explicit method when one exists. The fallback's one permission (any method, any path of this
    // API) is in the parent.
    for (const path of plan.fallbackPaths) {
      acknowledgeNoGatewayAuth(resourceFor(path).addMethod('ANY', fallback, methodOptions), null);
      this.wiring.push(`ANY ${path} -> fallback`);
    }
  }
}

/**
 * A route that hands calls to other routes' functions (ROUTE_INVOCATIONS: the MCP server): their
 * names in FC_ROUTE_FUNCTIONS and `lambda:InvokeFunction` on exactly those functions (ARNs built in
 * this stack from the names its parameters carry).
 */
function grantRouteInvocations(route: Route, fn: FincoreFunction, names: ReadonlyMap<string, string>): void {
  const targets = routeAccessFor(route).invokesRoutes;
  if (targets.length === 0) return;
  const nameOf = (id: string) => names.get(id) ?? need<string>(undefined, `${id} function name`, route);
  fn.fn.addEnvironment(ENV_VARS.routeFunctions, targets.map((id) => `${id}=${nameOf(id)}`).join(','));
  const stack = Stack.of(fn);
  fn.role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: [...ROUTE_INVOKE_ACTIONS],
      resources: targets.map((id) => stack.formatArn({ service: 'lambda', resource: 'function', resourceName: nameOf(id), arnFormat: ArnFormat.COLON_RESOURCE_NAME })),
    }),
  );
}

/** How long a route's function may run: an AI route waits on the model, a long-running one up to API Gateway's limit. */
export function routeFunctionTimeout(route: Route, config: Pick<StageConfig, 'ai' | 'apiFunction'>): Duration {
  const access = routeAccessFor(route);
  const own = access.model ? config.ai.functionTimeout : route.longRunning ? LONG_RUNNING_TIMEOUT : config.apiFunction.timeout;
  if (access.invokesRoutes.length === 0) return own;
  // A function that hands calls to other routes' functions waits for them (ROUTE_INVOCATIONS): the
  // longest of theirs, plus a few seconds of its own around the call (its own authentication, a
  // cold start of the invoked function, which does not count against that function's timeout).
  const longest = Math.max(own.toMilliseconds(), ...access.invokesRoutes.map((id) => routeFunctionTimeout(routeById(id), config).toMilliseconds()));
  return Duration.millis(longest).plus(INVOKING_FUNCTION_OVERHEAD);
}

/** What a function that hands a call to another route's function adds to that function's timeout. */
const INVOKING_FUNCTION_OVERHEAD = Duration.seconds(5);

/**
 * The model a route's function may call: the stage's (StageConfig.ai.model) for a live route that
 * calls the model (ROUTE_CAPABILITIES.model); null for every other function, and on a stage without
 * a model (rules answers only: no variable, no grant, no Bedrock SDK).
 */
export function stageModelOf(route: Route, config: Pick<StageConfig, 'ai'>): { bedrockModelId: string } | null {
  const access: Pick<RouteAccess, 'model'> = routeAccessFor(route);
  return access.model ? config.ai.model : null;
}

/** The background resources this stack received as parameters (undefined: none of its routes needs it). */
interface BackgroundRefs {
  eventsQueue?: { arn: string; url: string };
  refreshQueue?: { arn: string; url: string };
  secretsKeyArn?: string;
  deliveryStateMachineArn?: string;
  connectorSecretArn?: string;
  consoleIdentity?: ConsoleIdentitySettings;
}

const need = <T>(value: T | undefined, what: string, route: Route): T => {
  if (value === undefined) throw new Error(`${route.id}: its route stack did not declare the ${what} parameters`);
  return value;
};

function routeEnvironment(route: Route, tableName: string, refs: BackgroundRefs): Record<string, string> {
  const access = routeAccessFor(route);
  return {
    [ENV_VARS.tableName]: tableName,
    ...(access.eventsQueue ? { [ENV_VARS.eventsQueueUrl]: need(refs.eventsQueue, 'events queue', route).url } : {}),
    ...(access.refreshQueue ? { [ENV_VARS.refreshQueueUrl]: need(refs.refreshQueue, 'refresh queue', route).url } : {}),
    ...(access.secretsKey ? { [ENV_VARS.secretsKeyId]: need(refs.secretsKeyArn, 'secrets key', route) } : {}),
    ...(access.deliveryWorkflow
      ? { [ENV_VARS.deliveryStateMachineArn]: need(refs.deliveryStateMachineArn, 'delivery workflow', route) }
      : {}),
    ...(access.connectorConfig ? { [ENV_VARS.connectorSecretArn]: need(refs.connectorSecretArn, 'connector secret', route) } : {}),
    ...(access.consoleIdentity ? consoleIdentityEnvironment(need(refs.consoleIdentity, 'console identity', route)) : {}),
  };
}

function grantRoute(
  route: Route,
  fn: FincoreFunction,
  table: dynamodb.ITableV2,
  tableArn: string,
  tableKeyArn: string,
  refs: BackgroundRefs,
): void {
  const access = routeAccessFor(route);
  const allow = (actions: readonly string[], resource: string, conditions?: Record<string, unknown>) =>
    fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...actions], resources: [resource], conditions }));
  switch (access.table) {
    case 'none':
      break;
    case 'auth-and-meter':
    case 'partitions':
      // Each action only on the partitions of the rows the route touches (lib/api-grants.ts ROUTE_ROWS).
      for (const grant of tableGrantsFor(route)) {
        const resource = grant.index ? `${tableArn}/index/${grant.index}` : tableArn;
        allow(grant.actions, resource, { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...grant.partitions] } });
      }
      allow(TABLE_KEY_ACTIONS, tableKeyArn);
      break;
    case 'whole-table':
      // cdk-nag names the table ARN by the stack parameter here.
      fn.grantTableReadWrite(table, '<TableArn>', `${route.id} ${wholeTableReason(route.id) ?? 'needs the whole table'}`);
      break;
  }
  if (access.eventsQueue) allow(['sqs:SendMessage'], need(refs.eventsQueue, 'events queue', route).arn);
  if (access.refreshQueue) allow(['sqs:SendMessage'], need(refs.refreshQueue, 'refresh queue', route).arn);
  if (access.secretsKey) allow(SECRETS_KEY_ACTIONS, need(refs.secretsKeyArn, 'secrets key', route), routeSecretsKeyConditions(route.id));
  if (access.deliveryWorkflow) {
    allow(['states:StartExecution'], need(refs.deliveryStateMachineArn, 'delivery workflow', route));
  }
  if (access.connectorConfig) allow(CONNECTOR_SECRET_ACTIONS, need(refs.connectorSecretArn, 'connector secret', route));
}

/** Lambda proxy integration without CDK's per-method permissions (permissions are added explicitly). */
export function lambdaProxy(functionArn: string): apigw.Integration {
  return new apigw.Integration({
    type: apigw.IntegrationType.AWS_PROXY,
    integrationHttpMethod: 'POST',
    uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${functionArn}/invocations`,
  });
}

/**
 * The execute-api path a route's function may be invoked through: its one path, or for /v1 routes a
 * pattern matching exactly its alias paths (/v1/x and /api/v1/x). One Lambda permission per route
 * instead of one per alias. A greedy path (`/plaid/{proxy+}`) is invoked with the request's own path
 * below it, so its parameter becomes a wildcard (`/plaid/*`), as CDK's own method ARNs spell it.
 */
export function invokeSourcePath(route: Route): string {
  const paths = aliasPaths(route).map((path) => path.replace(/\{[^}]*\}/g, '*'));
  if (paths.length === 1) return paths[0];
  if (!paths.every((p) => p.endsWith(route.path))) throw new Error(`Alias paths of ${route.path} do not share its suffix`);
  return `/*${route.path.slice(1)}`;
}

export function acknowledgeNoGatewayAuth(method: apigw.Method, route: Route | null): void {
  const reason =
    route === null
      ? 'Fallback method: it only answers 404 route_not_found or 405 method_not_allowed with the error envelope ' +
        'and touches no data, so there is nothing to authorize.'
      : route.console && route.auth === 'none'
        ? `${route.id} is how a browser reaches or signs in to the console (its page, or a sign-in step): there is ` +
          'no session yet to check; Cognito\'s hosted UI signs people in and the function starts the console\'s own ' +
          'session from the verified ID token (or refuses the step where it does not apply).'
        : route.auth === 'none'
          ? `${route.id} is public by design (auth: none in the route table): a public document, page or script ` +
            'served to browsers and crawlers without credentials; it holds no key and is not metered.'
          : route.auth === 'link'
            ? `${route.id} is the hosted Link page's own API: the browser has no API key, so the function ` +
              'authenticates the short-lived link token in the body against its link session row in DynamoDB; ' +
              'there are no Cognito users or IAM callers to authorize at the gateway.'
            : route.auth === 'session'
              ? `${route.id} is the console's own API: the function authenticates the HttpOnly session cookie (its ` +
                'SHA-256 looked up in DynamoDB, idle and absolute expiry) and the session\'s CSRF token. Cognito only ' +
                'signs people in; the API never sees a Cognito token, so a Cognito authorizer has nothing to check.'
              : `${route.id} authenticates in the Lambda: the ${route.protocol === 'plaid' ? "secret key (Plaid's `secret`)" : 'bearer secret key'} is hashed (SHA-256) and checked against ` +
                'the hashed ApiKey row in DynamoDB in the same conditional write that rate-limits and meters it; API ' +
                'clients hold keys, not IAM credentials or Cognito tokens, so neither authorizer applies.';
  Validations.of(method).acknowledge(
    { id: 'AwsSolutions-APIG4', reason },
    { id: 'AwsSolutions-COG4', reason },
  );
}
