import 'reflect-metadata';
import { IsInt, IsString, Min, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { Type } from 'class-transformer';
import { toDto } from '../src/pipeline/argument-pipeline';

class Address {
  @IsString() city!: string;
}
class Person {
  @IsString() name!: string;
  @IsInt() @Min(0) age!: number;
  @ValidateNested() @Type(() => Address) address!: Address;
}

describe('argument pipeline', () => {
  it('returns an instance synchronously when every constraint is synchronous', () => {
    const result = toDto(Person, { name: 'Ann', age: 3, address: { city: 'Oslo' }, extra: 1 });
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ ok: true, value: expect.any(Person) });
    const value = (result as { value: Person }).value;
    expect(value.address).toBeInstanceOf(Address);
    expect(value).not.toHaveProperty('extra');
  });

  it('names each failing field with its path and constraint', () => {
    expect(toDto(Person, { name: 1, age: -1, address: { city: 2 } })).toEqual({
      ok: false,
      problems: ['name must be a string', 'age must not be less than 0', 'address.city must be a string'],
    });
  });

  it('converts strings by property type when asked (template variables, prompt arguments)', () => {
    expect(toDto(Person, { name: 'Bo', age: '7', address: { city: 'Rome' } }, true)).toMatchObject({ ok: true, value: { age: 7 } });
    expect(toDto(Person, { name: 'Bo', age: '7', address: { city: 'Rome' } })).toMatchObject({ ok: false });
    expect(toDto(Person, { name: 'Bo', age: '1e2', address: { city: 'Rome' } }, true)).toMatchObject({ ok: true, value: { age: 100 } });
  });

  it.each([' 7', '0x7', '7 ', '', 'Infinity', '07'])('does not read %p as a number (Number() would)', (age) => {
    expect(toDto(Person, { name: 'Bo', age, address: { city: 'Rome' } }, true)).toEqual({ ok: false, problems: expect.arrayContaining([expect.stringMatching(/^age /)]) });
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
    const pending = toDto(Signup, { username: 'taken' });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ ok: false, problems: ['username is taken'] });
    expect(await toDto(Signup, { username: 'free' })).toMatchObject({ ok: true });
  });
});
