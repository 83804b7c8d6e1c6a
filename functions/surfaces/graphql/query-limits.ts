// What a query may ask for, checked on the parsed document before anything runs (and before
// graphql's own validation, whose cost grows with the query): the operation kind, introspection
// (test keys only), the access tokens it names, its depth and its cost estimate. Each failure is a
// GraphQL error carrying our error code (formatted by errors.ts).
//
// The walk expands fragments (memoised per fragment, so a fragment that spreads another many times
// costs one visit each, and a cycle, which graphql's NoFragmentCyclesRule reports, stops the walk
// instead of looping). Variables are read as sent, or as their declared default when not sent (a
// default counts exactly as a value would): a value of the wrong type counts as the argument's default
// here and fails variable coercion later.
//
// The estimate has two parts: objects (every object resolved costs 1, lists multiplied by their count)
// and storage reads. Each occurrence of a field that reads an item's rows (RELATION_FIELDS: accounts,
// transactions, sync, products, Account.transactions) costs graphqlReadCost per item in scope,
// whatever it selects: the per-request loaders share a read only between identical arguments, so 1,000
// aliases with different dates are 1,000 reads of the history even when each selects one scalar.
import {
  GraphQLError,
  GraphQLObjectType,
  Kind,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { ApiError, type ErrorCode } from '../../contracts/errors';
import { LIMITS } from '../../contracts/limits';
import type { Environment } from '../../contracts/schemas';
import { RELATION_FIELDS } from './schema';

/** A GraphQL error standing for one of our error codes (errors.ts renders its extensions). */
export function codedError(code: ErrorCode, message: string, nodes?: readonly FieldNode[] | FieldNode | OperationDefinitionNode): GraphQLError {
  return new GraphQLError(message, { nodes, originalError: new ApiError(code, message) });
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/** The root fields that name items, and how many access tokens each names. */
const ITEM_FIELDS: Readonly<Record<string, (field: FieldNode, variables: Variables) => number>> = {
  item: () => 1,
  items: (field, variables) => listLength(argumentNode(field, 'access_tokens'), variables),
};

/** The operation's variables: those sent, and the declared defaults (as syntax) of those not sent. */
interface Variables {
  sent: Record<string, unknown>;
  defaults: ReadonlyMap<string, ValueNode>;
}

function variablesOf(operation: OperationDefinitionNode, sent: Record<string, unknown>): Variables {
  const defaults = new Map<string, ValueNode>();
  for (const definition of operation.variableDefinitions ?? []) if (definition.defaultValue) defaults.set(definition.variable.name.value, definition.defaultValue);
  return { sent, defaults };
}

/** Fields that read an item's rows when resolved, by parent type. */
const STORAGE_READS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries(RELATION_FIELDS).map(([type, fields]) => [type, new Set(fields)]));

interface Measure {
  /** Nesting below the selection set measured (introspection excluded). */
  depth: number;
  /** Objects the selection set may resolve, per resolution of its parent. */
  cost: number;
  /** Access tokens named (root fields only). */
  items: number;
  /** Storage reads per item in scope (see the top of the file). */
  reads: number;
  /** The deepest field, for the error's location. */
  deepest?: FieldNode;
}

const NOTHING: Measure = { depth: 0, cost: 0, items: 0, reads: 0 };

function argumentNode(field: FieldNode, name: string): ValueNode | undefined {
  return field.arguments?.find((a) => a.name.value === name)?.value;
}

function valueOf(node: ValueNode | undefined, variables: Variables): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) {
    const name = node.name.value;
    if (Object.hasOwn(variables.sent, name)) return variables.sent[name];
    // A default is syntax of its own (never a variable: GraphQL defaults are constants).
    const fallback = variables.defaults.get(name);
    return fallback && fallback.kind !== Kind.VARIABLE ? valueOf(fallback, variables) : undefined;
  }
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.LIST) return node.values;
  if (node.kind === Kind.STRING) return node.value;
  if (node.kind === Kind.NULL) return null;
  return undefined;
}

