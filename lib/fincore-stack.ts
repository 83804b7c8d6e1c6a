// The whole service for one stage. The stack only composes constructs; each concern lives in its
// own file (data, api, async jobs, observability).
import { Aws, CfnOutput, Lazy, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Api, type ApiRouteOptions } from './api-construct';
import { ENV_VARS } from './api-grants';
import { AsyncJobs } from './async-jobs-construct';
import { ConsoleIdentity } from './console-identity';
import { Data } from './data-construct';
import { FincoreFunction } from './fincore-function';
import { Observability } from './observability-construct';
import type { StageConfig } from './stage-config';

export interface FincoreStackProps extends StackProps, ApiRouteOptions {
  config: StageConfig;
}

export class FincoreStack extends Stack {
  readonly data: Data;
  readonly api: Api;
  readonly jobs: AsyncJobs;
  readonly observability: Observability;
  readonly consoleIdentity: ConsoleIdentity;

  constructor(scope: Construct, id: string, props: FincoreStackProps) {
    super(scope, id, props);
    const { config } = props;
    Tags.of(this).add('project', 'fincore');
    Tags.of(this).add('stage', config.stage);

    this.data = new Data(this, 'Data', { config });
    // The jobs come first: the route stacks receive the queues (and the secrets key) as parameters.
    this.jobs = new AsyncJobs(this, 'AsyncJobs', { config, table: this.data.table, secretsKey: this.data.secretsKey, connectorSecret: this.data.connectorSecret });

    // With a custom domain the functions learn their public base URL from the stack (a plain string,
    // so no reference to the stage, which is deployed after the route stacks).
    const baseUrl = config.customDomain ? `https://${config.customDomain.domainName}` : undefined;
    // The console signs in through Cognito. Its app client's callback URL lies under {base_url}, which
    // without a custom domain names the REST API that Api creates below, while the route stacks inside
    // Api receive the client's id: the URL is lazy, built from the API's id and the stage name (never
    // restApi.url, whose reference to the deployment stage would close a cycle through the route
    // stacks). CloudFormation's order: REST API, app client, route stacks, deployment, stage.
    const consoleBaseUrl =
      baseUrl ?? Lazy.string({ produce: () => `https://${this.api.restApi.restApiId}.execute-api.${this.region}.${Aws.URL_SUFFIX}/${config.stage}` });
    this.consoleIdentity = new ConsoleIdentity(this, 'ConsoleIdentity', { config, baseUrl: consoleBaseUrl });
    this.api = new Api(this, 'Api', {
      config,
      table: this.data.table,
      tableKey: this.data.tableKey,
      eventsQueue: this.jobs.webhookEvents.queue,
      refreshQueue: this.jobs.itemRefresh.queue,
      secretsKey: this.data.secretsKey,
      deliveryWorkflow: this.jobs.webhookDelivery,
      connectorSecret: this.data.connectorSecret,
      consoleIdentity: this.consoleIdentity.settings,
      routes: props.routes,
      handlerEntry: props.handlerEntry,
    });
    this.observability = new Observability(this, 'Observability', {
      config,
      restApi: this.api.restApi,
      // API functions first, then the workers: the order the throttle alarms group them in.
      functions: [this.api, this.jobs].flatMap((c) => c.node.findAll().filter((f): f is FincoreFunction => f instanceof FincoreFunction)),
      deadLetterQueues: {
        WebhookEvents: this.jobs.webhookEvents.deadLetterQueue,
        ItemRefresh: this.jobs.itemRefresh.deadLetterQueue,
      },
      stateMachines: { WebhookDelivery: this.jobs.webhookDelivery },
      table: this.data.table,
    });

    if (baseUrl) {
      for (const fn of this.node.findAll().filter((c): c is FincoreFunction => c instanceof FincoreFunction)) {
        fn.fn.addEnvironment(ENV_VARS.baseUrl, baseUrl);
      }
      new CfnOutput(this, 'CustomDomainTarget', {
        value: this.api.domain!.domainNameAliasDomainName,
        description: `Point ${config.customDomain!.domainName} (CNAME or alias) at this regional domain name`,
      });
    }
    new CfnOutput(this, 'ApiUrl', { value: baseUrl ?? this.api.restApi.url, description: 'Base URL ({base_url}) of this stage' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'SecretsKeyArn', { value: this.data.secretsKey.keyArn });
    new CfnOutput(this, 'ConsoleUrl', { value: `${consoleBaseUrl}/console/`, description: 'The console (sign in through the Cognito hosted UI)' });
    new CfnOutput(this, 'ConsoleSignInDomain', {
      value: this.consoleIdentity.settings.domain,
      description: "Host of the console user pool's hosted UI (sign-up, sign-in, MFA enrolment)",
    });
    new CfnOutput(this, 'ConsoleUserPoolId', { value: this.consoleIdentity.settings.userPoolId, description: 'The console user pool (users, MFA, sign-up policy)' });
  }
}
