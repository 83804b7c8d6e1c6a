// Every Lambda in the stack is built here, so runtime, architecture, bundling, tracing, logging and
// the execution role are decided once. Each function gets its own role with no managed policy:
// it may write to its own log group and nothing else until a construct grants more.
//
// Grants land in the role's inline policy rather than a separate AWS::IAM::Policy: one resource
// fewer per function (every stack counts against CloudFormation's 500-resource limit, see
// docs/stack.md) and the function is never created before its permissions exist.
import * as path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { OptionalSdk } from '../functions/platform/bundled-sdks';
import { aliasEsbuildArgs } from './bundle-aliases';
import { ALL_OPTIONAL_SDKS, sdkDefines } from './bundled-sdks';
import type { StageConfig } from './stage-config';

export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const FUNCTIONS_DIR = path.join(PROJECT_ROOT, 'functions');

export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;
export const LAMBDA_ARCHITECTURE = lambda.Architecture.ARM_64;

export interface FincoreFunctionProps {
  /** Path below functions/, e.g. `api/items.get.ts`. */
  entry: string;
  description: string;
  config: StageConfig;
  environment?: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  /** Caps (and reserves) the function's concurrency; unset: the account's unreserved pool. */
  reservedConcurrentExecutions?: number;
  /** Optional AWS service clients the bundle carries (lib/bundled-sdks.ts); unset: all of them. */
  bundledSdks?: readonly OptionalSdk[];
  /** The function answers calls other functions hand it (a route of ROUTE_INVOCATIONS' targets); unset: no. */
  answersInlineCalls?: boolean;
}

export class FincoreFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: FincoreFunctionProps) {
    super(scope, id);
    const { config } = props;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    this.role = new InlinePolicyRole(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.entry} (${config.stage})`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(FUNCTIONS_DIR, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(30),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      tracing: lambda.Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      projectRoot: PROJECT_ROOT,
      environment: {
        FC_STAGE: config.stage,
        ...props.environment,
      },
      bundling: {
        minify: true,
        // The map ships beside the bundle, but NODE_OPTIONS has no --enable-source-maps: with it, the
        // first error stack of each instance parses the whole map (bench/cold-start.ts: about
        // 50-300 ms against 1-4 ms), which lands on that request's latency. Minified stacks are
        // mapped offline from the .map when needed.
        sourceMap: true,
        // Stack traces need only the mappings; embedding the sources would double every asset.
        sourcesContent: false,
        target: 'node22',
        format: OutputFormat.CJS,
        // graphql in its ES module build, so that esbuild tree-shakes it (lib/bundle-aliases.ts).
        esbuildArgs: aliasEsbuildArgs(),
        define: sdkDefines(props.bundledSdks ?? ALL_OPTIONAL_SDKS, { answersInlineCalls: props.answersInlineCalls }),
        // No AWS SDK in the bundle: functions call AWS through functions/platform/aws/ (docs/architecture.md, "Calling AWS").
        externalModules: [],
      },
    });

    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active X-Ray tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which have no resource-level ' +
          'permissions: "*" is the only valid resource. The CDK test asserts no other action is granted on "*".',
      },
      {
        id: 'AwsSolutions-L1',
        reason:
          'Pinned to nodejs22.x on purpose: local mode and CI run the same handler code on Node 20, and the pinned ' +
          'dependency set (AWS SDK, middy 6, Powertools 2.35) is verified on Node 20/22 only. Moving to nodejs24.x is a ' +
          'deliberate toolchain upgrade, not a drift fix.',
      },
    );
  }

  /**
   * TableV2.grantReadWriteData (table, its indexes, its customer-managed key), with the cdk-nag
   * findings that grant always raises acknowledged on this function. `nagTableArn` is how cdk-nag
   * names the table ARN in this function's stack: `<TableArn>` for a route stack's parameter,
   * `<LogicalId.Arn>` in the parent.
   */
  grantTableReadWrite(table: dynamodb.ITableV2, nagTableArn: string, why: string): void {
    table.grantReadWriteData(this.role);
    Validations.of(this).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::${nagTableArn}/index/*]`,
        reason:
          `${why} and queries the GSI (gsi1); grantReadWriteData grants the table ARN plus "<table ARN>/index/*", ` +
          "which covers this one table's indexes and nothing else.",
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
  }
}

/** A role whose grants (addToPrincipalPolicy) go into one inline policy instead of a DefaultPolicy resource. */
export class InlinePolicyRole extends iam.Role {
  private readonly document: iam.PolicyDocument;

  constructor(scope: Construct, id: string, props: iam.RoleProps) {
    const document = new iam.PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, Grants: document } });
    this.document = document;
  }

  override addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    this.document.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}
