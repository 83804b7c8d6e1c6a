// A nested stack holding the functions, API Gateway resources and methods of one group of routes
// (one tag, see lib/api-layout.ts). Keeping them out of the parent stack is what lets the route
// table grow: each route costs about ten CloudFormation resources, and every stack is limited to 500.
//
// Everything the stack needs from the parent arrives as a declared parameter (the REST API id, the
// ids of the parent-owned resources it hangs under, the table, its key and the fallback function),
// so its template reads on its own and cdk-nag findings name stable parameters.
import { Aws, CfnParameter, NestedStack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { aliasPaths, type Route } from '../functions/contracts/routes';
import { AUTH_AND_METER_ACTIONS, TABLE_KEY_ACTIONS, tableAccessFor } from './api-grants';
import { pascalId, pathParameterName, type RouteStackPlan } from './api-layout';
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

/** Construct id of a route's function, e.g. `items.get` -> `ItemsGet`, `discovery.llms-full` -> `DiscoveryLlmsFull`. */
export function routeConstructId(routeId: string): string {
  return pascalId(routeId);
}

export class RouteStack extends NestedStack {
  readonly routeFunctions = new Map<string, FincoreFunction>();
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
    const environment = { FC_TABLE_NAME: param('TableName', 'Name of the table') };
    const fallback = lambdaProxy(param('FallbackFunctionArn', 'ARN of the fallback function (404/405)'));

    const resourceFor = (path: string): apigw.IResource => {
      const [base, parent] = [...parents].filter(([p]) => p === '/' || path === p || path.startsWith(`${p}/`)).sort(
        ([a], [b]) => b.length - a.length,
      )[0];
      return path === base ? parent : parent.resourceForPath(base === '/' ? path : path.slice(base.length + 1));
    };
    const methodOptions = { authorizationType: apigw.AuthorizationType.NONE };

    for (const route of plan.routes) {
      const fn = new FincoreFunction(this, routeConstructId(route.id), {
        entry: props.handlerEntry(route),
        description: `${route.id}: ${route.method} ${route.path}`,
        config,
        environment,
        memorySize: config.apiFunction.memorySize,
        timeout: config.apiFunction.timeout,
      });
      grantRoute(route, fn, table, tableArn, tableKeyArn);
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

function grantRoute(route: Route, fn: FincoreFunction, table: dynamodb.ITableV2, tableArn: string, tableKeyArn: string): void {
  switch (tableAccessFor(route)) {
    case 'none':
      return;
    case 'auth-and-meter':
      fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...AUTH_AND_METER_ACTIONS], resources: [tableArn] }));
      fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...TABLE_KEY_ACTIONS], resources: [tableKeyArn] }));
      return;
    case 'read-write':
      table.grantReadWriteData(fn.role);
      Validations.of(fn).acknowledge(
        {
          id: 'AwsSolutions-IAM5[Resource::<TableArn>/index/*]',
          reason:
            `${route.id} reads and writes rows beyond its own key (dataAccess) and queries the GSI (gsi1); ` +
            'grantReadWriteData grants the table ARN plus "<table ARN>/index/*", which covers this one ' +
            "table's indexes and nothing else.",
        },
        {
          id: 'AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
          reason:
            'Part of grantReadWriteData for a table under a customer-managed key: the wildcard only spans ' +
            "kms:ReEncryptFrom/ReEncryptTo and is limited to the table key's ARN.",
        },
        {
          id: 'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
          reason:
            'Part of grantReadWriteData for a table under a customer-managed key: the wildcard only spans the ' +
            "GenerateDataKey variants and is limited to the table key's ARN.",
        },
      );
      return;
  }
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
 * instead of one per alias.
 */
export function invokeSourcePath(route: Route): string {
  const paths = aliasPaths(route);
  if (paths.length === 1) return paths[0];
  if (!paths.every((p) => p.endsWith(route.path))) throw new Error(`Alias paths of ${route.path} do not share its suffix`);
  return `/*${route.path.slice(1)}`;
}

export function acknowledgeNoGatewayAuth(method: apigw.Method, route: Route | null): void {
  const reason =
    route === null
      ? 'Fallback method: it only answers 404 route_not_found or 405 method_not_allowed with the error envelope ' +
        'and touches no data, so there is nothing to authorize.'
      : route.auth === 'none'
        ? `${route.id} is public by design (auth: none in the route table): a public document, page or script ` +
          'served to browsers and crawlers without credentials; it holds no key and is not metered.'
        : route.auth === 'link'
          ? `${route.id} is the hosted Link page's own API: the browser has no API key, so the function ` +
            'authenticates the short-lived link token in the body against its link session row in DynamoDB; ' +
            'there are no Cognito users or IAM callers to authorize at the gateway.'
          : `${route.id} authenticates in the Lambda: the bearer secret key is hashed (SHA-256) and checked against ` +
            'the hashed ApiKey row in DynamoDB in the same conditional write that rate-limits and meters it; there ' +
            'are no Cognito users, so neither an IAM nor a Cognito authorizer applies.';
  Validations.of(method).acknowledge(
    { id: 'AwsSolutions-APIG4', reason },
    { id: 'AwsSolutions-COG4', reason },
  );
}
