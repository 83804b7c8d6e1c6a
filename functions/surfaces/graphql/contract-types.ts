// GraphQL output types generated from the route table's zod response schemas, so the GraphQL
// gateway and the REST routes cannot drift: a field added to a REST response appears in GraphQL with
// the same name and a compatible type, with no second declaration.
//
// The zod schema goes through zod's own JSON Schema output (the same document openapi.json is built
// from), then each JSON Schema node maps to a GraphQL type:
//   object with properties -> object type (named by its `.meta({ id })`, else parent + field name)
//   object without properties (an open map), union, anything else -> the JSON scalar
//   array -> list; string -> String; integer -> Int; number -> Float; boolean -> Boolean
//   string enum whose values are valid GraphQL names -> enum type (else String)
//   `null` in a union or a type list, or a property that is not required -> nullable
// test/unit/graphql-contract.test.ts walks every exposed REST response beside its GraphQL type.
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  valueFromASTUntyped,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import * as z from 'zod';
import type { Route } from '../../contracts/routes';

/** The subset of JSON Schema that zod's output uses for response schemas. */
export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: boolean | JsonSchemaNode;
  items?: JsonSchemaNode;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  $ref?: string;
  description?: string;
  $defs?: Record<string, JsonSchemaNode>;
}

/** Open maps and shapes GraphQL cannot type (unions of objects, unknown values): passed through as JSON. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value: the REST field is an open map or a union GraphQL cannot type.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const isEnumValueName = (value: unknown): value is string => typeof value === 'string' && GRAPHQL_NAME.test(value) && !['true', 'false', 'null'].includes(value);

/** `transactions.get` -> `TransactionsGetResponse`; `payment_channel` -> `PaymentChannel`. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

export const responseTypeName = (routeId: string) => `${pascalCase(routeId)}Response`;

/** The JSON Schema of a zod schema as a response produces it (output side), every named shape under $defs. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchemaNode {
  return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchemaNode;
}

/** A node's own type and whether it admits null (before required-ness is applied). */
interface Mapped {
  type: GraphQLOutputType;
  nullable: boolean;
}

/** Fields a generated object type gets beyond its REST fields (relations the resolvers add). */
export type ExtraFields<TContext> = Record<string, () => GraphQLFieldConfigMap<unknown, TContext>>;

/**
 * Builds and names the types. One registry per schema: a named shape (Account, Transaction) is one
 * type wherever a response uses it, and the extra fields of a name apply everywhere it appears.
 */
export class ContractTypes<TContext = unknown> {
  private readonly named = new Map<string, { type: GraphQLObjectType | GraphQLEnumType; source: string }>();

  constructor(private readonly extraFields: ExtraFields<TContext> = {}) {}

  /** The type of a route's whole response, named after the route (`TransactionsGetResponse`). */
  responseOf(route: Pick<Route, 'id' | 'response'>): GraphQLObjectType {
    const root = jsonSchemaOf(route.response);
    const mapped = this.map(root, responseTypeName(route.id), root.$defs ?? {});
    if (!(mapped.type instanceof GraphQLObjectType)) throw new Error(`${route.id}: the response is not an object with fields`);
    return mapped.type;
  }

  /** A shape derived from the contract's schemas (a part of a response), under its own name. */
  shapeOf(schema: z.ZodType, name: string): GraphQLObjectType {
    const root = jsonSchemaOf(schema);
    const mapped = this.map(root, name, root.$defs ?? {});
    if (!(mapped.type instanceof GraphQLObjectType)) throw new Error(`${name} is not an object with fields`);
    return mapped.type;
  }

  /** The type of one property of a route's response (`institutions` of institutions.search), with its nullability. */
  propertyOf(route: Pick<Route, 'id' | 'response'>, property: string): GraphQLOutputType {
    const root = jsonSchemaOf(route.response);
    const node = root.properties?.[property];
    if (!node) throw new Error(`${route.id}: the response has no property ${property}`);
    return this.fieldType(node, root.required?.includes(property) ?? false, `${responseTypeName(route.id)}${pascalCase(property)}`, root.$defs ?? {});
  }

  /** The object type registered under a name (a `.meta({ id })` shape), once some response used it. */
  objectNamed(name: string): GraphQLObjectType {
    const found = this.named.get(name)?.type;
    if (!(found instanceof GraphQLObjectType)) throw new Error(`no generated object type ${name}`);
    return found;
  }

