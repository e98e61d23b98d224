/**
 * Argument checks for the registry-level tools of this app. (Once the app moves onto the
 * decorator API, DTOs and class-validator take this over.)
 */
import { ToolError, type JsonObject } from '@typemcp/protocol';

type Kind = 'string' | 'number' | 'integer';

/** Returns `args` typed as T after checking each listed field; failures become a ToolError naming the field. */
export function checkArgs<T>(args: JsonObject, spec: Record<string, Kind | `${Kind}?`>): T {
  const problems: string[] = [];
  for (const [field, rule] of Object.entries(spec)) {
    const optional = rule.endsWith('?');
    const kind = rule.replace('?', '') as Kind;
    const value = args[field];
    if (value === undefined) {
      if (!optional) problems.push(`"${field}" is required`);
      continue;
    }
    const ok = kind === 'integer' ? Number.isInteger(value) : typeof value === kind && (kind !== 'number' || Number.isFinite(value));
    if (!ok) problems.push(`"${field}" must be ${kind === 'integer' ? 'an integer' : `a ${kind}`}`);
  }
  if (problems.length) throw new ToolError(`Invalid arguments: ${problems.join('; ')}`);
  return args as T;
}
