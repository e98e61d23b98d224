import 'reflect-metadata';
import { Type } from 'class-transformer';
import { Allow, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { compileStrict, expectAgreement, judge, KNOWN_GAPS } from './agreement.helper.js';

class Geo {
  @IsInt() lat!: number;
}

class Search {
  @IsString() query!: string;
  @IsOptional() @IsString() cursor?: string;
  @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number;
  @IsOptional() @ValidateNested() @Type(() => Geo) near?: Geo;
  @IsOptional() note?: unknown;
  @Allow() free?: unknown;
  @IsDefined() present!: unknown;
}

describe('@IsOptional() accepts null as well as absence', () => {
  const schema = new DtoSchemaFactory().forClass(Search);

  it('widens the type, or wraps in anyOf when the schema is a $ref, and leaves the field out of required', () => {
    expect(schema.properties).toEqual({
      query: { type: 'string' },
      cursor: { type: ['string', 'null'] },
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 50 },
      near: { anyOf: [{ $ref: '#/$defs/Geo' }, { type: 'null' }] },
      note: {},
      free: {},
      present: { not: { type: 'null' } },
    });
    expect(schema.required).toEqual(['query', 'present']);
  });

  it('agrees with class-validator', async () => {
    const base = { query: 'q', present: 0 };
    await expectAgreement(Search, schema, [
      ['only required', base, true],
      ['everything', { ...base, cursor: 'c', limit: 5, near: { lat: 1 }, note: [1], free: 'x' }, true],
      ['null on optional string', { ...base, cursor: null }, true],
      ['null on optional number', { ...base, limit: null }, true],
      ['null on optional nested', { ...base, near: null }, true],
      ['null on required', { ...base, query: null }, false],
      ['missing required', { present: 1 }, false],
      ['optional wrong type', { ...base, cursor: 3 }, false],
      ['optional out of range', { ...base, limit: 51 }, false],
      ['optional nested invalid', { ...base, near: { lat: 'n' } }, false],
      ['IsDefined null', { ...base, present: null }, false],
      ['IsDefined missing', { query: 'q' }, false],
    ]);
  });
});

describe('@ValidateIf and the per-validator validateIf option (class-validator 0.15)', () => {
  class Shipping {
    @IsIn(['pickup', 'post']) method!: string;
    @ValidateIf((o: Shipping) => o.method === 'post') @IsString() street?: string;
    @IsString({ validateIf: (o: Shipping) => o.method === 'post' }) zip?: string;
    @MinLength(3, { validateIf: (o: Shipping) => o.method === 'post' }) @IsString() ref!: string;
  }
  const schema = new DtoSchemaFactory().forClass(Shipping);

  it('makes the field optional without admitting null (the condition decides null)', () => {
    expect(schema.properties).toMatchObject({ street: { type: 'string' }, zip: { type: 'string' }, ref: { type: 'string', minLength: 3 } });
    // `ref` keeps an unconditional validator, which still refuses absence.
    expect(schema.required).toEqual(['method', 'ref']);
  });

  it('agrees with class-validator where the condition holds', async () => {
    await expectAgreement(Shipping, schema, [
      ['post with address', { method: 'post', street: 's', zip: 'z', ref: 'abc' }, true],
      ['pickup without address', { method: 'pickup', ref: 'abc' }, true],
      ['post with wrong street type', { method: 'post', street: 1, zip: 'z', ref: 'abc' }, false],
      ['post with wrong zip type', { method: 'post', street: 's', zip: 1, ref: 'abc' }, false],
      ['post with short ref', { method: 'post', street: 's', zip: 'z', ref: 'ab' }, false],
      ['unconditional validator still runs', { method: 'pickup', ref: 1 }, false],
      ['missing unconditional field', { method: 'pickup' }, false],
    ]);
  });

  it('KNOWN GAP CONDITION_FALSE_ACCEPTS_ANYTHING: a false condition lets any value through', async () => {
    const check = compileStrict(schema);
    expect(await judge(Shipping, check, { method: 'pickup', street: 42, ref: 'abc' })).toEqual(KNOWN_GAPS.CONDITION_FALSE_ACCEPTS_ANYTHING);
    expect(await judge(Shipping, check, { method: 'pickup', zip: 42, ref: 'abc' })).toEqual(KNOWN_GAPS.CONDITION_FALSE_ACCEPTS_ANYTHING);
    expect(await judge(Shipping, check, { method: 'pickup', ref: 'ab' })).toEqual(KNOWN_GAPS.CONDITION_FALSE_ACCEPTS_ANYTHING);
  });
});

describe('property initialisers are defaults', () => {
  class Page {
    @IsOptional() @IsInt() @Min(1) limit?: number = 10;
    @IsInt() offset: number = 0;
    @IsString({ each: true }) fields: string[] = ['id'];
    @IsOptional() @IsString() sort?: string;
    @IsOptional() @IsString() title?: string = undefined;
  }
  const schema = new DtoSchemaFactory().forClass(Page);

  it('becomes `default`, and a defaulted field is not required (the transform fills it in)', () => {
    expect(schema.properties).toEqual({
      limit: { type: ['integer', 'null'], minimum: 1, default: 10 },
      offset: { type: 'integer', default: 0 },
      fields: { type: 'array', items: { type: 'string' }, default: ['id'] },
      sort: { type: ['string', 'null'] },
      title: { type: ['string', 'null'] },
    });
    expect(schema).not.toHaveProperty('required');
  });

  it('agrees with class-validator', async () => {
    await expectAgreement(Page, schema, [
      ['empty: every default applies', {}, true],
      ['explicit values', { limit: 5, offset: 10, fields: ['a', 'b'] }, true],
      ['null on a defaulted required-looking field', { offset: null }, false],
      ['wrong type on a defaulted field', { offset: 'x' }, false],
      ['out of range on a defaulted optional field', { limit: 0 }, false],
      ['null on a defaulted optional field', { limit: null }, true],
    ]);
  });

  it('keeps a DTO whose constructor needs arguments (no defaults then)', () => {
    class Needy {
      @IsString() name: string;
      constructor(init: { name: string }) {
        this.name = init.name;
      }
    }
    expect(new DtoSchemaFactory().forClass(Needy)).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
  });
});
