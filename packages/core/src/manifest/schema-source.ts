/**
 * Where a server's DTO schemas come from: the verified manifest when it has the schema, else the
 * run-time factory (`DtoSchemaFactory`, which also raises the DTO definition errors). Both give
 * the same schema for the same code: the manifest's fingerprint proves the code is the one it was
 * built from, and `typemcp build --check` compares the two.
 */
import type { JsonObject } from '@typemcp/protocol';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { DtoSchema, DtoSchemaFactory, DtoSchemaOptions, UnknownFields } from '../schema/index.js';
import { deepFreeze } from '../schema/schema-walk.js';
import { recordSchema, schemaKey, type LoadedManifest } from './schema-manifest.js';

/** The role of a DTO for the method that uses it. */
export type SchemaRole = 'input' | 'output';

/** What the builder and the validator ask for: a DTO's schema, for a method or on its own. */
export interface SchemaSource {
  readonly unknownFields: UnknownFields;
  /** The schema of `dto` (validation, elicitation forms): the one a method's lookup gave, or derived. */
  forClass(dto: ClassType): DtoSchema;
  /** The schema of `dto` as `origin` (`Class.method`) uses it: from the manifest when it has it. */
  schemaOf(dto: ClassType, origin: string, role: SchemaRole): DtoSchema;
}

/** The schema options that change a schema, as a key suffix ('' for the defaults). */
function optionsKey(options: DtoSchemaOptions = {}): string {
  const parts: string[] = [];
  if (options.inlineRefs) parts.push('inlineRefs');
  if (options.unknownFields === 'strip') parts.push('strip');
  return parts.join(',');
}

/** A server's schema source (see the header). */
export class ManifestSchemas implements SchemaSource {
  private readonly fromManifest = new Map<ClassType, DtoSchema>();
  private readonly options: string;

  constructor(
    private readonly factory: Pick<DtoSchemaFactory, 'forClass' | 'unknownFields'>,
    options: DtoSchemaOptions | undefined,
    private readonly manifest: LoadedManifest | undefined,
    private readonly record: boolean,
  ) {
    this.options = optionsKey(options);
  }

  get unknownFields(): UnknownFields {
    return this.factory.unknownFields;
  }

  forClass(dto: ClassType): DtoSchema {
    return this.fromManifest.get(dto) ?? this.factory.forClass(dto);
  }

  schemaOf(dto: ClassType, origin: string, role: SchemaRole): DtoSchema {
    const key = schemaKey(origin, role, this.options);
    const entry = this.manifest?.schemas.get(key);
    // The name guards against a server that serves another class under the same method name.
    if (entry && entry.dto === dto.name) {
      // Frozen like a derived schema (shared between tools and servers); only the ones used.
      const schema = deepFreeze(entry.schema) as DtoSchema;
      if (!this.fromManifest.has(dto)) this.fromManifest.set(dto, schema);
      return schema;
    }
    const schema = this.forClass(dto);
    if (this.record) recordSchema(key, dto.name, schema as JsonObject);
    return schema;
  }
}
