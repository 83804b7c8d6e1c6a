// The REST API. The parent stack holds the API itself (stage, deployment, gateway responses, access
// logs), the fallback function behind a greedy proxy and root ANY method so unknown paths answer 404
// with our error envelope, and the few path segments shared by several route groups. The route
// functions and their methods (one per alias path, plus an ANY fallback per route path for 405) live
// in nested stacks, one per route tag (lib/api-route-stack.ts, planned by lib/api-layout.ts).
import { RemovalPolicy, Size, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ROUTES, type Route } from '../functions/contracts/routes';
import { ApiFirewall } from './api-firewall';
import type { ConsoleIdentitySettings } from './console-identity';
import { planApi, type ApiPlan } from './api-layout';
import { acknowledgeNoGatewayAuth, lambdaProxy, routeFunctionParameterName, RouteStack } from './api-route-stack';
import { FincoreFunction } from './fincore-function';
import { addGatewayResponses } from './gateway-responses';
import type { StageConfig } from './stage-config';

export { invokeSourcePath, routeConstructId } from './api-route-stack';

export interface ApiProps extends ApiRouteOptions {
  config: StageConfig;
  table: dynamodb.ITableV2;
  tableKey: kms.IKey;
  /** Passed on to the route stacks whose routes need them (lib/api-grants.ts routeAccessFor). */
  eventsQueue: sqs.IQueue;
  refreshQueue: sqs.IQueue;
  secretsKey: kms.IKey;
  deliveryWorkflow: sfn.IStateMachine;
  connectorSecret: secretsmanager.ISecret;
  /** The console's user pool (lib/console-identity.ts): passed to the route stacks of the routes that sign in. */
  consoleIdentity: ConsoleIdentitySettings;
}

/** Defaults are the real route table and its handlers; the CDK tests pass larger tables to check the layout scales. */
export interface ApiRouteOptions {
  /** @default ROUTES */
  routes?: readonly Route[];
  /** Entry below functions/ of a route's handler. @default `api/<route id>.ts` */
  handlerEntry?: (route: Route) => string;
}

/**
 * Access log line: one JSON object per request, keyed by the same request id the handler echoes.
 * API Gateway substitutes variables verbatim, so only variables that can never hold a quote or a
 * backslash are placed inside quotes here. The client-controlled ones (User-Agent, the raw request
 * path) are left out: one quote in them would break the line's JSON. `errorMessage` uses
 * `$context.error.messageString`, which API Gateway emits as an already quoted and escaped JSON
 * string, so it goes in without quotes of ours. The route is still identified by `resourcePath`.
 */
export const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integration.status',
  errorType: '$context.error.responseType',
  xrayTraceId: '$context.xrayTraceId',
  wafStatus: '$context.waf.status',
};
/** Fields whose variable API Gateway already renders as a JSON string (quoted and escaped). */
export const ACCESS_LOG_JSON_STRING_FIELDS: Record<string, string> = {
  errorMessage: '$context.error.messageString',
};

export function accessLogFormat(): string {
  const quoted = Object.entries(ACCESS_LOG_FIELDS).map(([name, variable]) => `${JSON.stringify(name)}:"${variable}"`);
  const raw = Object.entries(ACCESS_LOG_JSON_STRING_FIELDS).map(([name, variable]) => `${JSON.stringify(name)}:${variable}`);
  return `{${[...quoted, ...raw].join(',')}}`;
}

