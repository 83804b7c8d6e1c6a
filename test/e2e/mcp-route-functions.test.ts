// The whole MCP suite (./mcp.test.ts) again, with every tool call handed to its route's own function
// as the deployed MCP function does it (functions/surfaces/mcp/tool-runner.ts): FC_ROUTE_FUNCTIONS
// names a function per tool route, and a loopback Lambda (test/support/lambda-fake.ts) runs each
// route's handler module for the InlineInvocation it receives. The same answers, errors and metering
// must come out; then the invocations themselves are checked.
import { MCP_TOOLS } from '../../functions/contracts/mcp-tools';
import type { InlineInvocation } from '../../functions/platform/route-functions';
import { startLambdaFake, type FakeLambdaHandler, type LambdaFake } from '../support/lambda-fake';

const functionNameOf = (routeId: string) => `fincore-test-${routeId.replace(/\./g, '-')}`;
const toolRoutes = [...new Set(MCP_TOOLS.map((tool) => tool.route))];
const ENV_NAMES = ['FC_ROUTE_FUNCTIONS', 'AWS_ENDPOINT_URL_LAMBDA', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;
const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
let lambda: LambdaFake;

beforeAll(async () => {
  const handlers = new Map<string, FakeLambdaHandler>(
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each tool route's own handler module, as its function loads it
    toolRoutes.map((id) => [functionNameOf(id), (require(`../../functions/api/${id}`) as { handler: FakeLambdaHandler }).handler]),
  );
  lambda = await startLambdaFake(handlers);
  process.env.FC_ROUTE_FUNCTIONS = toolRoutes.map((id) => `${id}=${functionNameOf(id)}`).join(',');
  process.env.AWS_ENDPOINT_URL_LAMBDA = lambda.endpoint;
  process.env.AWS_ACCESS_KEY_ID = 'AKIDMCPSERVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
  delete process.env.AWS_SESSION_TOKEN;
});

afterAll(async () => {
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await lambda?.close();
});

// Registered after the hooks above, so the suite's own setup runs with the invoke path on.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./mcp.test');

describe('the tool calls above, as invocations of the route functions', () => {
  it('invoked each tool route through its own function, signed as the MCP function, one invocation per tool call', () => {
    const invoked = new Set(lambda.invocations.map((i) => i.functionName));
    for (const id of toolRoutes) expect({ id, invoked: invoked.has(functionNameOf(id)) }).toEqual({ id, invoked: true });
    for (const { functionName, headers, payload } of lambda.invocations) {
      expect(String(headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDMCPSERVER\/\d{8}\/us-east-1\/lambda\/aws4_request, SignedHeaders=/);
      expect(headers['x-amz-invocation-type']).toBe('RequestResponse');
      const invocation = payload as InlineInvocation;
      expect(functionNameOf(invocation.routeId)).toBe(functionName);
      expect(invocation.auth.applicationId).toMatch(/^app_/);
    }
  });

  it("never hands over the caller's key, cookie or the MCP request's body", () => {
    expect(lambda.invocations.length).toBeGreaterThan(0);
    for (const { payload } of lambda.invocations) {
      const { event } = payload as InlineInvocation;
      const names = [...Object.keys(event.headers ?? {}), ...Object.keys(event.multiValueHeaders ?? {})].map((name) => name.toLowerCase());
      expect(names).not.toContain('authorization');
      expect(names).not.toContain('cookie');
      expect(event.body).toBeNull();
      expect(JSON.stringify(payload)).not.toMatch(/fc_sk_(test|live)_/);
    }
  });
});