/** A list argument's length (GraphQL coerces a single value into a list of one). */
function listLength(node: ValueNode | undefined, variables: Variables): number {
  const value = valueOf(node, variables);
  if (Array.isArray(value)) return value.length;
  return value === undefined || value === null ? 0 : 1;
}

/** The `count` a field asks for: its argument, else the argument's default; undefined on fields without one. */
function countOf(field: FieldNode, definition: GraphQLField<unknown, unknown>, variables: Variables): number | undefined {
  const declared = definition.args.find((a) => a.name === 'count');
  if (!declared) return undefined;
  const given = valueOf(argumentNode(field, 'count'), variables);
  if (typeof given === 'number' && Number.isFinite(given) && given > 0) return given;
  return typeof declared.defaultValue === 'number' ? declared.defaultValue : LIMITS.pageDefault;
}

class QueryMeter {
  private readonly fragments: Map<string, FragmentDefinitionNode>;
  private readonly memo = new Map<string, Measure>();
  private readonly expanding = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Variables,
  ) {
    this.fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  }

  /**
   * One selection set on `parent`: `pageCount` is the count of the nearest enclosing field with a
   * `count` argument, which bounds the lists inside that page (its rows).
   */
  selectionSet(set: SelectionSetNode, parent: GraphQLObjectType, pageCount: number | undefined, level: number): Measure {
    let total: Measure = NOTHING;
    for (const selection of set.selections) {
      let part: Measure;
      if (selection.kind === Kind.FIELD) part = this.field(selection, parent, pageCount, level);
      else if (selection.kind === Kind.INLINE_FRAGMENT) part = this.selectionSet(selection.selectionSet, this.conditionOf(selection.typeCondition?.name.value, parent), pageCount, level);
      else part = this.fragment(selection.name.value, parent, pageCount, level);
      total = {
        depth: Math.max(total.depth, part.depth),
        cost: total.cost + part.cost,
        items: total.items + part.items,
        reads: total.reads + part.reads,
        deepest: part.depth > total.depth ? part.deepest : total.deepest,
      };
    }
    return total;
  }

  /** How deep a selection nests, from its syntax alone (fields of no known type); stops past the limit. */
  private nesting(node: FieldNode, level: number): number {
    if (!node.selectionSet) return 1;
    if (level >= LIMITS.graphqlMaxDepth) return 2;
    let deepest = 0;
    const visit = (set: SelectionSetNode): void => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, this.nesting(selection, level + 1));
        else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      }
    };
    visit(node.selectionSet);
    return 1 + deepest;
  }

  private conditionOf(name: string | undefined, parent: GraphQLObjectType): GraphQLObjectType {
    const type = name ? this.schema.getType(name) : undefined;
    return type instanceof GraphQLObjectType ? type : parent;
  }

  private fragment(name: string, parent: GraphQLObjectType, pageCount: number | undefined, level: number): Measure {
    const definition = this.fragments.get(name);
    if (!definition || this.expanding.has(name)) return NOTHING;
    const key = `${name}|${parent.name}|${pageCount ?? ''}|${level}`;
    const known = this.memo.get(key);
    if (known) return known;
    this.expanding.add(name);
    const measured = this.selectionSet(definition.selectionSet, this.conditionOf(definition.typeCondition.name.value, parent), pageCount, level);
    this.expanding.delete(name);
    this.memo.set(key, measured);
    return measured;
  }

  private field(node: FieldNode, parent: GraphQLObjectType, pageCount: number | undefined, level: number): Measure {
    const name = node.name.value;
    // The whole schema, whatever is selected of it; graphql's MaxIntrospectionDepthRule bounds its nesting.
    if (INTROSPECTION_ROOTS.has(name)) return { depth: 0, cost: LIMITS.graphqlIntrospectionCost, items: 0, reads: 0 };
    const definition = parent.getFields()[name];
    // __typename costs nothing; an unknown field is graphql's validation's to report, but its nesting
    // still counts, so a hostile nesting of made-up fields is refused before validation walks it.
    if (!definition) return { depth: this.nesting(node, level), cost: 0, items: 0, reads: 0, deepest: node };
    const isRoot = parent === this.schema.getQueryType();
    const items = isRoot && ITEM_FIELDS[name] ? ITEM_FIELDS[name](node, this.variables) : 0;
    // A read happens whatever is selected below (even a leaf), once per occurrence and item.
    const reads = STORAGE_READS.get(parent.name)?.has(name) ? 1 : 0;
    const named = getNamedType(definition.type);
    if (isLeafType(named) || !(named instanceof GraphQLObjectType) || !node.selectionSet) return { depth: 1, cost: 0, items, reads, deepest: node };
    // Past the limit the answer is known (too deep): stop, so a hostile nesting costs no more to refuse.
    if (level >= LIMITS.graphqlMaxDepth) return { depth: 2, cost: 0, items, reads, deepest: node };
    const count = countOf(node, definition, this.variables);
    const isList = isListType(getNullableType(definition.type));
    const itemsInScope = name === 'items' ? (items > 0 ? items : LIMITS.graphqlListEstimate) : 1;
    const multiplier = !isList ? 1 : name === 'items' ? itemsInScope : (pageCount ?? LIMITS.graphqlListEstimate);
    const below = this.selectionSet(node.selectionSet, named, count ?? pageCount, level + 1);
    // Reads below an item field are paid per item it names; below any other field they pass up as they
    // are (the loaders read once per item and arguments, not once per account).
    const readCost = isRoot && ITEM_FIELDS[name] ? itemsInScope * below.reads * LIMITS.graphqlReadCost : 0;
    return {
      depth: 1 + below.depth,
      cost: multiplier * (1 + below.cost) + readCost,
      items,
      reads: isRoot ? 0 : reads + below.reads,
      deepest: below.deepest ?? node,
    };
  }
}

