/**
 * The one place decorators write to. It lives on `globalThis` under a `Symbol.for` key, so two
 * copies of this package (a duplicate install, CJS and ESM) still share one storage.
 */
import type {
  ClassMetadataArgs,
  ClassType,
  CompleteMetadataArgs,
  DescriptionMetadataArgs,
  EnvMetadataArgs,
  ExtensionDataMetadataArgs,
  InterceptorsMetadataArgs,
  PromptMetadataArgs,
  ReadinessCheckMetadataArgs,
  ResourceMetadataArgs,
  ToolMetadataArgs,
} from './metadata-args.interface.js';

/** @publicApi */
export class MetadataStorage {
  /** Bumped when the record layout changes incompatibly. */
  readonly version = 1;
  readonly classes: ClassMetadataArgs[] = [];
  readonly tools: ToolMetadataArgs[] = [];
  readonly resources: ResourceMetadataArgs[] = [];
  readonly prompts: PromptMetadataArgs[] = [];
  readonly completes: CompleteMetadataArgs[] = [];
  readonly descriptions: DescriptionMetadataArgs[] = [];
  readonly interceptors: InterceptorsMetadataArgs[] = [];
  readonly readinessChecks: ReadinessCheckMetadataArgs[] = [];
  readonly envVariables: EnvMetadataArgs[] = [];
  /** `ExtensionData` records, for the extensions an application installs. */
  readonly extensionData: ExtensionDataMetadataArgs[] = [];
  private readonly indexes = new WeakMap<object, unknown>();

  /** The class record of `target`, if decorated. */
  classOf(target: ClassType): ClassMetadataArgs | undefined {
    return this.classes.find((c) => c.target === target);
  }

  /** Member records declared on `target` or its ancestors, nearest first. */
  membersOf<T extends { target: ClassType }>(records: T[], target: ClassType): T[] {
    const byTarget = this.indexOf(records);
    const found: T[] = [];
    for (let c: unknown = target; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      const own = byTarget.get(c as ClassType);
      if (own) for (let i = 0; i < own.length; i++) found.push(own[i]);
    }
    return found;
  }

  /**
   * `records` grouped by class, in their order. Built on first use and again when the list has
   * changed since (decorators only push, `reset()` empties), so looking up one class's members
   * does not scan every record: a server with 500 tools asks once per tool.
   */
  private indexOf<T extends { target: ClassType }>(records: T[]): Map<ClassType, T[]> {
    const cached = this.indexes.get(records) as { length: number; last: T | undefined; byTarget: Map<ClassType, T[]> } | undefined;
    if (cached && cached.length === records.length && cached.last === records[records.length - 1]) return cached.byTarget;
    const byTarget = new Map<ClassType, T[]>();
    for (const r of records) {
      const list = byTarget.get(r.target);
      if (list) list.push(r);
      else byTarget.set(r.target, [r]);
    }
    this.indexes.set(records, { length: records.length, last: records[records.length - 1], byTarget });
    return byTarget;
  }

  /**
   * The interceptors `@UseInterceptors()` put on `target` (and its base classes, base first) or,
   * with `method`, on that method; in the order they are listed, across decorators top to bottom.
   */
  interceptorsOf(target: ClassType, method?: string): unknown[] {
    // Nearest class first, and decorators apply bottom-up: reversed, base classes and topmost decorators come first.
    const records = this.membersOf(this.interceptors, target).filter((r) => r.method === method);
    return records.reverse().flatMap((r) => r.interceptors);
  }

  /**
   * The `ExtensionData` records of `target` (and its base classes) for the class (no `method`) or
   * one method, by extension identifier: several records of one extension merged, base classes
   * first, then in the order the decorators are written (the lowest wins a key). Undefined when
   * there is none.
   */
  extensionDataOf(target: ClassType, method?: string): Record<string, object> | undefined {
    // Nearest class first and decorators applied bottom-up: reversed, base classes and topmost come first.
    const records = this.membersOf(this.extensionData, target).filter((r) => r.method === method);
    if (records.length === 0) return undefined;
    const out: Record<string, object> = {};
    for (const r of records.reverse()) out[r.id] = { ...out[r.id], ...r.data };
    return out;
  }

  /** The methods of `target` (and its base classes) that carry `ExtensionData`, with their `design:paramtypes`. */
  extensionMethodsOf(target: ClassType): Map<string, unknown[]> {
    const methods = new Map<string, unknown[]>();
    for (const r of this.membersOf(this.extensionData, target)) if (r.method !== undefined && !methods.has(r.method)) methods.set(r.method, r.paramTypes);
    return methods;
  }

  /** The `@Description` record of a DTO property, looking through base classes. */
  describedAs(target: ClassType, property: string): DescriptionMetadataArgs | undefined {
    return this.membersOf(this.descriptions, target).find((d) => d.property === property);
  }

  /** The `@Description` text of a DTO property, looking through base classes. */
  descriptionOf(target: ClassType, property: string): string | undefined {
    return this.describedAs(target, property)?.description;
  }

  /** Forgets everything (tests declare their classes inside the test and reset in between). */
  reset(): void {
    for (const list of [
      this.classes,
      this.tools,
      this.resources,
      this.prompts,
      this.completes,
      this.descriptions,
      this.interceptors,
      this.extensionData,
      this.readinessChecks,
      this.envVariables,
    ]) {
      list.length = 0;
      this.indexes.delete(list);
    }
  }
}

const KEY = Symbol.for('typemcp/metadata-storage');

/** The process-wide MetadataStorage. @publicApi */
export function getMetadataStorage(): MetadataStorage {
  const holder = globalThis as { [KEY]?: MetadataStorage };
  return (holder[KEY] ??= new MetadataStorage());
}
