// A WAF web ACL on the API stage: floods are stopped at the edge of the stage, before they cost a
// Lambda invocation (and, for a well-formed but unknown key, a conditional DynamoDB write).
//
// - MalformedKeyPerIp: requests to key routes (/v1/..., /api/v1/...) whose Authorization header is not
//   a well-formed API key (API_KEY_PATTERN), counted per source IP. Those can only ever answer
//   401/400, so a low limit costs honest clients nothing.
// - AllPerIp: every request, per source IP, with room for the largest plan's documented rate from one
//   address (PLANS in functions/contracts/limits.ts) many times over, so it only stops a single
//   address flooding well-formed junk keys; per-key token buckets stay in the handler.
// Blocked requests answer 429 with the error envelope of rate_limit_exceeded.
import { Aws, Stack } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ERRORS } from '../functions/contracts/errors';
import { LIMITS, PLANS } from '../functions/contracts/limits';
import type { StageConfig } from './stage-config';

/** The window WAF counts each rate-based rule over. */
export const WAF_WINDOW_SECONDS = 300;
/** Path prefixes of the key-authenticated routes. */
export const KEY_ROUTE_PREFIXES = ['/v1/', '/api/v1/'] as const;
/** The Authorization header of a request that carries a well-formed key. */
// Spelled out (the CDK code may not import functions/core); the CDK test holds it to API_KEY_PATTERN.
export const WELL_FORMED_AUTHORIZATION = '^Bearer fc_sk_(test|live)_[A-Za-z0-9]{16,128}$';

/** The most requests one plan may make in one WAF window: its rate for the window plus its burst. */
export function largestPlanRequestsPerWindow(): number {
  const rate = Math.max(...Object.values(PLANS).map((p) => p.ratePerSecond));
  return rate * WAF_WINDOW_SECONDS + rate * LIMITS.burstMultiplier;
}

const RATE_LIMITED_BODY = 'RateLimited';

export interface ApiFirewallProps {
  config: StageConfig;
  stage: apigw.Stage;
}

export class ApiFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const { config } = props;
    if (config.firewall.allPerIp < largestPlanRequestsPerWindow()) {
      throw new Error(`firewall.allPerIp (${config.firewall.allPerIp}) would block one client of the largest plan at its documented rate`);
    }
    const block: wafv2.CfnWebACL.RuleActionProperty = {
      block: { customResponse: { responseCode: 429, customResponseBodyKey: RATE_LIMITED_BODY } },
    };
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `fincore-${config.stage}-${metricName}`,
      sampledRequestsEnabled: true,
    });
    const keyRoute: wafv2.CfnWebACL.StatementProperty = {
      orStatement: {
        statements: KEY_ROUTE_PREFIXES.map((prefix) => ({
          byteMatchStatement: {
            fieldToMatch: { uriPath: {} },
            positionalConstraint: 'STARTS_WITH',
            searchString: prefix,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        })),
      },
    };
    const wellFormedKey: wafv2.CfnWebACL.StatementProperty = {
      regexMatchStatement: {
        fieldToMatch: { singleHeader: { Name: 'authorization' } },
        regexString: WELL_FORMED_AUTHORIZATION,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };
    const error = ERRORS.rate_limit_exceeded;

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `fincore-${config.stage}-api`,
      description: `fincore ${config.stage}: per-source rate limits in front of the API stage`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('api'),
      customResponseBodies: {
        [RATE_LIMITED_BODY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: { type: error.type, code: 'rate_limit_exceeded', message: error.message, request_id: null } }),
        },
      },
      rules: [
        {
          name: 'MalformedKeyPerIp',
          priority: 0,
          action: block,
          visibilityConfig: visibility('malformed-key-per-ip'),
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              evaluationWindowSec: WAF_WINDOW_SECONDS,
              limit: config.firewall.malformedKeyPerIp,
              scopeDownStatement: { andStatement: { statements: [keyRoute, { notStatement: { statement: wellFormedKey } }] } },
            },
          },
        },
        {
          name: 'AllPerIp',
          priority: 1,
          action: block,
          visibilityConfig: visibility('all-per-ip'),
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', evaluationWindowSec: WAF_WINDOW_SECONDS, limit: config.firewall.allPerIp },
          },
        },
      ],
    });

    new wafv2.CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: `arn:${Aws.PARTITION}:apigateway:${Stack.of(this).region}::/restapis/${props.stage.restApi.restApiId}/stages/${props.stage.stageName}`,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