  private fieldType(node: JsonSchemaNode, required: boolean, nameHint: string, defs: Record<string, JsonSchemaNode>): GraphQLOutputType {
    const mapped = this.map(node, nameHint, defs);
    return required && !mapped.nullable ? new GraphQLNonNull(mapped.type) : mapped.type;
  }

  private map(node: JsonSchemaNode, nameHint: string, defs: Record<string, JsonSchemaNode>): Mapped {
    if (node.$ref) {
      const name = node.$ref.replace(/^#\/\$defs\//, '');
      const target = defs[name];
      if (!target) throw new Error(`unresolved reference ${node.$ref}`);
      return this.map(target, name, defs);
    }
    const alternatives = node.anyOf ?? node.oneOf;
    if (alternatives) {
      const nonNull = alternatives.filter((a) => a.type !== 'null');
      const nullable = nonNull.length < alternatives.length;
      if (nonNull.length !== 1) return { type: JsonScalar, nullable: true };
      const only = this.map(nonNull[0], nameHint, defs);
      return { type: only.type, nullable: nullable || only.nullable };
    }
    const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
    const nullable = types.includes('null');
    const kinds = types.filter((t) => t !== 'null');
    if (kinds.length !== 1) return { type: JsonScalar, nullable: true };
    const kind = kinds[0];
    if (node.enum) return { type: this.enumOf(node.enum, nameHint, kind), nullable };
    if (node.const !== undefined) return { type: this.scalarOf(typeof node.const === 'number' && Number.isInteger(node.const) ? 'integer' : kind), nullable };
    if (kind === 'array') {
      if (!node.items) return { type: JsonScalar, nullable: true };
      const element = this.map(node.items, nameHint, defs);
      return { type: new GraphQLList(element.nullable ? element.type : new GraphQLNonNull(element.type)), nullable };
    }
    if (kind === 'object') {
      const properties = node.properties ?? {};
      if (Object.keys(properties).length === 0) return { type: JsonScalar, nullable };
      return { type: this.objectOf(node, nameHint, defs), nullable };
    }
    return { type: this.scalarOf(kind), nullable };
  }

  private scalarOf(kind: string): GraphQLOutputType {
    switch (kind) {
      case 'string':
        return GraphQLString;
      case 'integer':
        return GraphQLInt;
      case 'number':
        return GraphQLFloat;
      case 'boolean':
        return GraphQLBoolean;
      default:
        return JsonScalar;
    }
  }

  private enumOf(values: unknown[], name: string, kind: string): GraphQLOutputType {
    if (kind !== 'string' || !values.every(isEnumValueName)) return this.scalarOf(kind);
    return this.register(name, JSON.stringify(values), (typeName) => new GraphQLEnumType({ name: typeName, values: Object.fromEntries(values.map((v) => [v, { value: v }])) }));
  }

  private objectOf(node: JsonSchemaNode, name: string, defs: Record<string, JsonSchemaNode>): GraphQLObjectType {
    return this.register(name, JSON.stringify(node), (typeName) => {
      const extra = this.extraFields[typeName];
      return new GraphQLObjectType<unknown, TContext>({
        name: typeName,
        description: node.description,
        // A thunk: named shapes may refer to each other (and to the extra fields' types).
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, TContext> = {};
          for (const [field, child] of Object.entries(node.properties ?? {})) {
            fields[field] = {
              type: this.fieldType(child, node.required?.includes(field) ?? false, `${typeName}${pascalCase(field)}`, defs),
              description: child.description ?? (child.$ref ? defs[child.$ref.replace(/^#\/\$defs\//, '')]?.description : undefined),
            };
          }
          const added = extra?.() ?? {};
          for (const field of Object.keys(added)) if (field in fields) throw new Error(`${typeName}.${field} is a REST field: a relation may not shadow it`);
          return { ...fields, ...added };
        },
      });
    });
  }

  /**
   * One type per name. The same name with a different shape (two inline objects whose derived names
   * collide) gets a numbered name rather than silently merging.
   */
  private register<T extends GraphQLObjectType | GraphQLEnumType>(name: string, source: string, build: (typeName: string) => T): T {
    for (let n = 1; ; n += 1) {
      const typeName = n === 1 ? name : `${name}${n}`;
      const known = this.named.get(typeName);
      if (known?.source === source) return known.type as T;
      if (known) continue;
      const type = build(typeName);
      this.named.set(typeName, { type, source });
      return type;
    }
  }
}
