import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import * as cvjs from 'class-validator-jsonschema';
import { DefinitionError } from '@typemcp/protocol';
import { Description } from '../../src/decorators/description.decorator.js';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { compileStrict, expectAgreement, judge, serverCheck } from './agreement.helper.js';

function definitionError(build: () => unknown): DefinitionError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError');
}

describe('descriptions and inheritance', () => {
  class Entity {
    @IsString() @Description('Stable identifier') id!: string;
    @IsOptional() @IsInt() @Description('Revision, if known') version?: number;
  }
  class Note extends Entity {
    @IsString() @Description('Markdown body') body!: string;
  }
  class PinnedNote extends Note {}

  it('puts @Description on the property and merges base-class properties', async () => {
    const schema = new DtoSchemaFactory().forClass(Note);
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        body: { type: 'string', description: 'Markdown body' },
        id: { type: 'string', description: 'Stable identifier' },
        version: { type: 'integer', description: 'Revision, if known' },
      },
      required: ['body', 'id'],
    });
    await expectAgreement(Note, schema, [
      ['valid', { id: 'a', body: 'b' }, true],
      ['base property missing', { body: 'b' }, false],
      ['base property wrong', { id: 1, body: 'b' }, false],
      ['base optional absent', { id: 'a', body: 'b' }, true],
      ['base optional null', { id: 'a', body: 'b', version: null }, false],
    ]);
  });

  it('serves a subclass without decorators of its own from its base class', () => {
    expect(new DtoSchemaFactory().forClass(PinnedNote)).toEqual(new DtoSchemaFactory().forClass(Note));
  });
});

describe('the root schema', () => {
  class Empty {}

  it('is an object with properties even for an empty DTO, and has no $schema', () => {
    expect(new DtoSchemaFactory().forClass(Empty)).toEqual({ type: 'object', additionalProperties: false, properties: {} });
  });

  it('is accepted by both the schema and the validator (forbidUnknownValues is off: inputs are always DTO instances)', async () => {
    expect(await judge(Empty, compileStrict({ type: 'object', additionalProperties: false, properties: {} }), {})).toEqual({ schema: true, server: true });
  });
});

describe('unknown properties', () => {
  class Strict {
    @IsString() rating!: string;
    @IsString() url!: string;
  }

  it('are refused by default, and the schema says so', async () => {
    const schema = new DtoSchemaFactory().forClass(Strict);
    expect(schema.additionalProperties).toBe(false);
    await expectAgreement(Strict, schema, [
      ['known only', { rating: 'a', url: 'u' }, true],
      ['unknown property', { rating: 'a', url: 'u', extra: 1 }, false],
    ]);
  });

  it('are named, with the declared field a slip most likely meant', async () => {
    const result = await serverCheck().input(Strict, { ratting: 'a', url: 'u' });
    expect(result).toEqual({ ok: false, problems: ['`rating` is required', 'unknown field `ratting`; did you mean `rating`?'] });
    const far = await serverCheck().input(Strict, { rating: 'a', url: 'u', colour: 'red' });
    expect(far).toEqual({ ok: false, problems: ['unknown field `colour`; the fields are `rating`, `url`'] });
  });

  it("are dropped before the handler sees them with unknownFields: 'strip', and the schema leaves them open", async () => {
    const options = { unknownFields: 'strip' } as const;
    const schema = new DtoSchemaFactory(options).forClass(Strict);
    expect(schema).not.toHaveProperty('additionalProperties');
    await expectAgreement(Strict, schema, [['unknown property', { rating: 'a', url: 'u', extra: 1 }, true]], options);
    const result = await serverCheck(options).input(Strict, { rating: 'a', url: 'u', extra: 1 });
    expect(result.ok && { ...result.value }).toEqual({ rating: 'a', url: 'u' });
  });
});

describe('caching', () => {
  class Query {
    @IsString() q!: string;
  }
  class Paged {
    @IsInt() @Min(1) page!: number;
  }

  it('converts each DTO on its own, never scanning every class, and returns the same frozen schema', () => {
    const pass = jest.spyOn(cvjs, 'validationMetadatasToSchemas');
    try {
      const factory = new DtoSchemaFactory();
      const first = factory.forClass(Query);
      expect(factory.forClass(Query)).toBe(first);
      factory.forClass(Paged);
      expect(pass).not.toHaveBeenCalled();
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first.properties)).toBe(true);
    } finally {
      pass.mockRestore();
    }
  });

  it('converts a DTO decorated after the first one was converted', () => {
    const factory = new DtoSchemaFactory();
    factory.forClass(Query);
    class Later {
      @IsString() late!: string;
    }
    expect(factory.forClass(Later)).toEqual({ type: 'object', additionalProperties: false, properties: { late: { type: 'string' } }, required: ['late'] });
  });
});

