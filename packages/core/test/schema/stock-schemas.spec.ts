/**
 * StockSchemas converts one class at a time with class-validator-jsonschema's converters, in
 * place of the library's whole-storage entry points (quadratic in the number of DTOs). This holds
 * its output to the library's own `targetConstructorToSchema` over DTOs that use every feature
 * the conversion reads: inheritance (with redeclared and same-named ancestors), nested DTOs,
 * `each`, Maps, `@Expose({ name })`, `@Exclude()`, `@JSONSchema()` on classes and properties,
 * custom constraints, conditions and numeric property names.
 */
import 'reflect-metadata';
import { Exclude, Expose, Type } from 'class-transformer';
import {
  Allow,
  Equals,
  IsEmpty,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { JSONSchema, targetConstructorToSchema } from 'class-validator-jsonschema';
import { classTransformerStorage } from '../../src/schema/class-transformer-storage.js';
import { buildConverters } from '../../src/schema/schema-converters.js';
import { DEFS_PREFIX, DtoRefs } from '../../src/schema/schema-refs.js';
import { StockSchemas } from '../../src/schema/stock-schemas.js';
import { validationMetadataOf } from '../../src/schema/validator-metadata.js';
import { getMetadataStorage as getValidatorStorage } from 'class-validator';

@ValidatorConstraint({ name: 'isEven' })
class IsEven implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
}
enum Colour {
  Red = 'red',
  Blue = 'blue',
}

class Leaf {
  @IsString() name!: string;
}
class Base {
  @IsString() id!: string;
  @IsOptional() @IsInt() @Min(0) version?: number;
  @IsString() @MaxLength(10) redeclared!: string;
}
@JSONSchema({ description: 'a derived DTO' })
class Derived extends Base {
  @IsString() @MaxLength(3) override redeclared = 'abc';
  @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
  @ValidateNested({ each: true }) @Type(() => Leaf) leaves!: Leaf[];
  @IsString({ each: true }) tags!: string[];
  @IsString({ each: true }) @Type(() => Map) labels!: Map<string, string>;
  @Expose({ name: 'renamed' }) @IsString() original!: string;
  @Exclude() @IsString() hidden!: string;
  @JSONSchema({ format: 'email', examples: ['a@b.c'] }) @IsString() email!: string;
  @JSONSchema((schema: object) => ({ ...schema, title: 'from a function' })) @IsString() computed!: string;
  @Validate(IsEven) even!: number;
  @ValidateIf((o: { id?: string }) => o.id !== undefined) @IsString() conditional?: string;
  @IsEmpty() empty?: string;
  @IsEnum(Colour) colour!: Colour;
  @IsIn([1, 'two']) mixed!: number | string;
  @Matches(/^a+$/i) caseless!: string;
  @Equals(3) three!: number;
  @Allow() anything!: unknown;
  @IsString() ['2']!: string;
  @IsString() ['1']!: string;
}
class Inherits extends Derived {}
class Untouched {
  plain?: string;
}
// A base class of the same name as its subclass (two modules each exporting `Input`).
const SameNameBase = { Input: class {} }.Input;
IsString()(SameNameBase.prototype, 'fromBase');
class Input extends SameNameBase {
  @IsInt() own!: number;
}

function libraryOptions() {
  return {
    classValidatorMetadataStorage: getValidatorStorage(),
    classTransformerMetadataStorage: classTransformerStorage as never,
    refPointerPrefix: DEFS_PREFIX,
    additionalConverters: buildConverters({ refOf: (t) => refs.idOf(t), untyped: () => undefined }, DEFS_PREFIX),
  };
}
let refs = new DtoRefs();

describe('StockSchemas', () => {
  it.each([Leaf, Base, Derived, Inherits, Untouched, Input, SameNameBase])('converts %p as targetConstructorToSchema does', (dto) => {
    refs = new DtoRefs();
    const expected = targetConstructorToSchema(dto, libraryOptions());
    const ours = new StockSchemas(new DtoRefs()).of(dto);
    expect(ours).toEqual(expected);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(expected)); // the same key order too
  });

  it('finds the records class-validator finds, in its order, without scanning every class', () => {
    for (const dto of [Leaf, Base, Derived, Inherits, Untouched, Input]) {
      expect(validationMetadataOf(dto)).toEqual(getValidatorStorage().getTargetValidationMetadatas(dto, '', true, false));
    }
  });

  it('reports a nested property without @Type on the class or a base class', () => {
    class Holder {
      @ValidateNested() leaf!: Leaf;
    }
    class Child extends Holder {}
    const stock = new StockSchemas(new DtoRefs());
    stock.of(Child);
    expect(stock.untypedPropertyOf(Child)).toBe('leaf');
    expect(stock.untypedPropertyOf(Leaf)).toBeUndefined();
  });
});
