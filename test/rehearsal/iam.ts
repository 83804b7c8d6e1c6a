// Evaluates a recorded AWS call against a role's Allow statements (no Deny statements are
// synthesized), the way IAM does for the parts our policies use: action and resource wildcards, and
// the condition operators on single- and multi-valued keys. An operator it does not know makes the
// statement fail loudly instead of being guessed.
import type { AwsCall } from './aws-stubs';

/** A statement whose intrinsics are resolved to the rehearsal's stand-in names. */
export interface ResolvedStatement {
  actions: string[];
  resources: string[];
  conditions?: Record<string, Record<string, unknown>>;
}

const wildcard = (pattern: string, flags = '') =>
  new RegExp(`^${pattern.split('*').map((part) => part.split('?').map((p) => p.replace(/[.+^${}()|[\]\\]/g, '\\$&')).join('.')).join('.*')}$`, flags);

const likes = (pattern: string, value: string) => wildcard(pattern).test(value);
const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [String(v)]);

function operatorHolds(operator: string, key: string, expected: string[], context: AwsCall['context']): boolean {
  const present = key in context;
  const raw = context[key];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const [qualifier, base] = operator.includes(':') ? (operator.split(':') as [string, string]) : [undefined, operator];
  const compare = (value: string): boolean => {
    switch (base) {
      case 'StringEquals':
        return expected.includes(value);
      case 'StringLike':
        return expected.some((pattern) => likes(pattern, value));
      case 'StringNotEquals':
        return !expected.includes(value);
      case 'StringNotLike':
        return !expected.some((pattern) => likes(pattern, value));
      default:
        throw new Error(`condition operator ${operator} is not evaluated by the rehearsal`);
    }
  };
  if (base === 'Null') return expected.includes('true') ? !present : present;
  if (qualifier === 'ForAllValues') return values.every(compare);
  if (qualifier === 'ForAnyValue') return values.some(compare);
  if (qualifier !== undefined) throw new Error(`condition operator ${operator} is not evaluated by the rehearsal`);
  // A single-valued operator on a key the request does not carry does not match (negated ones do).
  if (!present || Array.isArray(raw)) return base.includes('Not');
  return compare(String(raw));
}

export function statementAllows(statement: ResolvedStatement, call: AwsCall): boolean {
  if (!statement.actions.some((action) => wildcard(action, 'i').test(call.action))) return false;
  if (!statement.resources.some((resource) => likes(resource, call.resource))) return false;
  for (const [operator, block] of Object.entries(statement.conditions ?? {})) {
    for (const [key, expected] of Object.entries(block)) {
      if (!operatorHolds(operator, key, asList(expected), call.context)) return false;
    }
  }
  return true;
}

export const allowedBy = (statements: ResolvedStatement[], call: AwsCall) => statements.some((s) => statementAllows(s, call));

/**
 * A `ForAllValues:` condition holds for a request that carries no values for its key (IAM's
 * documented behaviour), so a statement limited by `dynamodb:LeadingKeys` also allows a Scan or a
 * DescribeTable, which name no partition. Such a call is allowed only vacuously: true here when no
 * statement allows it except through a ForAllValues condition on a key the call leaves empty.
 */
export function allowedOnlyVacuously(statements: ResolvedStatement[], call: AwsCall): boolean {
  const allowing = statements.filter((s) => statementAllows(s, call));
  if (allowing.length === 0) return false;
  return allowing.every((s) =>
    Object.entries(s.conditions ?? {}).some(
      ([operator, block]) => operator.startsWith('ForAllValues:') && Object.keys(block).some((key) => (call.context[key] ?? []).length === 0),
    ),
  );
}


const LEADING_KEYS = 'dynamodb:LeadingKeys';
const leadingKeyPatterns = (s: ResolvedStatement): string[] | undefined => {
  for (const block of Object.values(s.conditions ?? {})) if (LEADING_KEYS in block) return asList(block[LEADING_KEYS]);
  return undefined;
};
/** `table` or `index/<name>`: the part of the table a resource ARN names. */
const partOf = (resource: string) => (resource.includes('/index/') ? `index/${resource.split('/index/')[1]}` : 'table');
const shortAction = (action: string) => action.replace(/^dynamodb:/, '');

/**
 * What one function did to the table against what its grants allow, by partition family (the
 * LeadingKeys pattern that allowed each key; under a whole-table grant, the key's prefix up to its
 * first `#`): `touched` lists family and actions per part of the table (table, index/<name>), and
 * `granted, not exercised` what the partition grants allow that this run never used (coverage of the
 * run, not necessarily an excess grant). Empty for a function that made no DynamoDB call and has no
 * table grant.
 */
export function tableAccessReport(statements: ResolvedStatement[], calls: AwsCall[]): string[] {
  const touched = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, family: string, action: string) => map.set(family, (map.get(family) ?? new Set()).add(shortAction(action)));
  let wholeTable = false;
  for (const call of calls.filter((c) => c.action.startsWith('dynamodb:'))) {
    const allowing = statements.filter((s) => statementAllows(s, call));
    const limited = allowing.map(leadingKeyPatterns).find((patterns) => patterns !== undefined);
    if (!limited) wholeTable ||= allowing.length > 0;
    const values = [call.context[LEADING_KEYS] ?? []].flat();
    for (const value of values.length ? values : ['(no partition)']) {
      const family = limited?.find((p) => likes(p, value)) ?? (value.includes('#') ? `${value.split('#')[0]}#*` : value);
      add(touched, `${partOf(call.resource)} ${family}`, call.action);
    }
  }
  const granted = new Map<string, Set<string>>();
  for (const s of statements) {
    const patterns = leadingKeyPatterns(s);
    if (!patterns) continue;
    for (const resource of s.resources) {
      for (const pattern of patterns) for (const action of s.actions.filter((a) => a.startsWith('dynamodb:'))) add(granted, `${partOf(resource)} ${pattern}`, action);
    }
  }
  const describe = (map: Map<string, Set<string>>) =>
    [...map].map(([family, actions]) => `${family.replace(/^table /, '')} ${[...actions].sort().join(',')}`).join('; ');
  const unexercised = new Map<string, Set<string>>();
  for (const [family, actions] of granted) {
    for (const action of actions) if (!touched.get(family)?.has(action)) add(unexercised, family, action);
  }
  const lines: string[] = [];
  if (touched.size) lines.push(`${wholeTable ? 'whole-table grant; ' : ''}touched ${describe(touched)}`);
  if (unexercised.size) lines.push(`granted, not exercised: ${describe(unexercised)}`);
  return lines;
}