describe('definition errors', () => {
  it('refuses a described property without a validator (TYPEMCP_ERR_UNDECORATED_PROPERTY)', () => {
    class Described {
      @IsString() ok!: string;
      @Description('Forgotten') forgotten!: string;
    }
    const error = definitionError(() => new DtoSchemaFactory().forClass(Described));
    expect(error.code).toBe('TYPEMCP_ERR_UNDECORATED_PROPERTY');
    expect(error.message).toContain('"forgotten" of Described');
    expect(error.message).toContain('@IsString()');
  });

  it('refuses an undecorated field that `new Dto()` shows (an initialiser, or any field under define semantics)', () => {
    class Initialised {
      @IsString() ok!: string;
      size = 3;
    }
    const error = definitionError(() => new DtoSchemaFactory().forClass(Initialised));
    expect(error.code).toBe('TYPEMCP_ERR_UNDECORATED_PROPERTY');
    expect(error.message).toContain('"size" of Initialised has an initial value');
  });

  it('refuses a plain declared field: TS and swc emit class fields with define semantics here, so `new Dto()` shows it', () => {
    class Plain {
      @IsString() ok!: string;
      hidden?: string;
    }
    const error = definitionError(() => new DtoSchemaFactory().forClass(Plain));
    expect(error.code).toBe('TYPEMCP_ERR_UNDECORATED_PROPERTY');
    expect(error.message).toContain('"hidden" of Plain has a class field');
  });

  it('refuses a nested DTO reached through the root when it has an undecorated property', () => {
    class Inner {
      @IsString() fine!: string;
      @Description('Nobody validates me') loose!: string;
    }
    class Outer {
      @ValidateNested() @Type(() => Inner) inner!: Inner;
    }
    expect(definitionError(() => new DtoSchemaFactory().forClass(Outer)).code).toBe('TYPEMCP_ERR_UNDECORATED_PROPERTY');
  });

  it('refuses validators no value can satisfy (TYPEMCP_ERR_CONFLICTING_VALIDATORS)', () => {
    class Impossible {
      @IsString() @Min(1) both!: string;
    }
    const error = definitionError(() => new DtoSchemaFactory().forClass(Impossible));
    expect(error.code).toBe('TYPEMCP_ERR_CONFLICTING_VALIDATORS');
    expect(error.message).toContain('Impossible.both');
  });

  it('refuses @ValidateNested() without @Type() (TYPEMCP_ERR_UNTYPED_NESTED)', () => {
    class Part {
      @IsString() name!: string;
    }
    class Machine {
      @ValidateNested() part!: Part;
    }
    const error = definitionError(() => new DtoSchemaFactory().forClass(Machine));
    expect(error.code).toBe('TYPEMCP_ERR_UNTYPED_NESTED');
    expect(error.message).toContain('@Type(() => TheNestedClass)');
  });
});

describe('classes that share a name', () => {
  // The project's tests declare fresh classes per test, and class-validator's storage is never
  // reset; apps may have an `Input` in two services. Schemas must not merge them.
  const declare = (kind: 'text' | 'number') => {
    class Twin {
      @IsString() shared!: string;
    }
    class Other {
      @IsInt() n!: number;
    }
    if (kind === 'text') {
      class Holder {
        @IsString() text!: string;
      }
      return { Twin, Holder, Other };
    }
    class Holder {
      @IsInt() count!: number;
    }
    return { Twin, Holder, Other };
  };
  const a = declare('text');
  const b = declare('number');
  class Both {
    @ValidateNested() @Type(() => a.Holder) first!: object;
    @ValidateNested() @Type(() => b.Holder) second!: object;
  }

  it('gives each class its own schema', () => {
    const factory = new DtoSchemaFactory();
    expect(factory.forClass(a.Holder).properties).toEqual({ text: { type: 'string' } });
    expect(factory.forClass(b.Holder).properties).toEqual({ count: { type: 'integer' } });
    expect(factory.forClass(b.Twin)).toEqual({ type: 'object', additionalProperties: false, properties: { shared: { type: 'string' } }, required: ['shared'] });
  });

  it('names their definitions apart within one schema', async () => {
    const schema = new DtoSchemaFactory().forClass(Both);
    expect(schema.properties).toEqual({ first: { $ref: '#/$defs/Holder' }, second: { $ref: '#/$defs/Holder_2' } });
    expect(schema.$defs).toEqual({
      Holder: { type: 'object', additionalProperties: false, properties: { text: { type: 'string' } }, required: ['text'] },
      Holder_2: { type: 'object', additionalProperties: false, properties: { count: { type: 'integer' } }, required: ['count'] },
    });
    await expectAgreement(Both, schema, [
      ['valid', { first: { text: 'a' }, second: { count: 1 } }, true],
      ['swapped', { first: { count: 1 }, second: { text: 'a' } }, false],
    ]);
  });
});