/** Responses at least this large are gzip/deflate-compressed when the client accepts it. */
export const MIN_COMPRESSION_SIZE = Size.kibibytes(1);

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly accessLogs: logs.LogGroup;
  readonly plan: ApiPlan;
  readonly routeStacks: RouteStack[] = [];
  /** Every route's function, in route-table order, whichever nested stack holds it. */
  readonly routeFunctions = new Map<string, FincoreFunction>();
  readonly fallback: FincoreFunction;
  readonly firewall: ApiFirewall;
  readonly domain?: apigw.DomainName;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { config } = props;

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: `fincore-${config.stage}`,
      description: `fincore financial-data API (${config.stage})`,
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // Execution logs need the account-level CloudWatch role, one per account and region for every
      // REST API there: it is not a per-stage resource, so only the stack deployed with
      // manageApiGatewayAccount creates it (ApiGatewayAccount below), and no stack deletes it.
      cloudWatchRole: false,
      minCompressionSize: MIN_COMPRESSION_SIZE,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(accessLogFormat()),
      },
    });
    addGatewayResponses(this.restApi, config.customDomain ? `https://${config.customDomain.domainName}` : undefined);
    if (config.manageApiGatewayAccount) new ApiGatewayAccount(this, 'Account');
    this.firewall = new ApiFirewall(this, 'Firewall', { config, stage: this.restApi.deploymentStage });
    if (config.customDomain) {
      this.domain = this.restApi.addDomainName('CustomDomain', {
        domainName: config.customDomain.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', config.customDomain.certificateArn),
        endpointType: apigw.EndpointType.REGIONAL,
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      });
    }

    this.fallback = new FincoreFunction(this, 'Fallback', {
      bundledSdks: [],
      entry: 'platform/fallback.ts',
      description: 'fallback: unknown paths (404) and wrong methods (405)',
      config,
      environment: { FC_TABLE_NAME: props.table.tableName },
      memorySize: 256,
      timeout: config.apiFunction.timeout,
    });
    this.wireFallback();

    // Path segments under which routes of several nested stacks sit are created here, once.
    const routes = props.routes ?? ROUTES;
    this.plan = planApi(routes);
    const parentResources = new Map<string, apigw.IResource>([['/', this.restApi.root]]);
    for (const path of this.plan.sharedPaths) parentResources.set(path, this.restApi.root.resourceForPath(path));

    const deployment = this.restApi.latestDeployment!;
    for (const plan of this.plan.stacks) {
      const stack = new RouteStack(this, plan.id, {
        config,
        plan,
        restApi: this.restApi,
        parentResources,
        table: props.table,
        tableKey: props.tableKey,
        eventsQueue: props.eventsQueue,
        refreshQueue: props.refreshQueue,
        secretsKey: props.secretsKey,
        deliveryWorkflow: props.deliveryWorkflow,
        connectorSecret: props.connectorSecret,
        consoleIdentity: props.consoleIdentity,
        fallback: this.fallback,
        handlerEntry: props.handlerEntry ?? ((route) => `api/${route.id}.ts`),
      });
      this.routeStacks.push(stack);
      // The stage's deployment is a snapshot: it must be taken after every nested stack has created
      // or changed its methods, and it must be a new deployment whenever any of them changed (CDK
      // only fingerprints methods of this stack's own RestApi construct).
      deployment.node.addDependency(stack.nestedStackResource!);
      deployment.addToLogicalId({ routeStack: plan.id, wiring: stack.wiring });
    }
    for (const route of routes) {
      const stack = this.routeStacks.find((s) => s.routeFunctions.has(route.id))!;
      this.routeFunctions.set(route.id, stack.routeFunctions.get(route.id)!);
    }
    // The functions a route stack's routes hand calls to (ROUTE_INVOCATIONS) sit in other nested
    // stacks: their names reach it as parameters, set once every stack exists.
    for (const stack of this.routeStacks) {
      for (const id of stack.invokedRoutes) {
        const target = this.routeFunctions.get(id);
        if (!target) throw new Error(`${stack.node.id} hands calls to ${id}, which has no function in this API`);
        // Its own output fed back as its parameter would be a dependency cycle.
        if (stack.routeFunctions.has(id)) throw new Error(`${stack.node.id} hands calls to ${id}, a route of its own stack: give the invoking route another tag`);
        stack.setParameter(routeFunctionParameterName(id), target.fn.functionName);
      }
    }

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Request bodies are validated in each Lambda against the route\'s zod schema so that failures carry the ' +
          'catalogue codes (missing_field, unknown_field, invalid_field, ...); a gateway model validator would answer ' +
          'with a different, uncatalogued error shape.',
      },
    );
  }

  /** Unknown paths: ANY on the root and on a greedy proxy. The route stacks add ANY on route paths. */
  private wireFallback(): void {
    const fallback = lambdaProxy(this.fallback.fn.functionArn);
    const methodOptions = { authorizationType: apigw.AuthorizationType.NONE };
    acknowledgeNoGatewayAuth(this.restApi.root.addMethod('ANY', fallback, methodOptions), null);
    const proxy = this.restApi.root.addResource('{proxy+}');
    acknowledgeNoGatewayAuth(proxy.addMethod('ANY', fallback, methodOptions), null);
    // One permission for every fallback method, here and in the route stacks: it only ever answers 404/405.
    this.fallback.fn.addPermission('InvokeFromApi', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: this.restApi.arnForExecuteApi('*', '/*', '*'),
    });
  }
}

/**
 * The account-level API Gateway settings: the role API Gateway writes execution logs with. One per
 * account and region, shared by every REST API there, so it is retained when its stack goes.
 */
export class ApiGatewayAccount extends Construct {
  readonly role: iam.Role;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.role = new iam.Role(this, 'CloudWatchRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway execution logging for every REST API in this account and region',
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    this.role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    const account = new apigw.CfnAccount(this, 'Settings', { cloudWatchRoleArn: this.role.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        'The account-level role API Gateway uses to write execution logs; AWS publishes and maintains this ' +
        'managed policy exactly for that purpose and it only allows CloudWatch Logs writes.',
    });
  }
}
