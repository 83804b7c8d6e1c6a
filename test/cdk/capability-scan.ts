// What a handler's code can actually do with the background ports and the secrets key, read from the
// source with the TypeScript checker, so the test can hold the grant tables in lib/ to the code.
//
// From the handler's module it follows every value the code references (functions, constants,
// imports, resolved to their declarations under functions/) and records each call of a port method:
// EventBus.publish, RefreshQueue.enqueue(Many), DeliveryStarter.start (functions/platform/ports.ts) and
// KeyProvider.generateDataKey / decryptDataKey (functions/platform/crypto/envelope.ts). Calls through
// those interfaces are exactly how the code reaches SQS, Step Functions and KMS, whichever adapter
// is plugged in, so the scan needs no knowledge of the adapters. It follows references, not just
// calls (a function passed as a callback counts), which can only over-approximate what runs.
//
// The same walk records the code's table access: which builders of the key schema (`keys.<name>` of
// functions/data/keys.ts) it uses and which DynamoDB document-client commands it constructs (for a
// TransactWriteCommand, the kinds of item it writes: Put, Update, Delete, ConditionCheck), so the
// test can hold the per-route partition grants of lib/api-grants.ts to the rows the code can reach.
import * as path from 'node:path';
import * as ts from 'typescript';
import { FUNCTIONS_DIR, PROJECT_ROOT } from '../../lib/fincore-function';

export type PortCall =
  | 'eventBus.publish'
  | 'refreshQueue.enqueue'
  | 'deliveries.start'
  | 'keyProvider.generateDataKey'
  | 'keyProvider.decryptDataKey'
  | 'model.refine'
  | 'connectorConfig.load'
  | 'consoleIdentity.fromEnv'
  | 'webhookSecret.context'
  | 'providerSecret.context'
  | 'plaidWebhookKey.context'
  | 'routes.invoke';

/** Interface member -> the capability it stands for. */
const PORT_METHODS: Record<string, PortCall> = {
  'EventBus.publish': 'eventBus.publish',
  'RefreshQueue.enqueue': 'refreshQueue.enqueue',
  // A batch reaches the same queue with the same action (sqs:SendMessage authorises SendMessageBatch).
  'RefreshQueue.enqueueMany': 'refreshQueue.enqueue',
  'DeliveryStarter.start': 'deliveries.start',
  'KeyProvider.generateDataKey': 'keyProvider.generateDataKey',
  'KeyProvider.decryptDataKey': 'keyProvider.decryptDataKey',
  // The AI routes' model (functions/platform/model-port.ts): Bedrock on AWS.
  'ModelPort.refine': 'model.refine',
  // The stage's connector credentials (functions/platform/ports.ts): Secrets Manager on AWS.
  'ConnectorConfigSource.load': 'connectorConfig.load',
};

/**
 * Plain functions (not port methods) that stand for a capability, by module below functions/ and
 * name: any use of one (a call, or passing it on) counts. The console's identity is read from the
 * environment (FC_CONSOLE_COGNITO_*), not through a port the deps carry; the encryption context of
 * each kind of sealed secret is built by one function, which every seal and open of that kind uses.
 */
const CAPABILITY_FUNCTIONS: Record<string, PortCall> = {
  'platform/console-identity.ts#consoleIdentityFromEnv': 'consoleIdentity.fromEnv',
  'platform/console-identity-cognito.ts#cognitoIdentityFromEnv': 'consoleIdentity.fromEnv',
  'app/webhooks.ts#secretContext': 'webhookSecret.context',
  'app/provider-secrets.ts#contextOf': 'providerSecret.context',
  'app/plaid-webhook-keys.ts#keyContext': 'plaidWebhookKey.context',
  // Handing a call to another route's function (Lambda Invoke): lib/api-grants.ts ROUTE_INVOCATIONS.
  'platform/route-functions.ts#invokeRouteFunction': 'routes.invoke',
};

