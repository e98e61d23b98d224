/**
 * DTO class -> JSON Schema. class-validator-jsonschema does the conversion; this factory fixes
 * what it gets wrong (see the converters and the normaliser), makes each schema self-contained
 * and caches it.
 */
import 'reflect-metadata';
import type { JsonObject } from '@typemcp/protocol';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { validatorNames } from '../pipeline/validation-libraries.js';
import { TRANSFORM_OPTIONS } from '../pipeline/validation-options.js';
import { classTransformerStorage } from './class-transformer-storage.js';
import { readDtoProperties, validationMetadataOf, type ValidationMeta } from './dto-properties.reader.js';
import { acceptNull, settleTypes } from './schema-normaliser.js';
import { DtoRefs, inlineRefs, reachableDefs, recursiveDefs, renameRefs } from './schema-refs.js';
import { deepFreeze, defineKey, type Schema } from './schema-walk.js';
import { conflictingTypes, untypedDate, untypedNested } from './schema.errors.js';
import { StockSchemas } from './stock-schemas.js';

/**
 * What happens to an input field the DTO does not declare:
 * - `'reject'` (default): the input is refused with "unknown field `ratting`; did you mean
 *   `rating`?", and every DTO schema says `additionalProperties: false`. A model that misspells
 *   a field learns it at once instead of losing the value silently.
 * - `'strip'`: the field is dropped before the handler sees it; schemas say nothing about it.
 */
export type UnknownFields = 'reject' | 'strip';

/** Options of {@link DtoSchemaFactory}. @publicApi */
export interface DtoSchemaOptions {
  /** Inline every $ref (non-recursive DTOs) instead of emitting $defs, for clients known to drop $defs. Default false. */
  inlineRefs?: boolean;
  /** Fields a DTO does not declare: refused (default) or dropped. See {@link UnknownFields}. */
  unknownFields?: UnknownFields;
}

/** A JSON Schema for a DTO: always an object schema. @publicApi */
export type DtoSchema = JsonObject & { type: 'object' };

/** A property with `@IsDate()` and no `@Type(() => Date)` to turn the JSON string into a Date. */
function untypedDateOf(dto: ClassType, records: readonly ValidationMeta[]): string | undefined {
  const { IS_DATE } = validatorNames();
  for (let i = 0; i < records.length; i++) {
    if (records[i].name !== IS_DATE) continue;
    const { propertyName } = records[i];
    let type: unknown;
    try {
      type = classTransformerStorage.findTypeMetadata(dto, propertyName)?.typeFunction();
    } catch {
      type = undefined; // a discriminating @Type that needs the value: not a Date
    }
    if (type !== Date) return propertyName;
  }
  return undefined;
}

/** The definitions of a schema without `$ref`s (never changed). */
const NO_DEFS = new Map<string, Schema>();

/**
 * Builds the JSON Schema (2020-12 keywords, no `$schema` key: MCP 2025-11-25 defaults to
 * 2020-12 and older clients dislike the key) that matches what class-validator accepts for a DTO.
 * @publicApi
 */
export class DtoSchemaFactory {
  private readonly refs = new DtoRefs();
  private readonly stock = new StockSchemas(this.refs);
  private readonly classSchemas = new Map<ClassType, Schema>();
  private readonly results = new Map<ClassType, DtoSchema>();
  /** Classes whose own schema has no `$ref` anywhere (most): nothing to look for in them. */
  private readonly refFree = new Set<ClassType>();

  /** What the schemas (and the validation that uses them) do with undeclared fields. */
  readonly unknownFields: UnknownFields;

  constructor(private readonly options: DtoSchemaOptions = {}) {
    this.unknownFields = options.unknownFields ?? 'reject';
  }

