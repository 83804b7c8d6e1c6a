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

/** Whether any statement restricts this action by `dynamodb:LeadingKeys`. */
export function limitedByLeadingKeys(statements: ResolvedStatement[], call: AwsCall): boolean {
  return statements.some((s) => statementAllows(s, call) && Object.values(s.conditions ?? {}).some((block) => 'dynamodb:LeadingKeys' in block));
}
