/**
 * StockSchemas takes a shorter path for a class whose records are all its own (no validated base
 * class): no ancestor records to add, and @Exclude/@Expose looked up for that one class only.
 * These DTOs use every feature on that path, held to class-validator-jsonschema's own
 * `targetConstructorToSchema` like the DTOs of stock-schemas.spec.ts; and DtoSchemaFactory's
 * finished schemas for them (where `$ref`s are looked for only when a class may hold one).
 */
import 'reflect-metadata';
import { Exclude, Expose, Type } from 'class-transformer';
import { getMetadataStorage as getValidatorStorage, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { JSONSchema, targetConstructorToSchema } from 'class-validator-jsonschema';
import { classTransformerStorage } from '../../src/schema/class-transformer-storage.js';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { buildConverters } from '../../src/schema/schema-converters.js';
import { DEFS_PREFIX, DtoRefs } from '../../src/schema/schema-refs.js';
import { StockSchemas } from '../../src/schema/stock-schemas.js';

class Point {
  @IsInt() x!: number;
}

/** Only its own records: renamed, excluded, Map-typed, `each`, per-validator `validateIf`. */
class OwnOnly {
  @Expose({ name: 'renamed' }) @IsString() original!: string;
  @Exclude() @IsString() hidden!: string;
  @IsString({ each: true }) @Type(() => Map) labels!: Map<string, string>;
  @IsInt({ each: true }) @Min(0, { each: true }) counts!: number[];
  @IsOptional() @IsInt() @Min(1) @Max(5) rating?: number;
  @IsInt() @Min(0, { validateIf: (o: { rating?: number }) => o.rating !== undefined }) guarded!: number;
  @ValidateNested() @Type(() => Point) point!: Point;
}

/** A class-level @JSONSchema adding keys next to the properties. */
@JSONSchema({ examples: [{ name: 'a' }], description: 'class-level' })
class WithClassExtras {
  @IsString() name!: string;
}

/** Renames to a name another property has, so the rename is looked up once per record. */
class RenamedOnto {
  @Expose({ name: 'b' }) @IsString() a!: string;
  @Expose({ name: 'c' }) @IsInt() b!: number;
}

function libraryOptions(refs: DtoRefs) {
  return {
    classValidatorMetadataStorage: getValidatorStorage(),
    classTransformerMetadataStorage: classTransformerStorage as never,
    refPointerPrefix: DEFS_PREFIX,
    additionalConverters: buildConverters({ refOf: (t) => refs.idOf(t), untyped: () => undefined }, DEFS_PREFIX),
  };
}

describe('StockSchemas, a class with only its own records', () => {
  it.each([OwnOnly, WithClassExtras, RenamedOnto, Point])('converts %p as targetConstructorToSchema does', (dto) => {
    const expected = targetConstructorToSchema(dto, libraryOptions(new DtoRefs()));
    const ours = new StockSchemas(new DtoRefs()).of(dto);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(expected)); // values and key order
  });
});

describe('DtoSchemaFactory, classes with and without $refs', () => {
  it('keeps a nested DTO as a definition, and a class-level extra as it is', () => {
    const factory = new DtoSchemaFactory();
    const own = factory.forClass(OwnOnly);
    expect(own.properties).toMatchObject({ point: { $ref: '#/$defs/Point' }, renamed: { type: 'string' } });
    expect(own.$defs).toEqual({ Point: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'], additionalProperties: false } });
    expect(Object.keys(own.properties as object)).not.toContain('hidden');
    expect(Object.isFrozen((own.properties as Record<string, object>).point)).toBe(true);

    const extras = factory.forClass(WithClassExtras);
    expect(Object.keys(extras)).toEqual(['examples', 'description', 'type', 'properties', 'required', 'additionalProperties']);
    expect(extras.description).toBe('class-level');
  });

  it('gives a class without $refs no definitions, frozen all through', () => {
    const schema = new DtoSchemaFactory().forClass(Point);
    expect(JSON.stringify(schema)).toBe('{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}');
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.required)).toBe(true);
    expect(Object.isFrozen((schema.properties as Record<string, object>).x)).toBe(true);
  });
});