/**
 * `process.env.FC_BUNDLE_IN_PROCESS_ROUTES === 'omit' ? deployed : unbundled`: every deployed bundle
 * is built with the switch 'omit' (lib/bundled-sdks.ts sdkDefines), so only the first branch is the
 * deployed code's; the other (other routes' handlers, run in process locally) is never walked.
 */
const isDeployedOnlySwitch = (node: ts.ConditionalExpression) =>
  node.condition.getText().replace(/\s+/g, ' ') === "process.env.FC_BUNDLE_IN_PROCESS_ROUTES === 'omit'";

/** What the code reachable from an entry can do to the table. */
export interface TableUse {
  /** Names of the key builders it references (`keys.item` -> `item`). */
  keyBuilders: Set<string>;
  /** Document-client commands it constructs (`GetCommand`, `TransactWriteCommand`, ...). */
  commands: Set<string>;
  /** Item kinds in transaction items (`Put`, `Update`, `Delete`, `ConditionCheck`). */
  transactionParts: Set<string>;
}

/**
 * Steps of the operation wrapper that run only for some routes, each named by its declaration and
 * module: the table walk of a route stops there (every route's handler references them), and
 * `stepTableUse` gives what each step itself reaches, for the routes that run it.
 */
export const CONDITIONAL_STEPS = {
  /** Key authentication and metering (functions/platform/middleware.ts): routes with `auth: 'key'`. */
  authenticate: 'platform/middleware.ts',
  /** `access_token` -> item (functions/platform/operation.ts): routes with `item: true`. */
  resolveItem: 'platform/operation.ts',
  /** The request log entry written once the answer is built (functions/platform/middleware.ts): routes with `auth: 'key'`. */
  recordInRequestLog: 'platform/middleware.ts',
} as const;
export type ConditionalStep = keyof typeof CONDITIONAL_STEPS;

export interface CapabilityScanner {
  /** Port calls reachable from the module at `entry` (below functions/, e.g. `api/items.get.ts`), every path followed. */
  scan(entry: string): Set<PortCall>;
  /** Port calls reachable from the module at `entry`, short of the CONDITIONAL_STEPS. */
  routeScan(entry: string): Set<PortCall>;
  /** Port calls reachable from one of the CONDITIONAL_STEPS. */
  stepScan(step: ConditionalStep): Set<PortCall>;
  /** Table access reachable from the module at `entry`, short of the CONDITIONAL_STEPS. */
  tableUse(entry: string): TableUse;
  /** Table access reachable from one of the CONDITIONAL_STEPS. */
  stepTableUse(step: ConditionalStep): TableUse;
}

/** The IAM action each document-client command is authorized as (a transaction: per item, see TRANSACTION_PART_ACTIONS). */
const COMMAND_ACTIONS: Record<string, string | null> = {
  GetCommand: 'dynamodb:GetItem',
  PutCommand: 'dynamodb:PutItem',
  UpdateCommand: 'dynamodb:UpdateItem',
  DeleteCommand: 'dynamodb:DeleteItem',
  QueryCommand: 'dynamodb:Query',
  ScanCommand: 'dynamodb:Scan',
  BatchWriteCommand: 'dynamodb:BatchWriteItem',
  BatchGetCommand: 'dynamodb:BatchGetItem',
  TransactWriteCommand: null,
};
const TRANSACTION_PART_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
};

/**
 * The DynamoDB actions a TableUse needs IAM to allow. A command this table does not know fails
 * loudly rather than being guessed (a new kind of call needs a new grant decision).
 */
export function dynamoActionsOf(use: TableUse): Set<string> {
  const actions = new Set<string>();
  for (const command of use.commands) {
    if (!(command in COMMAND_ACTIONS)) throw new Error(`the table-grant scan does not know the IAM action of ${command}`);
    const action = COMMAND_ACTIONS[command];
    if (action) actions.add(action);
    else use.transactionParts.forEach((part) => actions.add(TRANSACTION_PART_ACTIONS[part]));
  }
  return actions;
}

