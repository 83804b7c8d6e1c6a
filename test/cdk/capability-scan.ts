// What a handler's code can actually do with the background ports and the secrets key, read from the
// source with the TypeScript checker, so the test can hold the grant tables in lib/ to the code.
//
// From the handler's module it follows every value the code references (functions, constants,
// imports, resolved to their declarations under functions/) and records each call of a port method:
// EventBus.publish, RefreshQueue.enqueue, DeliveryStarter.start (functions/platform/ports.ts) and
// KeyProvider.generateDataKey / decryptDataKey (functions/platform/crypto/envelope.ts). Calls through
// those interfaces are exactly how the code reaches SQS, Step Functions and KMS, whichever adapter
// is plugged in, so the scan needs no knowledge of the adapters. It follows references, not just
// calls (a function passed as a callback counts), which can only over-approximate what runs.
import * as path from 'node:path';
import * as ts from 'typescript';
import { FUNCTIONS_DIR, PROJECT_ROOT } from '../../lib/fincore-function';

export type PortCall = 'eventBus.publish' | 'refreshQueue.enqueue' | 'deliveries.start' | 'keyProvider.generateDataKey' | 'keyProvider.decryptDataKey';

/** Interface member -> the capability it stands for. */
const PORT_METHODS: Record<string, PortCall> = {
  'EventBus.publish': 'eventBus.publish',
  'RefreshQueue.enqueue': 'refreshQueue.enqueue',
  'DeliveryStarter.start': 'deliveries.start',
  'KeyProvider.generateDataKey': 'keyProvider.generateDataKey',
  'KeyProvider.decryptDataKey': 'keyProvider.decryptDataKey',
};

export interface CapabilityScanner {
  /** Port calls reachable from the module at `entry` (below functions/, e.g. `api/items.get.ts`). */
  scan(entry: string): Set<PortCall>;
}

export function createCapabilityScanner(entries: readonly string[]): CapabilityScanner {
  const configPath = path.join(PROJECT_ROOT, 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, PROJECT_ROOT);
  const program = ts.createProgram({
    rootNames: entries.map((e) => path.join(FUNCTIONS_DIR, e)),
    options: { ...parsed.options, noEmit: true },
  });
  const checker = program.getTypeChecker();
  const inFunctions = (node: ts.Node) => path.resolve(node.getSourceFile().fileName).startsWith(FUNCTIONS_DIR + path.sep);
  /** Port calls found directly inside one declaration (not following references), and the declarations it references. */
  const memo = new Map<ts.Node, { calls: Set<PortCall>; refs: Set<ts.Node> }>();

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

  const direct = (declaration: ts.Node) => {
    const known = memo.get(declaration);
    if (known) return known;
    const found = { calls: new Set<PortCall>(), refs: new Set<ts.Node>() };
    memo.set(declaration, found);
    const visit = (node: ts.Node): void => {
      // Types never run.
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
      if (ts.isCallExpression(node)) {
        const call = portCallOf(node);
        if (call) found.calls.add(call);
      }
      if (ts.isIdentifier(node)) {
        const symbol = resolve(checker.getSymbolAtLocation(node));
        for (const target of symbol?.declarations ?? []) {
          if (target !== declaration && inFunctions(target) && !ts.isParameter(target) && !ts.isSourceFile(target)) found.refs.add(target);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(declaration);
    return found;
  };

  return {
    scan(entry) {
      const source = program.getSourceFile(path.join(FUNCTIONS_DIR, entry));
      if (!source) throw new Error(`${entry}: not part of the scanned program`);
      const calls = new Set<PortCall>();
      const seen = new Set<ts.Node>();
      const queue: ts.Node[] = [source];
      while (queue.length > 0) {
        const node = queue.pop()!;
        if (seen.has(node)) continue;
        seen.add(node);
        const found = direct(node);
        found.calls.forEach((c) => calls.add(c));
        queue.push(...found.refs);
      }
      return calls;
    },
  };
}
