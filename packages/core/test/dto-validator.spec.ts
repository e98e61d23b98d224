import 'reflect-metadata';
import * as classValidator from 'class-validator';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { DtoValidator } from '../src/pipeline/dto-validator';
import { DtoSchemaFactory } from '../src/schema/index';
import { Nullable } from '../src/decorators/nullable.decorator';
import { classTransformer } from '../src/pipeline/validation-libraries';
import { TRANSFORM_OPTIONS } from '../src/pipeline/validation-options';

class Address {
  @IsString() city!: string;
}
class Person {
  @IsString() name!: string;
  @IsInt() @Min(0) age!: number;
  @ValidateNested() @Type(() => Address) address!: Address;
}

const validator = new DtoValidator(new DtoSchemaFactory());
const input = <T>(dto: new () => T, plain: unknown, convert = false) => validator.input(dto, plain, convert);

describe('the input check', () => {
  it('returns an instance synchronously when every constraint is synchronous', () => {
    const result = input(Person, { name: 'Ann', age: 3, address: { city: 'Oslo' } });
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ ok: true, value: expect.any(Person) });
    expect((result as { value: Person }).value.address).toBeInstanceOf(Address);
  });

  it('drops undeclared fields with unknownFields: strip', () => {
    const strip = new DtoValidator(new DtoSchemaFactory({ unknownFields: 'strip' }));
    const result = strip.input(Person, { name: 'Ann', age: 3, address: { city: 'Oslo', zip: 1 }, extra: 1 }) as { value: Person };
    expect(result.value).not.toHaveProperty('extra');
    expect(result.value.address).not.toHaveProperty('zip');
  });

  it('names each fault once, with its path, and only the rule the value breaks', () => {
    expect(input(Person, { name: 1, age: -1, address: { city: 2 } })).toEqual({
      ok: false,
      problems: ['`name` must be a string (got number 1)', '`age` must be at least 0', '`address.city` must be a string (got number 2)'],
    });
    // A string where an integer with a minimum is declared: the type, not the minimum too.
    expect(input(Person, { name: 'a', age: '3', address: { city: 'x' } })).toEqual({ ok: false, problems: ['`age` must be an integer (got string "3")'] });
  });

  it('says a missing field is required (not which rules an absent value breaks)', () => {
    expect(input(Person, { age: 1 })).toEqual({ ok: false, problems: ['`name` is required', '`address` is required'] });
    expect(input(Person, { name: 'a', age: 1, address: {} })).toEqual({ ok: false, problems: ['`address.city` is required'] });
  });

  it('refuses a body that is not an object', () => {
    expect(input(Person, [1])).toEqual({ ok: false, problems: ['the input must be an object (got an array)'] });
  });

  it('converts strings by property type when asked (template variables, prompt arguments)', () => {
    expect(input(Person, { name: 'Bo', age: '7', address: { city: 'Rome' } }, true)).toMatchObject({ ok: true, value: { age: 7 } });
    expect(input(Person, { name: 'Bo', age: '7', address: { city: 'Rome' } })).toMatchObject({ ok: false });
    expect(input(Person, { name: 'Bo', age: '1e2', address: { city: 'Rome' } }, true)).toMatchObject({ ok: true, value: { age: 100 } });
  });

  it.each([' 7', '0x7', '7 ', '', 'Infinity', '07'])('does not read %p as a number (Number() would)', (age) => {
    expect(input(Person, { name: 'Bo', age, address: { city: 'Rome' } }, true)).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^`age` must be an integer/)],
    });
  });

  it('skips class-validator for a DTO its schema states exactly, and runs it where the schema is laxer', () => {
    class Site {
      @IsUrl() url!: string;
    }
    class Code {
      @Matches(/^ab$/i) code!: string;
    }
    // What validateSync() calls, and core calls directly (pipeline/dto-validator.ts, refine).
    const spy = jest.spyOn(classValidator.Validator.prototype, 'validateSync');
    try {
      expect(input(Person, { name: 'Ann', age: 3, address: { city: 'Oslo' } })).toMatchObject({ ok: true });
      expect(spy).not.toHaveBeenCalled();
      expect(input(Site, { url: 'http://localhost:3000' })).toEqual({ ok: false, problems: ['`url` must be a URL address'] });
      expect(input(Code, { code: 'AB' })).toMatchObject({ ok: true });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('switches to asynchronous validation once an async constraint exists, and runs it', async () => {
    @ValidatorConstraint({ name: 'notTaken', async: true })
    class NotTaken implements ValidatorConstraintInterface {
      async validate(value: string) {
        await new Promise((r) => setTimeout(r, 1));
        return value !== 'taken';
      }
      defaultMessage() {
        return 'username is taken';
      }
    }
    class Signup {
      @IsString() @Validate(NotTaken) username!: string;
    }
    const pending = input(Signup, { username: 'taken' });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ ok: false, problems: ['`username` is taken'] });
    expect(await input(Signup, { username: 'free' })).toMatchObject({ ok: true });
  });
});

describe('instances of DTOs whose fields are JSON scalars', () => {
  class Base {
    @IsString() name!: string;
  }
  class Flat extends Base {
    @IsInt() @Min(0) count = 5;
    @IsOptional() @IsBoolean() flag?: boolean;
    @IsOptional() @Nullable() @IsString() note?: string | null = 'none';
    @IsOptional() @IsString() get label(): string {
      return `label of ${this.name}`;
    }
    describe(): string {
      return this.name;
    }
  }
  class Trimmed {
    @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)) @IsString() name!: string;
  }
  class TrimmedChild extends Trimmed {
    @IsInt() n!: number;
  }
  class Renamed {
    @Expose({ name: 'full_name' }) @IsString() fullName!: string;
  }

  const cases: [string, new () => object, Record<string, unknown>][] = [
    ['all fields given', Flat, { flag: true, name: 'Ann', count: 2, note: 'n' }],
    ['defaults kept for absent fields', Flat, { name: 'Ann' }],
    ['null', Flat, { name: 'Ann', note: null }],
    ['a getter named by the input', Flat, { name: 'Ann', label: 'x' }],
    ['a @Transform', Trimmed, { name: '  Ann ' }],
    ['a @Transform on an ancestor', TrimmedChild, { name: ' Bo ', n: 1 }],
    ['an @Expose name', Renamed, { full_name: 'Ann Lee' }],
    ['a nested value', Person, { name: 'Ann', age: 3, address: { city: 'Oslo' } }],
  ];

  // (Asynchronous where class-validator runs: an async constraint exists since the test above.)
  it.each(cases)('are what plainToInstance makes (%s)', async (_case, dto, plain) => {
    const result = await input(dto, structuredClone(plain));
    expect(result).toMatchObject({ ok: true });
    const value = (result as { value: object }).value;
    const expected = plainToInstance(dto, structuredClone(plain), TRANSFORM_OPTIONS);
    expect(Object.getPrototypeOf(value)).toBe(dto.prototype);
    expect(Object.entries(value)).toEqual(Object.entries(expected));
  });

  it('are made without class-transformer when no field needs it', async () => {
    const spy = jest.spyOn(classTransformer(), 'plainToInstance');
    try {
      expect(input(Flat, { name: 'Ann', count: 1, note: null })).toMatchObject({ ok: true, value: { name: 'Ann', count: 1, note: null } });
      expect(spy).not.toHaveBeenCalled();
      expect(await input(Trimmed, { name: ' Ann ' })).toMatchObject({ ok: true, value: { name: 'Ann' } });
      expect(await input(Person, { name: 'Ann', age: 3, address: { city: 'Oslo' } })).toMatchObject({ ok: true });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});