/** Every error the operation's shape earns, before it is validated and run. */
export function checkQueryLimits(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, environment: Environment): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const queryType = schema.getQueryType();
  if (!queryType) throw new Error('the GraphQL schema has no query type');
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.operation !== 'query') {
      errors.push(codedError('graphql_operation_not_supported', `This endpoint is read-only: ${definition.operation} operations are not served; send a query.`, definition));
      continue;
    }
    const meter = new QueryMeter(schema, document, variablesOf(definition, variables));
    const measured = meter.selectionSet(definition.selectionSet, queryType, undefined, 0);
    if (measured.depth > LIMITS.graphqlMaxDepth) {
      errors.push(codedError('graphql_query_too_deep', `The query nests selections more than ${LIMITS.graphqlMaxDepth} levels deep (introspection aside).`, measured.deepest));
    }
    if (measured.cost > LIMITS.graphqlMaxCost) {
      errors.push(
        codedError(
          'graphql_query_too_costly',
          `The query's cost estimate is ${Number.isFinite(measured.cost) ? Math.ceil(measured.cost) : 'unbounded'}; the limit is ${LIMITS.graphqlMaxCost}. Lists count their \`count\` (or ${LIMITS.graphqlListEstimate} without one) per element; ask for less or split the query.`,
          definition,
        ),
      );
    }
    if (measured.items > LIMITS.graphqlItemsMax) {
      errors.push(codedError('graphql_too_many_items', `The query names ${measured.items} access tokens; the limit is ${LIMITS.graphqlItemsMax} per request.`, definition));
    }
  }
  if (environment !== 'test') errors.push(...introspectionFields(document).map((field) => codedError('graphql_introspection_disabled', `${field.name.value} is available to test keys only.`, field)));
  return errors;
}

/** Every __schema and __type field of the document (operations and fragments alike). */
function introspectionFields(document: DocumentNode): FieldNode[] {
  const found: FieldNode[] = [];
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD && INTROSPECTION_ROOTS.has(selection.name.value)) found.push(selection);
      if (selection.kind !== Kind.FRAGMENT_SPREAD) visit(selection.selectionSet);
    }
  };
  for (const definition of document.definitions) if ('selectionSet' in definition) visit(definition.selectionSet);
  return found;
}
