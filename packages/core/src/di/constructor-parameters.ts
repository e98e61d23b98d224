/**
 * What the container needs to know about a class's constructor, read once per class when it is
 * first resolved: the reflected parameter types and, for messages, the parameter names.
 */
import type { ClassType } from '../metadata/metadata-args.interface.js';

/** `design:paramtypes` of a class: what TypeScript emitted for its constructor. */
export function constructorParamTypes(target: ClassType): unknown[] {
  return (Reflect.getMetadata?.('design:paramtypes', target) as unknown[] | undefined) ?? [];
}

/** The source text of the parameter list that starts at `open` (an opening parenthesis). */
function parameterList(source: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(open + 1, i);
  }
  return undefined;
}

/**
 * The constructor's parameter names, read from its source; an entry is undefined where the
 * parameter is not a plain identifier (a destructuring pattern). Best effort, for messages only.
 */
export function constructorParamNames(target: ClassType): (string | undefined)[] {
  const source = Function.prototype.toString.call(target);
  const start = source.search(/(?<![.\w$])constructor\s*\(/);
  if (start < 0) return [];
  const list = parameterList(source, source.indexOf('(', start));
  if (list === undefined) return [];
  const names: (string | undefined)[] = [];
  let depth = 0;
  let current = '';
  for (const char of `${list},`) {
    if (char === ',' && depth === 0) {
      const name = current.split('=')[0].trim();
      names.push(/^[A-Za-z_$][\w$]*$/.test(name) ? name : undefined);
      current = '';
      continue;
    }
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth--;
    current += char;
  }
  return names;
}
