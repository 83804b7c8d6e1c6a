// The single DynamoDB table, the two customer-managed KMS keys and the connector credentials secret. The table is built from TABLE in
// functions/data/keys.ts, the same definition the local engine uses, so key names live in one place.
import { Duration, SecretValue, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { TABLE } from '../functions/data/keys';
import type { AutoscaledFigure, StageConfig } from './stage-config';

export interface DataProps {
  config: StageConfig;
}

const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export class Data extends Construct {
  readonly table: dynamodb.TableV2;
  /** Encrypts the table at rest. */
  readonly tableKey: kms.Key;
  /** Envelope key for webhook signing secrets and provider tokens (application-level encryption). */
  readonly secretsKey: kms.Key;
  /**
   * The stage's connector credentials (docs/connectors.md): one JSON object of the connector
   * variables (e.g. `OPEN_BANKING_EU_CLIENT_ID`), created empty; the operator fills it in. Functions
   * that reach connectors read it once per container.
   */
  readonly connectorSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const { config } = props;
    const keyProps: kms.KeyProps = {
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
      pendingWindow: Duration.days(config.stage === 'production' ? 30 : 7),
    };

    this.tableKey = new kms.Key(this, 'TableKey', {
      ...keyProps,
      description: `fincore ${config.stage}: DynamoDB table encryption at rest`,
      alias: `alias/fincore-${config.stage}-table`,
    });
    this.secretsKey = new kms.Key(this, 'SecretsKey', {
      ...keyProps,
      description: `fincore ${config.stage}: webhook secrets and provider tokens`,
      alias: `alias/fincore-${config.stage}-secrets`,
    });

    this.connectorSecret = new secretsmanager.Secret(this, 'ConnectorCredentials', {
      description: `fincore ${config.stage}: connector credentials (JSON object of variable name to value; see docs/connectors.md)`,
      secretName: `fincore/${config.stage}/connectors`,
      // Empty until the operator enables a connector: no connector serves live traffic by default.
      secretStringValue: SecretValue.unsafePlainText('{}'),
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.connectorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Third-party API credentials issued by each provider: they are rotated at the provider by the operator (docs/connectors.md), not by a Lambda rotation function.',
    });

    const capacity = config.tableCapacity;
    const autoscaled = ({ min, max, seed }: AutoscaledFigure) =>
      dynamodb.Capacity.autoscaled({
        minCapacity: min,
        maxCapacity: max,
        targetUtilizationPercent: capacity.mode === 'provisioned' ? capacity.targetUtilizationPercent : undefined,
        // Where the figure starts when an on-demand table switches (AutoscaledFigure.seed).
        seedCapacity: seed,
      });
    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: stringKey(TABLE.partitionKey),
      sortKey: stringKey(TABLE.sortKey),
      globalSecondaryIndexes: TABLE.globalIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        // A provisioned index scales its own reads and writes (its writes would follow the table's
        // bounds otherwise, doubling the account quota the table may take).
        ...(capacity.mode === 'provisioned' ? { readCapacity: autoscaled(capacity.indexReads), writeCapacity: autoscaled(capacity.indexWrites) } : {}),
      })),
      timeToLiveAttribute: TABLE.ttlAttribute,
      billing:
        capacity.mode === 'provisioned'
          ? dynamodb.Billing.provisioned({ readCapacity: autoscaled(capacity.reads), writeCapacity: autoscaled(capacity.writes) })
          : dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryptionV2.customerManagedKey(this.tableKey),
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
  }
}