  /**
   * A self-contained JSON Schema with `type: 'object'` for a DTO class: every $ref resolves inside
   * it (`#/$defs/<Name>`), arrays always carry `items`. Built once per class and cached; the
   * result is frozen and shared, so copy it before changing it.
   * @throws DefinitionError for DTO mistakes (`TYPEMCP_ERR_UNDECORATED_PROPERTY`, ...).
   */
  forClass(dto: ClassType): DtoSchema {
    const cached = this.results.get(dto);
    if (cached) return cached;
    const root = this.classSchema(dto);
    const all = this.refFree.has(dto) ? NO_DEFS : reachableDefs(root, (id) => this.classSchema(this.refs.classOf(id)));
    let schema = root;
    let defs = all;
    if (this.options.inlineRefs && all.size > 0) {
      schema = inlineRefs(root, all, recursiveDefs(all));
      defs = reachableDefs(schema, (id) => all.get(id) ?? {});
    }
    // Without definitions there is no `$ref` to rename (every one would have been reached).
    const named = defs.size > 0 ? renameRefs({ ...schema, $defs: Object.fromEntries(defs) }, this.refs.names(defs.keys())) : schema;
    const result = deepFreeze(named) as DtoSchema;
    this.results.set(dto, result);
    return result;
  }

  /** The schema of one class on its own: nested DTOs stay `$ref`s to internal ids. */
  private classSchema(dto: ClassType): Schema {
    const cached = this.classSchemas.get(dto);
    if (cached) return cached;
    // The class's records, found once for both readers (neither changes them).
    const records = validationMetadataOf(dto);
    const stockSchema = this.stock.of(dto, records);
    const { properties: stockProperties, required: stockRequired } = stockSchema;
    // The stock schema's other keys (a class-level `@JSONSchema()`'s, if any), as a rest pattern would take them.
    const restKeys = Object.keys(stockSchema).filter((key) => key !== 'properties' && key !== 'required' && key !== '$schema' && key !== 'type');
    const untyped = this.stock.untypedPropertyOf(dto);
    if (untyped !== undefined && !TRANSFORM_OPTIONS.enableImplicitConversion) throw untypedNested(dto, untyped);
    const untypedDateProperty = TRANSFORM_OPTIONS.enableImplicitConversion ? undefined : untypedDateOf(dto, records);
    if (untypedDateProperty !== undefined) throw untypedDate(dto, untypedDateProperty);
    const facts = readDtoProperties(dto, records);
    const properties: Schema = {};
    const required: string[] = [];
    const seen = { ref: false };
    let name = '';
    const conflict = (types: string[]): never => {
      throw conflictingTypes(dto, name, types);
    };
    const stocks = (stockProperties ?? {}) as Record<string, Schema>;
    const names = Object.keys(stocks);
    for (let p = 0; p < names.length; p++) {
      name = names[p];
      const stock = stocks[name];
      const fact = facts.get(name);
      // A new object, so what follows may set its keys in place (as a spread would, same order).
      let property = settleTypes(stock, conflict, seen);
      // Under a `@ValidateIf` any value may pass, so the schema promises nothing about it.
      if (fact?.conditional) property = {};
      if (fact?.nullable) property = acceptNull(property);
      if (fact?.title !== undefined) property.title = fact.title;
      if (fact?.description !== undefined) property.description = fact.description;
      if (fact && 'default' in fact) property.default = fact.default;
      properties[name] = property;
      if (fact ? fact.required : Array.isArray(stockRequired) && stockRequired.includes(name)) required.push(name);
    }
    const schema: Schema = {};
    for (let k = 0; k < restKeys.length; k++) defineKey(schema, restKeys[k], stockSchema[restKeys[k]]);
    schema.type = 'object';
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
    if (this.unknownFields === 'reject') schema.additionalProperties = false;
    // Besides the properties, only a class-level `@JSONSchema()` adds keys that could hold a `$ref`.
    if (!seen.ref && restKeys.length === 0) this.refFree.add(dto);
    this.classSchemas.set(dto, schema);
    return schema;
  }
}
