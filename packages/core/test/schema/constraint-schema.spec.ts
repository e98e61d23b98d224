import 'reflect-metadata';
import {
  IsBase64,
  IsEmpty,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsInt,
  IsIP,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { compileStrict, expectAgreement, judge, REFINEMENTS } from './agreement.helper.js';

class Person {
  @IsString() @Length(2, 20) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
  @IsNumber() @Min(0.5) weight!: number;
  @IsPositive() @IsInt() children!: number; // @IsPositive's `number` merged after @IsInt's `integer`
  @Min(1) @IsInt() rank!: number;
  @IsPositive() score!: number;
  @MinLength(3) @IsString() nick!: string;
  @MaxLength(4) code!: string;
  @Matches(/^[A-Z]{2}-\d+$/) ticket!: string;
  @Matches('^x+$') xs!: string;
  @IsBoolean() active!: boolean;
}

const person = {
  name: 'Ada',
  age: 36,
  weight: 60.5,
  children: 2,
  rank: 1,
  score: 0.1,
  nick: 'ada',
  code: 'AB',
  ticket: 'AB-12',
  xs: 'xxx',
  active: true,
};

describe('numbers, strings, patterns, booleans', () => {
  const schema = new DtoSchemaFactory().forClass(Person);

  it('maps each validator to its keyword, and integer wins over number whatever the decorator order', () => {
    expect(schema.properties).toEqual({
      name: { type: 'string', minLength: 2, maxLength: 20 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      weight: { type: 'number', minimum: 0.5 },
      children: { type: 'integer', exclusiveMinimum: 0 },
      rank: { type: 'integer', minimum: 1 },
      score: { type: 'number', exclusiveMinimum: 0 },
      nick: { type: 'string', minLength: 3 },
      code: { type: 'string', maxLength: 4 },
      ticket: { type: 'string', pattern: '^[A-Z]{2}-\\d+$' },
      xs: { type: 'string', pattern: '^x+$' },
      active: { type: 'boolean' },
    });
    expect(schema.required).toEqual(Object.keys(person));
  });

  it('agrees with class-validator', async () => {
    await expectAgreement(Person, schema, [
      ['valid', person, true],
      ['boundaries', { ...person, age: 0, weight: 0.5, name: 'Al', code: 'ABCD' }, true],
      ['string too short', { ...person, name: 'A' }, false],
      ['string too long', { ...person, name: 'A'.repeat(21) }, false],
      ['integer given a fraction', { ...person, age: 1.5 }, false],
      ['integer given a numeric string', { ...person, age: '36' }, false],
      ['below minimum', { ...person, age: -1 }, false],
      ['above maximum', { ...person, age: 151 }, false],
      ['number below fractional minimum', { ...person, weight: 0.4 }, false],
      ['number given a string', { ...person, weight: '60' }, false],
      ['positive integer zero', { ...person, children: 0 }, false],
      ['positive integer fraction (order independent)', { ...person, children: 1.5 }, false],
      ['min-then-int fraction', { ...person, rank: 1.5 }, false],
      ['positive zero', { ...person, score: 0 }, false],
      ['positive given a string', { ...person, score: '1' }, false],
      ['min length', { ...person, nick: 'ad' }, false],
      ['max length alone still needs a string', { ...person, code: 12 }, false],
      ['max length', { ...person, code: 'ABCDE' }, false],
      ['pattern mismatch', { ...person, ticket: 'ab-12' }, false],
      ['pattern given a number', { ...person, ticket: 12 }, false],
      ['string pattern mismatch', { ...person, xs: 'xy' }, false],
      ['boolean given a string', { ...person, active: 'true' }, false],
      ['boolean given 1', { ...person, active: 1 }, false],
      ['missing', { ...person, active: undefined }, false],
      ['null', { ...person, name: null }, false],
    ]);
  });
});

class Contact {
  @IsEmail() email!: string;
  @IsUrl() site!: string;
  @IsUUID() id!: string;
  @IsISO8601() at!: string;
  @IsDateString() on!: string;
  @IsIP() ip!: string;
  @IsIP('4') ip4!: string;
  @IsNotEmpty() label!: unknown;
  @IsBase64() blob!: string;
}

const contact = {
  email: 'ada@example.com',
  site: 'https://example.com/a?b=c',
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  at: '2024-05-01T10:20:30Z',
  on: '2024-05-01T10:20:30.123+02:00',
  ip: '::1',
  ip4: '10.0.0.1',
  label: 5,
  blob: 'aGk=',
};

describe('formats', () => {
  const schema = new DtoSchemaFactory().forClass(Contact);

  it('uses JSON Schema formats only', () => {
    expect(schema.properties).toEqual({
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      at: { type: 'string', format: 'date-time' },
      on: { type: 'string', format: 'date-time' },
      ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
      ip4: { type: 'string', format: 'ipv4' },
      label: { not: { enum: ['', null] } },
      blob: { type: 'string', contentEncoding: 'base64' },
    });
  });

  it('agrees with class-validator', async () => {
    await expectAgreement(Contact, schema, [
      ['valid', contact, true],
      ['IsNotEmpty takes any non-empty value', { ...contact, label: 'x' }, true],
      ['IsNotEmpty refuses the empty string', { ...contact, label: '' }, false],
      ['IsNotEmpty refuses null', { ...contact, label: null }, false],
      ['bad email', { ...contact, email: 'ada' }, false],
      ['email given a number', { ...contact, email: 1 }, false],
      ['bad url', { ...contact, site: 'not a url' }, false],
      ['bad uuid', { ...contact, id: '3b241101' }, false],
      ['bad date-time', { ...contact, at: 'yesterday' }, false],
      ['bad date string', { ...contact, on: '2024-13-45T99:00:00Z' }, false],
      ['IsIP takes IPv4 too', { ...contact, ip: '127.0.0.1' }, true],
      ['bad ip', { ...contact, ip: '300.1.1.1' }, false],
      ['ipv4 given ipv6', { ...contact, ip4: '::1' }, false],
    ]);
  });

  it('refuses what the published format refuses, though class-validator alone took it (closed gaps)', async () => {
    await expectAgreement(Contact, schema, [
      // isISO8601 takes a date without a time; `date-time` wants a full RFC 3339 timestamp.
      ['IsISO8601 given a date only', { ...contact, at: '2024-05-01' }, false],
      ['IsDateString given a date only', { ...contact, on: '2024-05-01' }, false],
      ['IsISO8601 without a time zone', { ...contact, at: '2024-05-01T10:00:00' }, false],
      // isURL takes a host without a scheme; `uri` needs one.
      ['IsUrl given a bare host', { ...contact, site: 'example.org' }, false],
      ['IsUrl with a path', { ...contact, site: 'https://example.org/a?b=c' }, true],
    ]);
  });

  it(`REFINEMENT URL_RULES_OF_IS_URL: the schema takes any URI, @IsUrl() only web hosts with a TLD`, async () => {
    const check = compileStrict(schema);
    expect(await judge(Contact, check, { ...contact, site: 'http://localhost:3000' })).toEqual(REFINEMENTS.URL_RULES_OF_IS_URL);
    expect(await judge(Contact, check, { ...contact, site: 'mailto:ada@example.org' })).toEqual(REFINEMENTS.URL_RULES_OF_IS_URL);
    class Local {
      @IsUrl({ require_tld: false }) site!: string;
    }
    await expectAgreement(Local, new DtoSchemaFactory().forClass(Local), [['localhost with require_tld: false', { site: 'http://localhost:3000' }, true]]);
  });

  it('REFINEMENT REGEX_WITH_FLAGS: a regex with flags publishes no pattern, and class-validator checks it', async () => {
    class Code {
      @Matches(/^ab$/i) code!: string;
      @Matches(/^x+$/) plain!: string;
    }
    const schema = new DtoSchemaFactory().forClass(Code);
    expect(schema.properties).toEqual({ code: { type: 'string' }, plain: { type: 'string', pattern: '^x+$' } });
    await expectAgreement(Code, schema, [
      ['either case', { code: 'AB', plain: 'xx' }, true],
      ['flagless pattern refused', { code: 'ab', plain: 'y' }, false],
    ]);
    expect(await judge(Code, compileStrict(schema), { code: 'abc', plain: 'x' })).toEqual(REFINEMENTS.REGEX_WITH_FLAGS);
  });
});

describe('validators the stock converters mistype', () => {
  @ValidatorConstraint({ name: 'evenLength' })
  class EvenLength implements ValidatorConstraintInterface {
    validate(value: unknown) {
      return Array.isArray(value) && value.length % 2 === 0;
    }
  }
  class Misc {
    @IsNotEmpty() @IsInt() count!: number; // stock: type string + minLength
    @Validate(EvenLength) pairs!: string[]; // stock: $ref "#/$defs/Array"
    @IsEmpty() blank?: unknown; // stock: OpenAPI `nullable`, refused by strict Ajv
  }
  const schema = new DtoSchemaFactory().forClass(Misc);

  it('keeps the integer, gives a custom validator on an array an array schema, and drops OpenAPI keywords', async () => {
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        count: { type: 'integer', not: { enum: ['', null] } },
        pairs: { type: 'array', items: {} },
        blank: { enum: ['', null] },
      },
      required: ['count', 'pairs'],
    });
    await expectAgreement(Misc, schema, [
      ['valid', { count: 3, pairs: ['a', 'b'] }, true],
      ['IsEmpty takes null and the empty string', { count: 3, pairs: [], blank: '' }, true],
      ['IsEmpty refuses a value', { count: 3, pairs: [], blank: 'x' }, false],
      ['IsNotEmpty + IsInt refuses a string', { count: '3', pairs: [] }, false],
      ['custom array validator needs an array', { count: 3, pairs: 'ab' }, false],
    ]);
  });
});
