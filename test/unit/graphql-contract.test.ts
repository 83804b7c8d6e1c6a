// GraphQL and REST cannot drift: every field of every REST response the gateway exposes appears in
// the GraphQL type that exposes it, under the same name, with a compatible type (object, list,
// nullability, enum values, Int vs Float, JSON for open maps); and every GraphQL field of those types
// is a REST field or a declared relation. The walk reads the route table's zod schemas through their
// JSON Schema, independently of how the gateway generated its types.
import {
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  getNullableType,
  type GraphQLOutputType,
} from 'graphql';
import * as z from 'zod';
import { routeById } from '../../functions/contracts/routes';
import { jsonSchemaOf, type JsonSchemaNode } from '../../functions/surfaces/graphql/contract-types';
import { REST_EXPOSURE, RELATION_FIELDS, graphqlSchema } from '../../functions/surfaces/graphql/schema';

const schema = graphqlSchema();

/** `Item.accounts` -> the field's type. */
function typeAt(coordinate: string): GraphQLOutputType {
  const [typeName, fieldName] = coordinate.split('.');
  const type = schema.getType(typeName);
  if (!(type instanceof GraphQLObjectType)) throw new Error(`${typeName} is not an object type`);
  const field = type.getFields()[fieldName];
  if (!field) throw new Error(`${coordinate} does not exist`);
  return field.type;
}

/** A JSON Schema node with its $ref resolved and its `null` alternative split off. */
function resolve(node: JsonSchemaNode, defs: Record<string, JsonSchemaNode>): { node: JsonSchemaNode; nullable: boolean } {
  if (node.$ref) return resolve(defs[node.$ref.replace('#/$defs/', '')], defs);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) {
    const nonNull = alternatives.filter((a) => a.type !== 'null');
    if (nonNull.length !== 1) return { node: {}, nullable: true };
    const inner = resolve(nonNull[0], defs);
    return { node: inner.node, nullable: inner.nullable || nonNull.length < alternatives.length };
  }
  if (Array.isArray(node.type)) {
    const kinds = node.type.filter((t) => t !== 'null');
    return { node: { ...node, type: kinds.length === 1 ? kinds[0] : undefined }, nullable: node.type.includes('null') };
  }
  return { node, nullable: false };
}

/**
 * Asserts the REST node and the GraphQL type agree, recording each difference with its path. `exact`
 * nullability applies below the exposing field; the exposing field itself may be nullable where REST
 * is not (a field that fails answers null with its error).
 */
function compare(rest: JsonSchemaNode, required: boolean, graphql: GraphQLOutputType, defs: Record<string, JsonSchemaNode>, path: string, problems: string[], exposing = false): void {
  const { node, nullable } = resolve(rest, defs);
  const restNullable = nullable || !required;
  const graphqlNullable = !(graphql instanceof GraphQLNonNull);
  if (!exposing && restNullable !== graphqlNullable) problems.push(`${path}: REST ${restNullable ? 'nullable' : 'non-null'}, GraphQL ${graphqlNullable ? 'nullable' : 'non-null'}`);
  const inner = getNullableType(graphql);
  const kind = typeof node.type === 'string' ? node.type : undefined;
  const isOpen = kind === 'object' && Object.keys(node.properties ?? {}).length === 0;
  if (kind === undefined || isOpen) {
    if (!(inner instanceof GraphQLScalarType && inner.name === 'JSON')) problems.push(`${path}: an open or untyped REST value should be JSON, is ${inner.toString()}`);
    return;
  }
  switch (kind) {
    case 'object': {
      if (!(inner instanceof GraphQLObjectType)) {
        problems.push(`${path}: REST object, GraphQL ${inner.toString()}`);
        return;
      }
      const fields = inner.getFields();
      const restFields = Object.keys(node.properties ?? {});
      for (const name of restFields) {
        if (!fields[name]) problems.push(`${path}.${name}: missing in GraphQL ${inner.name}`);
        else compare(node.properties![name], node.required?.includes(name) ?? false, fields[name].type, defs, `${path}.${name}`, problems);
      }
      const relations = RELATION_FIELDS[inner.name] ?? [];
      for (const name of Object.keys(fields)) if (!restFields.includes(name) && !relations.includes(name)) problems.push(`${path}.${name}: a GraphQL field REST does not have`);
      return;
    }
    case 'array':
      if (!(inner instanceof GraphQLList)) problems.push(`${path}: REST array, GraphQL ${inner.toString()}`);
      else compare(node.items ?? {}, true, inner.ofType, defs, `${path}[]`, problems);
      return;
    case 'integer':
      if (inner.toString() !== 'Int') problems.push(`${path}: REST integer, GraphQL ${inner.toString()}`);
      return;
    case 'number':
      if (inner.toString() !== 'Float') problems.push(`${path}: REST number, GraphQL ${inner.toString()}`);
      return;
    case 'boolean':
      if (inner.toString() !== 'Boolean') problems.push(`${path}: REST boolean, GraphQL ${inner.toString()}`);
      return;
    case 'string':
      if (node.enum && node.enum.every((v) => typeof v === 'string' && /^[_A-Za-z][_0-9A-Za-z]*$/.test(v))) {
        if (!(inner instanceof GraphQLEnumType)) problems.push(`${path}: REST enum, GraphQL ${inner.toString()}`);
        else if (JSON.stringify(inner.getValues().map((v) => v.value)) !== JSON.stringify(node.enum)) problems.push(`${path}: enum values differ`);
      } else if (inner.toString() !== 'String') problems.push(`${path}: REST string, GraphQL ${inner.toString()}`);
      return;
    default:
      problems.push(`${path}: REST type ${kind} has no GraphQL counterpart`);
  }
}

