// Small readers over a synthesized CloudFormation template: resolve intrinsic functions into
// placeholder strings, rebuild API Gateway resource paths, and flatten IAM statements.

import type { Json } from '../support/json';

/** A synthesized template: CloudFormation JSON, whose shape depends on the resource type. */
export type TemplateJson = Json;

export type Resources = Record<string, { Type: string; Properties?: TemplateJson; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

/**
 * Replaces Ref / Fn::GetAtt with placeholder ARNs and joins Fn::Join, so a synthesized
 * DefinitionString becomes plain ASL JSON (the same resolution the local workflow runner needs).
 */
export function resolveIntrinsics(value: unknown, region = 'us-east-1', account = '111111111111'): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveIntrinsics(v, region, account));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1) {
    const [key] = keys;
    const arg = obj[key];
    if (key === 'Ref') {
      const pseudo: Record<string, string> = {
        'AWS::Partition': 'aws',
        'AWS::Region': region,
        'AWS::AccountId': account,
        'AWS::URLSuffix': 'amazonaws.com',
      };
      return pseudo[arg as string] ?? `arn:aws:states:${region}:${account}:ref/${String(arg)}`;
    }
    if (key === 'Fn::GetAtt') {
      const [logicalId] = arg as [string, string];
      return `arn:aws:lambda:${region}:${account}:function:${logicalId}`;
    }
    if (key === 'Fn::Join') {
      const [separator, parts] = arg as [string, unknown[]];
      return parts.map((p) => String(resolveIntrinsics(p, region, account))).join(separator);
    }
  }
  return Object.fromEntries(keys.map((k) => [k, resolveIntrinsics(obj[k], region, account)]));
}

/** The logical id a Ref or Fn::GetAtt (possibly inside Fn::Join) points at, if exactly one. */
export function referencedLogicalIds(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    const obj = v as Record<string, unknown>;
    if (typeof obj.Ref === 'string' && !obj.Ref.startsWith('AWS::')) found.push(obj.Ref);
    if (Array.isArray(obj['Fn::GetAtt'])) found.push((obj['Fn::GetAtt'] as string[])[0]);
    Object.values(obj).forEach(walk);
  };
  walk(value);
  return found;
}

export function ofType(resources: Resources, type: string): [string, TemplateJson][] {
  return Object.entries(resources)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => [id, r.Properties ?? {}]);
}

