// Where an MCP tool's route code runs.
// - Deployed (every bundle is built with IN_PROCESS_ROUTES_SWITCH 'omit', platform/bundled-sdks.ts):
//   in the route's own function, through a synchronous Lambda invoke (platform/route-functions.ts).
//   The MCP function then carries the protocol, the tools' schemas and renderers, and none of their
//   code (the enrichment engine, the connectors' product reads...).
// - Unbundled (local mode, tests): in this process, through invokeRoute and the tools' handler
//   modules (./tool-handlers.ts), unless FC_ROUTE_FUNCTIONS names the functions (the tests of the
//   invoke path set it).
// Either way the route runs the same checks and code for the call this request authenticated and
// metered, and raises the same ApiErrors.
import type { McpToolName } from '../../contracts/mcp-tools';
import { MCP_TOOLS_BY_NAME } from '../../contracts/mcp-tools';
import type { InlineCall } from '../../platform/operation';
import { invokeRouteFunction, routeFunctionNames } from '../../platform/route-functions';
import type * as ToolHandlersModule from './tool-handlers';

/** Runs tools in this process, where this build may carry their code (see above); undefined in a deployed bundle. */
function inProcessRunner(): typeof ToolHandlersModule.runToolInProcess | undefined {
  // Read exactly so: esbuild substitutes the literal expression and drops the require when 'omit'
  // (and the capability scan of test/cdk follows only the 'omit' branch, as deployed).
  /* eslint-disable-next-line @typescript-eslint/no-require-imports */
  return process.env.FC_BUNDLE_IN_PROCESS_ROUTES === 'omit' ? undefined : (require('./tool-handlers') as typeof ToolHandlersModule).runToolInProcess;
}

/** Runs a tool's route for the call: resolves to the route's answer, throws its ApiError. */
export async function runTool(name: McpToolName, call: InlineCall, args: unknown): Promise<unknown> {
  const inProcess = routeFunctionNames() ? undefined : inProcessRunner();
  if (inProcess) return inProcess(name, call, args);
  const route = MCP_TOOLS_BY_NAME.get(name)!.route;
  return invokeRouteFunction(route, call, args, call.deps.config.region);
}
