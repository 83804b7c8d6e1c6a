// The REST API: one function per route in ROUTES, one method per alias path of that route, and one
// fallback function behind a greedy proxy and ANY methods so unknown paths (404) and wrong methods
// (405) answer with our error envelope too.
import { Aws, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { aliasPaths, ROUTES, type Route } from '../functions/contracts/routes';
import { AUTH_AND_METER_ACTIONS, TABLE_KEY_ACTIONS, tableAccessFor } from './api-grants';
import { FincoreFunction } from './fincore-function';
import { addGatewayResponses } from './gateway-responses';
import type { StageConfig } from './stage-config';

export interface ApiProps {
  config: StageConfig;
  table: dynamodb.ITableV2;
  tableKey: kms.IKey;
}

/** Access log line: one JSON object per request, keyed by the same request id the handler echoes. */
const ACCESS_LOG_FIELDS: Record<string, string> = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integration.status',
  errorType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  xrayTraceId: '$context.xrayTraceId',
};

/** Construct id of a route's function, e.g. `items.get` -> `ItemsGet`, `discovery.llms-full` -> `DiscoveryLlmsFull`. */
export function routeConstructId(routeId: string): string {
  return routeId
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly accessLogs: logs.LogGroup;
  readonly routeFunctions = new Map<string, FincoreFunction>();
  readonly fallback: FincoreFunction;

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
      // Execution logs need the account-level CloudWatch role. It is always retained: API Gateway
      // uses that one role for every REST API in the account and region, so deleting a sandbox stack
      // must not take it away from production.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    addGatewayResponses(this.restApi);

    const environment = { FC_TABLE_NAME: props.table.tableName };
    for (const route of ROUTES) {
      const fn = new FincoreFunction(this, routeConstructId(route.id), {
        entry: `api/${route.id}.ts`,
        description: `${route.id}: ${route.method} ${route.path}`,
        config,
        environment,
        memorySize: config.apiFunction.memorySize,
        timeout: config.apiFunction.timeout,
      });
      this.grantRoute(route, fn, props);
      this.routeFunctions.set(route.id, fn);
    }

    this.fallback = new FincoreFunction(this, 'Fallback', {
      entry: 'platform/fallback.ts',
      description: 'fallback: unknown paths (404) and wrong methods (405)',
      config,
      environment,
      memorySize: 256,
      timeout: config.apiFunction.timeout,
    });

    this.wireMethods();
  }

  private grantRoute(route: Route, fn: FincoreFunction, props: ApiProps): void {
    switch (tableAccessFor(route)) {
      case 'none':
        return;
      case 'auth-and-meter':
        fn.role.addToPrincipalPolicy(
          new iam.PolicyStatement({ actions: [...AUTH_AND_METER_ACTIONS], resources: [props.table.tableArn] }),
        );
        fn.role.addToPrincipalPolicy(
          new iam.PolicyStatement({ actions: [...TABLE_KEY_ACTIONS], resources: [props.tableKey.keyArn] }),
        );
        return;
      case 'read-write':
        props.table.grantReadWriteData(fn.role);
        Validations.of(fn).acknowledge(
          {
            id: `AwsSolutions-IAM5[Resource::<${this.tableLogicalIdRef(props.table)}.Arn>/index/*]`,
            reason:
              'Item routes query the GSI (gsi1); grantReadWriteData grants the table ARN plus "<table ARN>/index/*", ' +
              'which covers this one table\'s indexes and nothing else.',
          },
          {
            id: 'AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
            reason:
              'Part of grantReadWriteData for a table under a customer-managed key: the wildcard only spans ' +
              'kms:ReEncryptFrom/ReEncryptTo and is limited to the table key\'s ARN.',
          },
          {
            id: 'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
            reason:
              'Part of grantReadWriteData for a table under a customer-managed key: the wildcard only spans the ' +
              'GenerateDataKey variants and is limited to the table key\'s ARN.',
          },
        );
        return;
    }
  }

  /** nag names a GetAtt by the logical id of the table resource. */
  private tableLogicalIdRef(table: dynamodb.ITableV2): string {
    const cfn = table.node.defaultChild as dynamodb.CfnGlobalTable;
    return cfn.stack.getLogicalId(cfn);
  }

  private wireMethods(): void {
    const fallback = this.lambdaProxy(this.fallback);
    const routeResources = new Set<apigw.Resource>();
    const methodOptions = { authorizationType: apigw.AuthorizationType.NONE };

    for (const route of ROUTES) {
      const fn = this.routeFunctions.get(route.id)!;
      const integration = this.lambdaProxy(fn);
      for (const path of aliasPaths(route)) {
        const resource = this.restApi.root.resourceForPath(path);
        acknowledgeNoGatewayAuth(resource.addMethod(route.method, integration, methodOptions), route);
        routeResources.add(resource);
      }
      fn.fn.addPermission('InvokeFromApi', {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.restApi.arnForExecuteApi(route.method, invokeSourcePath(route), '*'),
      });
    }

    // A wrong method on a known path reaches the fallback (405 with Allow); API Gateway prefers the
    // explicit method when one exists.
    for (const resource of routeResources) {
      acknowledgeNoGatewayAuth(resource.addMethod('ANY', fallback, methodOptions), null);
    }
    acknowledgeNoGatewayAuth(this.restApi.root.addMethod('ANY', fallback, methodOptions), null);
    const proxy = this.restApi.root.addResource('{proxy+}');
    acknowledgeNoGatewayAuth(proxy.addMethod('ANY', fallback, methodOptions), null);
    // One permission for every fallback method: it only ever answers 404/405.
    this.fallback.fn.addPermission('InvokeFromApi', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: this.restApi.arnForExecuteApi('*', '/*', '*'),
    });

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason:
          'Request bodies are validated in each Lambda against the route\'s zod schema so that failures carry the ' +
          'catalogue codes (missing_field, unknown_field, invalid_field, ...); a gateway model validator would answer ' +
          'with a different, uncatalogued error shape.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'No WAF web ACL yet: stage throttling caps the request rate, and every authenticated request passes a ' +
          'per-key token bucket and monthly quota in one conditional DynamoDB write before any work is done.',
      },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level role API Gateway uses to write execution logs; AWS publishes and maintains this ' +
          'managed policy exactly for that purpose and it only allows CloudWatch Logs writes.',
      },
    );
  }

  /** Lambda proxy integration without CDK's per-method permissions (permissions are added explicitly). */
  private lambdaProxy(fn: FincoreFunction): apigw.Integration {
    return new apigw.Integration({
      type: apigw.IntegrationType.AWS_PROXY,
      integrationHttpMethod: 'POST',
      uri: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.fn.functionArn}/invocations`,
    });
  }
}

/**
 * The execute-api path a route's function may be invoked through: its one path, or for /v1 routes a
 * pattern matching exactly its alias paths (/v1/x and /api/v1/x). One Lambda permission per route
 * instead of one per alias keeps the stack well inside CloudFormation's 500-resource limit.
 */
export function invokeSourcePath(route: Route): string {
  const paths = aliasPaths(route);
  if (paths.length === 1) return paths[0];
  if (!paths.every((p) => p.endsWith(route.path))) throw new Error(`Alias paths of ${route.path} do not share its suffix`);
  return `/*${route.path.slice(1)}`;
}

function acknowledgeNoGatewayAuth(method: apigw.Method, route: Route | null): void {
  const reason =
    route === null
      ? 'Fallback method: it only answers 404 route_not_found or 405 method_not_allowed with the error envelope ' +
        'and touches no data, so there is nothing to authorize.'
      : route.auth === 'none'
        ? `${route.id} serves a public document by design (auth: none in the route table); its function has no ` +
          'table access at all.'
        : `${route.id} authenticates in the Lambda: the bearer secret key is hashed (SHA-256) and checked against ` +
          'the hashed ApiKey row in DynamoDB in the same conditional write that rate-limits and meters it; there ' +
          'are no Cognito users, so neither an IAM nor a Cognito authorizer applies.';
  Validations.of(method).acknowledge(
    { id: 'AwsSolutions-APIG4', reason },
    { id: 'AwsSolutions-COG4', reason },
  );
}
