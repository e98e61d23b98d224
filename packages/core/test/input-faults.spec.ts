/**
 * One message per fault where the published schema offers alternatives (a nullable field's
 * `anyOf` with null, `@IsIP()`'s two formats), `@IsDate()` (what it publishes, what it accepts, and
 * the definition error without `@Type(() => Date)`), and numbers JSON cannot hold (`1e400` parses
 * to Infinity), refused with the field named wherever the DTO puts them.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { Allow, IsArray, IsDate, IsInt, IsIP, IsNumber, IsOptional, IsString, MinLength, ValidateNested } from 'class-validator';
import { DefinitionError } from '@typemcp/protocol';
import { Nullable } from '../src/decorators/nullable.decorator';
import { DtoValidator } from '../src/pipeline/dto-validator';
import { openToNonFinite } from '../src/pipeline/finite-numbers';
import { DtoSchemaFactory } from '../src/schema/index';
import { CoreErrorCode } from '../src/errors';

const validator = new DtoValidator(new DtoSchemaFactory());
const input = (dto: new () => object, plain: unknown, convert = false) => validator.input(dto, plain, convert);

class Person {
  @IsString() @MinLength(1) name!: string;
}

class Task {
  @Nullable() @ValidateNested() @Type(() => Person) assignee!: Person | null;
  @IsOptional() @Nullable() @IsString() @MinLength(2) note?: string | null;
  @IsOptional() @IsIP() ip?: string;
  @IsOptional() @Nullable() @IsIP() maybeIp?: string | null;
}

describe('one message per fault', () => {
  it('a nullable nested DTO reports the nested fault, not also "matches none of the allowed forms"', () => {
    expect(input(Task, { assignee: { name: '' } })).toEqual({ ok: false, problems: ['`assignee.name` must be at least 1 character long'] });
    expect(input(Task, { assignee: 'Ann' })).toEqual({ ok: false, problems: ['`assignee` must be an object (got string "Ann")'] });
    expect(input(Task, { assignee: null })).toMatchObject({ ok: true });
  });

  it('a nullable scalar reports the rule it breaks', () => {
    expect(input(Task, { assignee: null, note: 'a' })).toEqual({ ok: false, problems: ['`note` must be at least 2 characters long'] });
    expect(input(Task, { assignee: null, note: 5 })).toEqual({ ok: false, problems: ['`note` must be a string (got number 5)'] });
  });

  it('alternatives that differ only in format are one message naming them all', () => {
    expect(input(Task, { assignee: null, ip: '300.1.1.1' })).toEqual({ ok: false, problems: ['`ip` must be a valid ipv4 or ipv6 (got string "300.1.1.1")'] });
    expect(input(Task, { assignee: null, maybeIp: 'localhost' })).toEqual({
      ok: false,
      problems: ['`maybeIp` must be a valid ipv4 or ipv6 (got string "localhost")'],
    });
    expect(input(Task, { assignee: null, ip: '::1', maybeIp: null })).toMatchObject({ ok: true });
  });
});

describe('@IsDate() on a Date field', () => {
  class Meeting {
    @IsDate() @Type(() => Date) at!: Date;
    @IsOptional() @IsDate({ each: true }) @Type(() => Date) also?: Date[];
  }

  it('publishes an ISO 8601 date-time string, the form a Date is sent in', () => {
    expect(new DtoSchemaFactory().forClass(Meeting).properties).toEqual({
      at: { type: 'string', format: 'date-time' },
      also: { type: 'array', items: { type: 'string', format: 'date-time' } },
    });
  });

  it('accepts a date-time with an offset and hands the method a Date', () => {
    const result = input(Meeting, { at: '2024-05-01T10:20:30+02:00', also: ['2024-05-02T00:00:00Z'] }) as { ok: true; value: Meeting };
    expect(result.ok).toBe(true);
    expect(result.value.at).toEqual(new Date('2024-05-01T08:20:30Z'));
    expect(result.value.also).toEqual([new Date('2024-05-02T00:00:00Z')]);
  });

  it('refuses anything else with one message', () => {
    expect(input(Meeting, { at: 'nope' })).toEqual({ ok: false, problems: ['`at` must be a valid date-time (got string "nope")'] });
    expect(input(Meeting, { at: '2024-05-01' })).toEqual({ ok: false, problems: ['`at` must be a valid date-time (got string "2024-05-01")'] });
    expect(input(Meeting, { at: 1714550430000 })).toEqual({ ok: false, problems: ['`at` must be a string (got number 1714550430000)'] });
  });

  it('without @Type(() => Date) is a definition error: the string would never become a Date', () => {
    class Untyped {
      @IsDate() at!: Date;
    }
    const build = () => new DtoSchemaFactory().forClass(Untyped);
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow(expect.objectContaining({ code: CoreErrorCode.UntypedDate }));
    expect(build).toThrow('Untyped.at has @IsDate() but no @Type(() => Date)');
  });
});

describe('numbers JSON cannot hold', () => {
  class Add {
    @IsNumber() a!: number;
    @IsInt() b!: number;
  }
  class Open {
    @Allow() anything?: unknown;
    @IsOptional() @IsArray() list?: unknown[];
    @IsOptional() @ValidateNested() @Type(() => Open) child?: Open;
  }
  // What JSON.parse makes of `1e400` and `-1e400`.
  const big = JSON.parse('1e400') as number;

  it('are refused where a number is declared, with the field named', () => {
    expect(input(Add, { a: big, b: 1 })).toEqual({ ok: false, problems: ['`a` must be a finite number (got Infinity)'] });
    expect(input(Add, { a: 1, b: -big })).toEqual({ ok: false, problems: ['`b` must be a finite number (got -Infinity)'] });
  });

  it('are refused where the schema takes any value, at any depth', () => {
    expect(input(Open, { anything: big })).toEqual({ ok: false, problems: ['`anything` must be a finite number (got Infinity)'] });
    expect(input(Open, { list: [1, { x: -big }] })).toEqual({ ok: false, problems: ['`list[1].x` must be a finite number (got -Infinity)'] });
    expect(input(Open, { child: { anything: [big] } })).toEqual({ ok: false, problems: ['`child.anything[0]` must be a finite number (got Infinity)'] });
    expect(input(Open, { anything: { deep: [1.5e308] }, list: ['x'] })).toMatchObject({ ok: true });
  });

  it('are refused in string arguments converted by type (template variables, prompt arguments)', () => {
    expect(input(Add, { a: '1e400', b: '1' }, true)).toEqual({ ok: false, problems: ['`a` must be a finite number (got Infinity)'] });
  });
});

describe('the cost of the finite check', () => {
  it('is a walk of the input only for DTOs with a position open to any value', () => {
    class Add {
      @IsNumber() a!: number;
    }
    class Free {
      @Allow() anything?: unknown;
    }
    const open = (dto: new () => object) => openToNonFinite(new DtoSchemaFactory().forClass(dto));
    expect([open(Add), open(Task), open(Person)]).toEqual([false, false, false]);
    expect(open(Free)).toBe(true);
  });
});
