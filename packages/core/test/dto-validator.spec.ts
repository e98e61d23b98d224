import 'reflect-metadata';
import * as classValidator from 'class-validator';
import { IsInt, IsString, IsUrl, Matches, Min, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { Type } from 'class-transformer';
import { DtoValidator } from '../src/pipeline/dto-validator';
import { DtoSchemaFactory } from '../src/schema/index';

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
    const spy = jest.spyOn(classValidator, 'validateSync');
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
