/**
 * Argument checks for the registry-level tools of this app. (Once the app moves onto the
 * decorator API, DTOs and class-validator take this over.)
 */
import { ToolError, type JsonObject } from '@typemcp/protocol';

type Kind = 'string' | 'number' | 'integer';
type Rule = Kind | `${Kind}?`;

const isKind: Record<Kind, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
};

/**
 * Compiles a check of the listed fields; the returned function gives `args` typed as T, or throws
 * a ToolError naming each failing field. Compiled once per tool, run per call.
 */
export function argsChecker<T>(spec: Record<string, Rule>): (args: JsonObject) => T {
  const rules = Object.entries(spec).map(([field, rule]) => {
    const kind = rule.replace('?', '') as Kind;
    return { field, optional: rule.endsWith('?'), test: isKind[kind], expected: kind === 'integer' ? 'an integer' : `a ${kind}` };
  });
  return (args) => {
    let problems: string[] | undefined;
    for (const { field, optional, test, expected } of rules) {
      const value = args[field];
      if (value === undefined ? !optional : !test(value)) {
        (problems ??= []).push(value === undefined ? `"${field}" is required` : `"${field}" must be ${expected}`);
      }
    }
    if (problems) throw new ToolError(`Invalid arguments: ${problems.join('; ')}`);
    return args as T;
  };
}
