/**
 * The only import of class-transformer's internal metadata storage in the tree. The package
 * exports it from no public entry point and ships no typings for the deep path, so it is loaded
 * with `require` and typed here with just the members we (and class-validator-jsonschema) read.
 * class-validator-jsonschema needs it to resolve `@Type(() => X)`: without it, arrays of DTOs
 * come out as `$ref: Array`.
 */
import type { ClassType } from '../metadata/metadata-args.interface.js';

/** The `@Type(() => X)` record class-transformer keeps for a property. */
export interface TypeMetadataRecord {
  typeFunction: (options?: unknown) => unknown;
  /** The property's `design:type` (Map for a Map-typed property). */
  reflectedType?: unknown;
  options?: { discriminator?: unknown };
}

/** A `@Transform(fn, options)` record, called as class-transformer calls it. */
export interface TransformMetadataRecord {
  transformFn: (params: { value: unknown; key: string; obj: unknown; type: number; options: object }) => unknown;
  options?: { groups?: string[] };
}

/** The slice of class-transformer's `MetadataStorage` this package relies on. */
export interface ClassTransformerStorage {
  findTypeMetadata(target: ClassType, propertyName: string): TypeMetadataRecord | undefined;
  findExcludeMetadata(target: ClassType, propertyName: string): unknown;
  getExposedMetadatas(target: ClassType): { propertyName?: string; options: { name?: string } }[];
  getExcludedMetadatas(target: ClassType): { propertyName?: string }[];
  /** A class-level `@Expose()` or `@Exclude()`: `'exposeAll'`, `'excludeAll'`, or `'none'`. */
  getStrategy(target: ClassType): 'none' | 'exposeAll' | 'excludeAll';
  /** `transformationType` 0 is PLAIN_TO_CLASS, 1 CLASS_TO_PLAIN. */
  findTransformMetadatas(target: ClassType, propertyName: string, transformationType: number): TransformMetadataRecord[];
}

// Same module instance as `class-transformer`'s main entry (cjs/index.js requires ./storage).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storageModule = require('class-transformer/cjs/storage') as { defaultMetadataStorage: ClassTransformerStorage };

/** class-transformer's process-wide metadata storage (`@Type`, `@Transform`, `@Exclude`, `@Expose`). */
export const classTransformerStorage: ClassTransformerStorage = storageModule.defaultMetadataStorage;