describe('GraphQL types follow the REST response schemas', () => {
  it('exposes the routes of items, accounts, transactions, sync, every data product, institutions and categories', () => {
    expect(REST_EXPOSURE.map((e) => e.route).sort()).toEqual(
      [
        'accounts.get',
        'assets.get',
        'categories.get',
        'identity.get',
        'income.get',
        'institutions.get_by_id',
        'institutions.search',
        'investments.holdings.get',
        'investments.transactions.get',
        'items.get',
        'liabilities.get',
        'recurring.get',
        'transactions.get',
        'transactions.sync',
      ].sort(),
    );
  });

  it.each(REST_EXPOSURE.map((e) => [e.route, e] as const))('%s: every REST field, with a compatible type', (routeId, exposure) => {
    const root = jsonSchemaOf(routeById(routeId).response);
    const defs = root.$defs ?? {};
    const problems: string[] = [];
    if ('response' in exposure) {
      compare(root, true, typeAt(exposure.response), defs, routeId, problems, true);
    } else {
      expect(Object.keys(exposure.properties).sort()).toEqual(Object.keys(root.properties ?? {}).sort());
      for (const [property, coordinate] of Object.entries(exposure.properties)) {
        compare(root.properties![property], root.required?.includes(property) ?? false, typeAt(coordinate), defs, `${routeId}.${property}`, problems, true);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the walk itself finds drift: a REST field the GraphQL type lacks, an Int that became Float, lost nullability, an open map', () => {
    const item = typeAt('Query.item');
    const problems: string[] = [];
    const drifted = jsonSchemaOf(
      z.object({
        item_id: z.string(),
        brand_new_field: z.string(),
        created_at: z.number(),
        status: z.enum(['healthy', 'renamed']),
        error: z.object({ type: z.string(), code: z.string(), message: z.string() }),
      }),
    );
    compare(drifted, true, item, {}, 'item', problems, true);
    expect(problems).toEqual(
      expect.arrayContaining([
        'item.brand_new_field: missing in GraphQL Item',
        'item.created_at: REST number, GraphQL String',
        'item.status: enum values differ',
        'item.error: REST non-null, GraphQL nullable',
        'item.institution_id: a GraphQL field REST does not have',
      ]),
    );
    const open: string[] = [];
    compare(jsonSchemaOf(z.object({ accounts: z.record(z.string(), z.unknown()) })), true, typeAt('TransactionsGetResponse.accounts') as GraphQLOutputType, {}, 'x', open, true);
    expect(open).toEqual(['x: REST object, GraphQL [Account!]']);
  });

  it('maps integers to Int and other numbers to Float, nullable REST fields to nullable GraphQL fields', () => {
    const page = schema.getType('TransactionsGetResponse') as GraphQLObjectType;
    expect(page.getFields().total_transactions.type.toString()).toBe('Int!');
    const transaction = schema.getType('Transaction') as GraphQLObjectType;
    expect(transaction.getFields().amount.type.toString()).toBe('Float!');
    expect(transaction.getFields().merchant_name.type.toString()).toBe('String');
    expect(transaction.getFields().payment_channel.type.toString()).toBe('TransactionPaymentChannel!');
  });
});
