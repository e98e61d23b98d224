/**
 * loadConfig()'s check of a flat configuration without Ajv (src/config/flat-schema-check.ts)
 * gives the same outcome as the Ajv path it replaces, side by side on the same inputs: for each
 * configuration DTO, several hundred plain objects (valid, missing, mistyped, out of range,
 * non-finite, long, unicode...) go through `checkConfig` and through `DtoValidator.input`, and the
 * results (the problems, or the instance's fields) must be equal. A DTO that is not flat takes
 * the Ajv path.
 */
import { getMetadataStorage, type ClassType } from '@typemcp/core';
import {
  Equals,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  IsNegative,
  Contains,
} from 'class-validator';
import { checkConfig } from '../src/config/load-config';
import { flatSchemaErrors, isFlatSchema } from '../src/config/flat-schema-check';
import { DtoValidator, type DtoResult } from '../src/pipeline/dto-validator';
import { DtoSchemaFactory } from '../src/schema/index';

beforeEach(() => getMetadataStorage().reset());

function flatConfigs() {
  class Logging {
    @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) logLevel = 'info';
    @IsIn(['json', 'pretty']) logFormat = 'json';
  }
  class Http {
    @IsInt() @Min(0) @Max(65535) port = 3000;
    @IsString() host = '127.0.0.1';
    @IsBoolean() trustProxy = false;
    @IsInt() @Min(0) drainMs = 0;
    @IsNumber() @IsPositive() ratio!: number;
    @IsNumber() @IsNegative() @Min(-10) offset = -1;
  }
  class Strings {
    @IsString() @MinLength(3) @MaxLength(8) name!: string;
    @IsOptional() @IsString() @Matches(/^[a-z]+-\d+$/) tag?: string;
    @IsNotEmpty() @IsString() secret!: string;
    @IsOptional() @Equals('v1') version?: string;
    @IsOptional() @IsIn([1, 2, 3]) level?: number;
  }
  // class-validator rules the schema cannot state run after the flat check: `@Contains`.
  class Refined {
    @IsString() @Contains('@') owner = 'me@example.com';
    @IsInt() @Max(10) tries = 3;
  }
  return { Logging, Http, Strings, Refined };
}

const VALUES: unknown[] = [
  undefined,
  '',
  'info',
  'json',
  'pretty',
  'INFO',
  'ab',
  'abc',
  'abcdefgh',
  'abcdefghi',
  'abc-12',
  'Abc-12',
  'v1',
  'me@example.com',
  '127.0.0.1',
  'héllo',
  '😀😀😀',
  '😀😀😀😀😀😀😀😀😀',
  'x'.repeat(60),
  0,
  -0,
  1,
  2,
  3,
  -1,
  -10,
  -11,
  3.5,
  0.25,
  65535,
  65536,
  1e21,
  Infinity,
  -Infinity,
  true,
  false,
];

/** A deterministic sequence of plain objects over `fields`: every value in each field alone and in `base`, then random mixes. */
function inputs(fields: string[], base: Record<string, unknown>, n: number): Record<string, unknown>[] {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: Record<string, unknown>[] = [];
  const put = (o: Record<string, unknown>, k: string, v: unknown) => (v === undefined ? o : { ...o, [k]: v });
  for (const field of fields) for (const v of VALUES) out.push(put({}, field, v), put(base, field, v));
  while (out.length < n) out.push(fields.reduce((o, f) => put(o, f, VALUES[Math.floor(next() * VALUES.length)]), {}));
  return out;
}

const plainOf = <T>(r: DtoResult<T>) => (r.ok ? { ok: true, value: { ...r.value }, instance: (r.value as object).constructor.name } : r);

// A valid value of each DTO's required fields, varied one field at a time.
const BASES = { Logging: {}, Http: { ratio: 0.25 }, Strings: { name: 'abc', secret: 'abc' }, Refined: {} };

it.each(['Logging', 'Http', 'Strings', 'Refined'] as const)('%s: the flat check and the Ajv path agree on every input', async (which) => {
  const dto: ClassType<object> = flatConfigs()[which];
  const schemas = new DtoSchemaFactory();
  const schema = schemas.forClass(dto);
  expect(isFlatSchema(schema)).toBe(true);
  const fields = Object.keys(schema.properties as object);
  let failed = 0;
  let passed = 0;
  for (const plain of inputs(fields, BASES[which], 600)) {
    const flat = plainOf(await checkConfig(dto, schemas, plain));
    const ajv = plainOf(await new DtoValidator(schemas).input(dto, plain));
    expect({ plain, result: flat }).toEqual({ plain, result: ajv });
    if (flat.ok) passed++;
    else failed++;
  }
  // Both outcomes are exercised, not only one.
  expect(passed).toBeGreaterThan(10);
  expect(failed).toBeGreaterThan(100);
});

it('words the faults as the Ajv path does, in its order', async () => {
  const { Http } = flatConfigs();
  const schemas = new DtoSchemaFactory();
  const result = await checkConfig(Http, schemas, { port: 70000, host: 5, trustProxy: 'yes', drainMs: 1.5, ratio: Infinity });
  expect(result).toEqual({
    ok: false,
    problems: [
      '`port` must be at most 65535',
      '`host` must be a string (got number 5)',
      '`trustProxy` must be a boolean (got string "yes")',
      '`drainMs` must be an integer (got number 1.5)',
      '`ratio` must be a finite number (got Infinity)',
    ],
  });
});

it('leaves a schema that is not flat (a list, a URL format) to Ajv', () => {
  class Lists {
    @IsOptional() @IsString({ each: true }) allowedHosts?: string[];
  }
  class Urls {
    @IsOptional() @IsUrl({ require_tld: false }) publicUrl?: string;
  }
  const schemas = new DtoSchemaFactory();
  for (const dto of [Lists, Urls]) {
    expect(isFlatSchema(schemas.forClass(dto))).toBe(false);
    expect(flatSchemaErrors(schemas.forClass(dto), {})).toBeUndefined();
  }
});