/** Full path ("/v1/items/get") of every AWS::ApiGateway::Resource, plus "/" for the root. */
export function apiResourcePaths(resources: Resources): Map<string, string> {
  const paths = new Map<string, string>();
  const byId = new Map(ofType(resources, 'AWS::ApiGateway::Resource'));
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const props = byId.get(id);
    const parent = props.ParentId;
    const parentPath = parent['Fn::GetAtt'] ? '' : pathOf(parent.Ref);
    const path = `${parentPath}/${props.PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const id of byId.keys()) pathOf(id);
  return paths;
}

export interface MethodInfo {
  logicalId: string;
  httpMethod: string;
  path: string;
  functionLogicalId: string;
  integrationType: string;
}

export function apiMethods(resources: Resources): MethodInfo[] {
  const paths = apiResourcePaths(resources);
  return ofType(resources, 'AWS::ApiGateway::Method').map(([logicalId, props]) => {
    const resourceId = props.ResourceId;
    const path = resourceId.Ref ? paths.get(resourceId.Ref)! : '/';
    const targets = referencedLogicalIds(props.Integration?.Uri).filter((id) => resources[id]?.Type === 'AWS::Lambda::Function');
    if (targets.length !== 1) throw new Error(`${logicalId} does not integrate exactly one function`);
    return {
      logicalId,
      httpMethod: props.HttpMethod,
      path,
      functionLogicalId: targets[0],
      integrationType: props.Integration.Type,
    };
  });
}

export interface Statement {
  actions: string[];
  resources: unknown[];
  /** The statement's Condition block, when it has one (toEqual ignores it when undefined). */
  conditions?: Record<string, unknown>;
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Allow statements of a role's inline policies and of every AWS::IAM::Policy attached to it. */
export function roleStatements(resources: Resources, roleLogicalId: string): Statement[] {
  const docs: TemplateJson[] = [];
  const role = resources[roleLogicalId];
  for (const policy of asArray<TemplateJson>(role.Properties?.Policies)) docs.push(policy.PolicyDocument);
  for (const [, props] of ofType(resources, 'AWS::IAM::Policy')) {
    if (asArray<TemplateJson>(props.Roles).some((r) => r.Ref === roleLogicalId)) docs.push(props.PolicyDocument);
  }
  return docs.flatMap((doc) =>
    asArray<TemplateJson>(doc.Statement)
      .filter((s) => s.Effect === 'Allow')
      .map((s) => ({
        actions: asArray<string>(s.Action),
        resources: asArray<unknown>(s.Resource),
        ...(s.Condition ? { conditions: s.Condition } : {}),
      })),
  );
}

export interface NestedTemplate {
  /** Logical id of the AWS::CloudFormation::Stack resource in the parent template. */
  logicalId: string;
  template: TemplateJson;
}

/**
 * One resource map for a parent stack and its nested stacks, as if they were one template:
 * - nested resources are keyed `<nested stack logical id>/<logical id>`, and their Ref / Fn::GetAtt
 *   point at those keys;
 * - a nested stack's parameter is replaced by the value the parent passes it;
 * - the parent's Fn::GetAtt of a nested stack output is replaced by that output's value.
 * So a method in a nested stack integrates `{ Fn::GetAtt: ['<nested>/<fn>', 'Arn'] }`, and a grant of
 * the parent's table reads `{ Fn::GetAtt: ['<table>', 'Arn'] }` wherever the role lives.
 */
export function flattenTemplates(parent: TemplateJson, nested: NestedTemplate[]): Resources {
  const outputs = new Map<string, Record<string, unknown>>();
  const merged: Resources = {};
  for (const { logicalId, template } of nested) {
    const parameters: Record<string, unknown> = parent.Resources[logicalId].Properties?.Parameters ?? {};
    const declared = new Set(Object.keys(template.Parameters ?? {}));
    const local = (id: string) => `${logicalId}/${id}`;
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      const obj = value as Record<string, unknown>;
      if (typeof obj.Ref === 'string' && Object.keys(obj).length === 1) {
        if (obj.Ref.startsWith('AWS::')) return obj;
        if (declared.has(obj.Ref)) {
          if (!(obj.Ref in parameters)) throw new Error(`${logicalId}: parameter ${obj.Ref} gets no value from the parent`);
          return structuredClone(parameters[obj.Ref]);
        }
        return { Ref: local(obj.Ref) };
      }
      if (Array.isArray(obj['Fn::GetAtt']) && Object.keys(obj).length === 1) {
        const [id, attribute] = obj['Fn::GetAtt'] as [string, string];
        return { 'Fn::GetAtt': [local(id), attribute] };
      }
      return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, rewrite(v)]));
    };
    for (const [id, resource] of Object.entries(template.Resources as Resources)) merged[local(id)] = rewrite(resource) as Resources[string];
    outputs.set(
      logicalId,
      Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([name, output]: [string, TemplateJson]) => [name, rewrite(output.Value)])),
    );
  }
  const rewriteParent = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewriteParent);
    if (value === null || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    const getAtt = obj['Fn::GetAtt'];
    if (Array.isArray(getAtt) && outputs.has(getAtt[0]) && String(getAtt[1]).startsWith('Outputs.')) {
      const name = String(getAtt[1]).slice('Outputs.'.length);
      const output = outputs.get(getAtt[0])![name];
      if (output === undefined) throw new Error(`${getAtt[0]} has no output ${name}`);
      return structuredClone(output);
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, rewriteParent(v)]));
  };
  for (const [id, resource] of Object.entries(parent.Resources as Resources)) merged[id] = rewriteParent(resource) as Resources[string];
  // A nested stack's parameter may carry another nested stack's output (a function name one stack's
  // routes invoke): resolved once every stack's outputs are known.
  for (const { logicalId } of nested) {
    for (const id of Object.keys(merged).filter((key) => key.startsWith(`${logicalId}/`))) merged[id] = rewriteParent(merged[id]) as Resources[string];
  }
  return merged;
}
