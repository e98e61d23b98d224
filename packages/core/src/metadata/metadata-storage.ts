/**
 * The one place decorators write to. It lives on `globalThis` under a `Symbol.for` key, so two
 * copies of this package (a duplicate install, CJS and ESM) still share one storage.
 */
import type {
  ClassMetadataArgs,
  ClassType,
  CompleteMetadataArgs,
  DescriptionMetadataArgs,
  InterceptorsMetadataArgs,
  PromptMetadataArgs,
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

  /** The class record of `target`, if decorated. */
  classOf(target: ClassType): ClassMetadataArgs | undefined {
    return this.classes.find((c) => c.target === target);
  }

  /** Member records declared on `target` or its ancestors, nearest first. */
  membersOf<T extends { target: ClassType }>(records: T[], target: ClassType): T[] {
    const chain: unknown[] = [];
    for (let c: unknown = target; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.push(c);
    return chain.flatMap((c) => records.filter((r) => r.target === c));
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
    for (const list of [this.classes, this.tools, this.resources, this.prompts, this.completes, this.descriptions, this.interceptors]) list.length = 0;
  }
}

const KEY = Symbol.for('typemcp/metadata-storage');

/** The process-wide MetadataStorage. @publicApi */
export function getMetadataStorage(): MetadataStorage {
  const holder = globalThis as { [KEY]?: MetadataStorage };
  return (holder[KEY] ??= new MetadataStorage());
}
