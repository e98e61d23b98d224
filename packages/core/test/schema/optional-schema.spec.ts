import 'reflect-metadata';
import { Type } from 'class-transformer';
import { Allow, IsDefined, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { Description } from '../../src/decorators/description.decorator.js';
import { Nullable } from '../../src/decorators/nullable.decorator.js';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { compileStrict, expectAgreement, judge, REFINEMENTS, serverCheck } from './agreement.helper.js';

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

describe('@IsOptional() means "may be absent", not null', () => {
  const schema = new DtoSchemaFactory().forClass(Search);

  it('keeps one type (clients such as the Inspector handle nothing else well) and leaves the field out of required', () => {
    expect(schema.properties).toEqual({
      query: { type: 'string' },
      cursor: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      near: { $ref: '#/$defs/Geo' },
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
      ['null on optional string', { ...base, cursor: null }, false],
      ['null on optional number', { ...base, limit: null }, false],
      ['null on optional nested', { ...base, near: null }, false],
      ['null on an untyped optional field', { ...base, note: null }, true],
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

  it('leaves a conditional field open and out of required (the condition decides), and publishes only unconditional rules', () => {
    expect(schema.properties).toMatchObject({ street: {}, zip: {}, ref: { type: 'string' } });
    // `ref` keeps an unconditional validator, which still refuses absence.
    expect(schema.required).toEqual(['method', 'ref']);
  });

  it('agrees with the server on what the schema can say', async () => {
    await expectAgreement(Shipping, schema, [
      ['post with address', { method: 'post', street: 's', zip: 'z', ref: 'abc' }, true],
      ['pickup without address', { method: 'pickup', ref: 'abc' }, true],
      ['unconditional validator still runs', { method: 'pickup', ref: 1 }, false],
      ['missing unconditional field', { method: 'pickup' }, false],
    ]);
  });

  it('accepts any value where the condition is false, as class-validator does (closed gap: the schema is open there)', async () => {
    await expectAgreement(Shipping, schema, [
      ['pickup with a numeric street', { method: 'pickup', street: 42, ref: 'abc' }, true],
      ['pickup with a numeric zip', { method: 'pickup', zip: 42, ref: 'abc' }, true],
      ['pickup with a short ref', { method: 'pickup', ref: 'ab' }, true],
    ]);
  });

  it('REFINEMENT CONDITION_TRUE_VALIDATES: where the condition holds, class-validator refuses what the open schema takes', async () => {
    const check = compileStrict(schema);
    expect(await judge(Shipping, check, { method: 'post', street: 42, zip: 'z', ref: 'abc' })).toEqual(REFINEMENTS.CONDITION_TRUE_VALIDATES);
    expect(await judge(Shipping, check, { method: 'post', street: 's', zip: 1, ref: 'abc' })).toEqual(REFINEMENTS.CONDITION_TRUE_VALIDATES);
    expect(await judge(Shipping, check, { method: 'post', street: 's', zip: 'z', ref: 'ab' })).toEqual(REFINEMENTS.CONDITION_TRUE_VALIDATES);
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
      limit: { type: 'integer', minimum: 1, default: 10 },
      offset: { type: 'integer', default: 0 },
      fields: { type: 'array', items: { type: 'string' }, default: ['id'] },
      sort: { type: 'string' },
      title: { type: 'string' },
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
      ['null on a defaulted optional field', { limit: null }, false],
    ]);
  });

  it('gives an absent field its default, and refuses null instead of letting it skip the default', async () => {
    const absent = await serverCheck().input(Page, {});
    expect(absent).toEqual({ ok: true, value: expect.objectContaining({ limit: 10, offset: 0, fields: ['id'] }) });
    const nulled = await serverCheck().input(Page, { limit: null });
    expect(nulled).toEqual({ ok: false, problems: ['`limit` must be an integer (got null)'] });
  });

  it('keeps a DTO whose constructor needs arguments (no defaults then)', () => {
    class Needy {
      @IsString() name: string;
      constructor(init: { name: string }) {
        this.name = init.name;
      }
    }
    expect(new DtoSchemaFactory().forClass(Needy)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
  });
});

describe('@Nullable() is how a DTO admits null', () => {
  class Geo2 {
    @IsInt() lat!: number;
  }
  class Patch {
    @Nullable() @IsString() name!: string | null;
    @IsOptional() @Nullable() @IsInt() @Min(0) age?: number | null;
    @IsOptional() @Nullable() @ValidateNested() @Type(() => Geo2) at?: Geo2 | null;
    @IsOptional() @IsString() nick?: string;
    @IsOptional() @Nullable() @IsIn(['a', 'b']) @Description('A letter') letter?: string | null = 'a';
  }
  const schema = new DtoSchemaFactory().forClass(Patch);

  it('publishes one form for scalars and DTOs: anyOf the constrained schema and null, annotations on the wrapper', () => {
    expect(schema.properties).toEqual({
      name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      age: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
      at: { anyOf: [{ $ref: '#/$defs/Geo2' }, { type: 'null' }] },
      nick: { type: 'string' },
      letter: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }], description: 'A letter', default: 'a' },
    });
    expect(schema.required).toEqual(['name']);
  });

  it('has no type array anywhere (the Inspector --strict flags them, single-type dialects refuse them)', () => {
    expect(JSON.stringify(schema)).not.toMatch(/"type":\[/);
  });

  it('agrees with the server', async () => {
    await expectAgreement(Patch, schema, [
      ['null where nullable', { name: null, age: null, at: null, letter: null }, true],
      ['values', { name: 'a', age: 3, at: { lat: 1 }, letter: 'b' }, true],
      ['nullable but required: absent', {}, false],
      ['nullable, still checked when not null', { name: 'a', age: -1 }, false],
      ['nullable nested still checked', { name: 'a', at: { lat: 'x' } }, false],
      ['nullable enum still checked', { name: 'a', letter: 'c' }, false],
      ['null where only optional', { name: 'a', nick: null }, false],
    ]);
  });
});