const KEYS_MODULE = path.join(FUNCTIONS_DIR, 'data', 'keys.ts');
const DOCUMENT_CLIENT_MODULE = path.join(FUNCTIONS_DIR, 'platform', 'aws', 'dynamodb.ts');

export function createCapabilityScanner(entries: readonly string[]): CapabilityScanner {
  const configPath = path.join(PROJECT_ROOT, 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, PROJECT_ROOT);
  const program = ts.createProgram({
    rootNames: entries.map((e) => path.join(FUNCTIONS_DIR, e)),
    options: { ...parsed.options, noEmit: true },
  });
  const checker = program.getTypeChecker();
  const inFunctions = (node: ts.Node) => path.resolve(node.getSourceFile().fileName).startsWith(FUNCTIONS_DIR + path.sep);
  /** Port calls and table use found directly inside one declaration (not following references), and the declarations it references. */
  const memo = new Map<ts.Node, { calls: Set<PortCall>; table: TableUse; refs: Set<ts.Node> }>();
  const reached = new Map<string, { calls: Set<PortCall>; table: TableUse }>();
  const emptyUse = (): TableUse => ({ keyBuilders: new Set(), commands: new Set(), transactionParts: new Set() });

  const resolve = (symbol: ts.Symbol | undefined): ts.Symbol | undefined =>
    symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  const portCallOf = (node: ts.CallExpression): PortCall | undefined => {
    if (!ts.isPropertyAccessExpression(node.expression)) return undefined;
    const symbol = resolve(checker.getSymbolAtLocation(node.expression.name));
    for (const declaration of symbol?.declarations ?? []) {
      const owner = declaration.parent;
      if (ts.isMethodSignature(declaration) && ts.isInterfaceDeclaration(owner)) {
        const call = PORT_METHODS[`${owner.name.text}.${node.expression.name.text}`];
        if (call) return call;
      }
    }
    return undefined;
  };

  const declarationsOf = (node: ts.Node) => resolve(checker.getSymbolAtLocation(node))?.declarations ?? [];
  /** `keys.<builder>`: a property of the `keys` object of functions/data/keys.ts. */
  const keyBuilderOf = (node: ts.PropertyAccessExpression): string | undefined =>
    declarationsOf(node.expression).some(
      (d) => ts.isVariableDeclaration(d) && d.name.getText() === 'keys' && path.resolve(d.getSourceFile().fileName) === KEYS_MODULE,
    )
      ? node.name.text
      : undefined;
  /** `new XCommand(...)` of our DynamoDB document client (functions/platform/aws/dynamodb.ts) or the AWS SDK's. */
  const sdkCommandOf = (node: ts.NewExpression): string | undefined =>
    ts.isIdentifier(node.expression) &&
    node.expression.text.endsWith('Command') &&
    declarationsOf(node.expression).some((d) => {
      const file = path.resolve(d.getSourceFile().fileName);
      return file === DOCUMENT_CLIENT_MODULE || file.includes(`${path.sep}@aws-sdk${path.sep}`);
    })
      ? node.expression.text
      : undefined;

  const direct = (declaration: ts.Node) => {
    const known = memo.get(declaration);
    if (known) return known;
    const found = {
      calls: new Set<PortCall>(),
      table: { keyBuilders: new Set<string>(), commands: new Set<string>(), transactionParts: new Set<string>() },
      refs: new Set<ts.Node>(),
    };
    memo.set(declaration, found);
    const visit = (node: ts.Node): void => {
      // Types never run.
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
      if (ts.isConditionalExpression(node) && isDeployedOnlySwitch(node)) {
        visit(node.condition);
        visit(node.whenTrue);
        return;
      }
      if (ts.isCallExpression(node)) {
        const call = portCallOf(node);
        if (call) found.calls.add(call);
      }
      // Builders composed of other builders inside keys.ts are not uses: only a use elsewhere counts.
      if (ts.isPropertyAccessExpression(node) && path.resolve(node.getSourceFile().fileName) !== KEYS_MODULE) {
        const builder = keyBuilderOf(node);
        if (builder) found.table.keyBuilders.add(builder);
      }
      if (ts.isNewExpression(node)) {
        const command = sdkCommandOf(node);
        if (command) found.table.commands.add(command);
      }
      // The document client's own tables name every transaction part (its translation rules); only a caller's parts count.
      if (
        (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
        ts.isIdentifier(node.name) &&
        node.name.text in TRANSACTION_PART_ACTIONS &&
        path.resolve(node.getSourceFile().fileName) !== DOCUMENT_CLIENT_MODULE
      ) {
        found.table.transactionParts.add(node.name.text);
      }
      if (ts.isIdentifier(node)) {
        const symbol = resolve(checker.getSymbolAtLocation(node));
        for (const target of symbol?.declarations ?? []) {
          const named = ts.isFunctionDeclaration(target) || (ts.isVariableDeclaration(target) && ts.isIdentifier(target.name));
          if (!named || target.name === node || !target.name || !inFunctions(target)) continue;
          const capability = CAPABILITY_FUNCTIONS[`${path.relative(FUNCTIONS_DIR, target.getSourceFile().fileName).split(path.sep).join('/')}#${target.name.getText()}`];
          if (capability) found.calls.add(capability);
        }
        for (const target of symbol?.declarations ?? []) {
          if (target !== declaration && inFunctions(target) && !ts.isParameter(target) && !ts.isSourceFile(target)) found.refs.add(target);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(declaration);
    return found;
  };

  const sourceOf = (entry: string) => {
    const source = program.getSourceFile(path.join(FUNCTIONS_DIR, entry));
    if (!source) throw new Error(`${entry}: not part of the scanned program`);
    return source;
  };
  const stepDeclarations = new Map<ConditionalStep, ts.Node>();
  for (const [step, module] of Object.entries(CONDITIONAL_STEPS) as [ConditionalStep, string][]) {
    const found = sourceOf(module).statements.find((st) => ts.isFunctionDeclaration(st) && st.name?.text === step);
    if (!found) throw new Error(`${module} declares no function ${step}: update CONDITIONAL_STEPS`);
    stepDeclarations.set(step, found);
  }

  /** Everything reachable from `start`, not entering the declarations in `stopAt`. */
  const walk = (start: ts.Node, stopAt: ReadonlySet<ts.Node>) => {
    const calls = new Set<PortCall>();
    const table = emptyUse();
    const seen = new Set<ts.Node>();
    const queue: ts.Node[] = [start];
    while (queue.length > 0) {
      const node = queue.pop()!;
      if (seen.has(node) || (node !== start && stopAt.has(node))) continue;
      seen.add(node);
      const found = direct(node);
      found.calls.forEach((c) => calls.add(c));
      found.table.keyBuilders.forEach((b) => table.keyBuilders.add(b));
      found.table.commands.forEach((c) => table.commands.add(c));
      found.table.transactionParts.forEach((p) => table.transactionParts.add(p));
      queue.push(...found.refs);
    }
    return { calls, table };
  };
  const memoized = (key: string, start: () => ts.Node, stopAt: ReadonlySet<ts.Node>) => {
    const known = reached.get(key);
    if (known) return known;
    const result = walk(start(), stopAt);
    reached.set(key, result);
    return result;
  };
  const steps = new Set(stepDeclarations.values());

  return {
    // Port calls follow every path, conditional steps included.
    scan: (entry) => memoized(`all:${entry}`, () => sourceOf(entry), new Set()).calls,
    routeScan: (entry) => memoized(`route:${entry}`, () => sourceOf(entry), steps).calls,
    stepScan: (step) => memoized(`step:${step}`, () => stepDeclarations.get(step)!, steps).calls,
    tableUse: (entry) => memoized(`route:${entry}`, () => sourceOf(entry), steps).table,
    stepTableUse: (step) => memoized(`step:${step}`, () => stepDeclarations.get(step)!, steps).table,
  };
}
