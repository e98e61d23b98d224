/** The `$ref` graph of a DTO schema: which definitions it reaches, which are recursive, inlining. */
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { isSchema, mapSubschemas, visitSchemas, type Schema } from './schema-walk.js';

/** Where DTO definitions live; every `$ref` we emit points here. */
export const DEFS_PREFIX = '#/$defs/';

/**
 * Internal definition ids, one per class. Class names are not unique (see stock-schemas.ts), so
 * converted schemas refer to ids, and each finished schema gets readable names of its own.
 */
export class DtoRefs {
  private readonly ids = new Map<ClassType, string>();
  private readonly classes = new Map<string, ClassType>();

  /** The id of `target`, assigned on first use. */
  idOf(target: ClassType): string {
    let id = this.ids.get(target);
    if (id === undefined) {
      id = `${this.ids.size}~${target.name}`;
      this.ids.set(target, id);
      this.classes.set(id, target);
    }
    return id;
  }

  /** The class behind an id. */
  classOf(id: string): ClassType {
    const target = this.classes.get(id);
    if (!target) throw new Error(`TypeMCP internal error: unknown DTO definition "${id}"`);
    return target;
  }

  /** Readable, unique `$defs` names for these ids: the class name, then `Name_2`, `Name_3`... */
  names(ids: Iterable<string>): Map<string, string> {
    const names = new Map<string, string>();
    const used = new Set<string>();
    for (const id of ids) {
      const base = this.classOf(id).name || 'Dto';
      let name = base;
      for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
      used.add(name);
      names.set(id, name);
    }
    return names;
  }
}

/** The definition names `schema` refers to directly (not through other definitions). */
export function refNames(schema: Schema): string[] {
  const names = new Set<string>();
  visitSchemas(schema, (node) => {
    if (typeof node.$ref === 'string' && node.$ref.startsWith(DEFS_PREFIX)) names.add(node.$ref.slice(DEFS_PREFIX.length));
  });
  return [...names];
}

/** Every definition reachable from `root`, transitively, in discovery order. */
export function reachableDefs(root: Schema, resolve: (name: string) => Schema): Map<string, Schema> {
  const defs = new Map<string, Schema>();
  const pending = refNames(root);
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    if (defs.has(name)) continue;
    const def = resolve(name);
    defs.set(name, def);
    pending.push(...refNames(def));
  }
  return defs;
}

/** The definitions that can reach themselves: they cannot be inlined. */
export function recursiveDefs(defs: Map<string, Schema>): Set<string> {
  const edges = new Map([...defs].map(([name, def]) => [name, refNames(def)]));
  const reaches = (from: string, goal: string, seen: Set<string>): boolean =>
    (edges.get(from) ?? []).some((next) => next === goal || (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))));
  return new Set([...defs.keys()].filter((name) => reaches(name, name, new Set())));
}

/** `schema` with every `$ref` to a definition outside `keep` replaced by the definition itself. */
export function inlineRefs(schema: Schema, defs: Map<string, Schema>, keep: Set<string>): Schema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(DEFS_PREFIX) && !keep.has(ref.slice(DEFS_PREFIX.length))) {
    const { $ref: _ref, ...siblings } = schema;
    const target = inlineRefs(defs.get(ref.slice(DEFS_PREFIX.length)) ?? {}, defs, keep);
    const clash = Object.keys(siblings).some((k) => k in target && JSON.stringify(target[k]) !== JSON.stringify(siblings[k]));
    return clash ? { allOf: [target], ...inlineSiblings(siblings, defs, keep) } : { ...target, ...inlineSiblings(siblings, defs, keep) };
  }
  return mapSubschemas(schema, (sub) => inlineRefs(sub, defs, keep));
}

function inlineSiblings(siblings: Schema, defs: Map<string, Schema>, keep: Set<string>): Schema {
  return mapSubschemas(siblings, (sub) => inlineRefs(sub, defs, keep));
}

/** `schema` with each `$ref` id, and each `$defs` key, replaced by its name. */
export function renameRefs(schema: Schema, names: Map<string, string>): Schema {
  const out = mapSubschemas(schema, (sub) => renameRefs(sub, names));
  const ref = out.$ref;
  if (typeof ref === 'string' && ref.startsWith(DEFS_PREFIX))
    out.$ref = DEFS_PREFIX + (names.get(ref.slice(DEFS_PREFIX.length)) ?? ref.slice(DEFS_PREFIX.length));
  if (isSchema(out.$defs)) out.$defs = Object.fromEntries(Object.entries(out.$defs).map(([id, def]) => [names.get(id) ?? id, def]));
  return out;
}
