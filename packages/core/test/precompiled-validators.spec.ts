/**
 * Precompiled validators (`typemcp.validators.cjs`, Ajv standalone code) and the validators Ajv
 * compiles at run time give the same answers, message for message: one validator compiles every
 * schema at run time (TYPEMCP_VALIDATORS=off), the other takes the standalone code written for
 * the same schemas (and is shown to compile nothing), on DTOs with nested objects, arrays, formats,
 * enums, numbers (non-finite ones included), closed objects and outputs that drop undeclared
 * fields, each against many hostile inputs.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import type { JsonObject } from '@typemcp/protocol';

import { DtoValidator, type DtoResult } from '../src/pipeline/dto-validator';
import { precompiledValidator, usePrecompiledValidators, validatorsSource, type PrecompiledValidators } from '../src/pipeline/precompiled-validators';
import { DtoSchemaFactory } from '../src/schema/index';

enum Colour {
  Red = 'red',
  Green = 'green',
}

class Point {
  @IsNumber() x!: number;
  @IsNumber() @Min(-10) @Max(10) y!: number;
}

class Tag {
  @IsString() @MinLength(1) @MaxLength(5) name!: string;
  @IsOptional() @IsInt() weight?: number;
}

class Shape {
  @IsString() @Matches(/^[a-z]+$/) id!: string;
  @IsEnum(Colour) colour!: Colour;
  @IsIn(['s', 'm', 'l']) size!: string;
  @ValidateNested() @Type(() => Point) origin!: Point;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => Point) points!: Point[];
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[];
}

class Contact {
  @IsEmail() email!: string;
  @IsUrl() site!: string;
  @IsUUID() id!: string;
  @IsDateString() since!: string;
  @IsOptional() @IsBoolean() active?: boolean;
}

class Numbers {
  @IsNumber() any!: number;
  @IsInt() @Min(0) @Max(100) percent!: number;
  @IsOptional() @IsNumber({}, { each: true }) @IsArray() list?: number[];
}

const DTOS: readonly (new () => object)[] = [Point, Tag, Shape, Contact, Numbers];
const factory = new DtoSchemaFactory();

/** Values no well-behaved client sends: wrong types, non-finite numbers, extra and odd keys, nesting gone wrong. */
const HOSTILE: unknown[] = [
  undefined,
  null,
  0,
  'text',
  [],
  [1, 2],
  {},
  { x: Infinity, y: NaN },
  { x: -Infinity, y: 11 },
  { x: 1e308, y: -10.5 },
  { x: '1', y: true },
  { x: 1, y: 2, z: 3 },
  JSON.parse('{"__proto__": {"x": 1}, "x": 1, "y": 1}'),
  { constructor: 1, x: 1, y: 1 },
  { name: '', weight: 1.5 },
  { name: 'toolong', weight: Infinity },
  { name: ['a'], weight: '1' },
  { id: 'ABC', colour: 'blue', size: 'xl', origin: null, points: [] },
  { id: 'abc', colour: 'red', size: 's', origin: { x: 1, y: 1 }, points: [{ x: 1, y: 1 }] },
  { id: 'abc', colour: 'red', size: 's', origin: { x: 1 }, points: [{ x: 1, y: 1 }, { y: 99 }, null, 4], tags: [{ name: 'abcdef' }, {}, 'x'] },
  { id: 'abc', colour: 'green', size: 'm', origin: { x: 1, y: 1, extra: 1 }, points: [{ x: Infinity, y: 1 }], tags: [{ name: 'a', extra: true }] },
  { email: 'not-an-email', site: 'not a url', id: 'nope', since: '2020-13-45' },
  { email: 'a@b.co', site: 'https://example.com/x', id: '123e4567-e89b-12d3-a456-426614174000', since: '2020-01-01T00:00:00Z', active: 'yes' },
  { email: 1, site: null, id: [], since: {}, active: 1 },
  { email: 'a@b.co'.repeat(100), site: 'javascript:alert(1)', id: '123e4567-e89b-12d3-a456-42661417400Z', since: '2020-01-01' },
  { any: Infinity, percent: 101 },
  { any: NaN, percent: -1, list: [1, Infinity, '2', null] },
  { any: -0, percent: 50.5, list: 'nope' },
  { any: Number.MAX_VALUE, percent: 0, list: [] },
  { any: 1, percent: 100, extra: { deep: [1] } },
];

/** A check's answer as data: its messages, the value it returns (as JSON), or what it throws (an output JSON cannot carry). */
const messages = <T>(check: () => DtoResult<T> | Promise<DtoResult<T>>) => {
  let result: DtoResult<T> | Promise<DtoResult<T>>;
  try {
    result = check();
  } catch (error) {
    return { threw: String(error) };
  }
  expect(result).not.toBeInstanceOf(Promise);
  const settled = result as DtoResult<T>;
  return settled.ok ? { ok: true, value: JSON.parse(JSON.stringify(settled.value)) as unknown } : settled;
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'typemcp-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runtime: DtoValidator;
let precompiled: DtoValidator;
let fromRuntime: Map<string, unknown>;

beforeAll(() => {
  // Run time: Ajv compiles every schema (and is asked nothing precompiled).
  process.env.TYPEMCP_VALIDATORS = 'off';
  runtime = new DtoValidator(factory);
  fromRuntime = new Map();
  for (const dto of DTOS) {
    HOSTILE.forEach((value, i) => {
      fromRuntime.set(
        `${dto.name} input ${i}`,
        messages(() => runtime.input(dto, structuredClone(value))),
      );
      fromRuntime.set(
        `${dto.name} output ${i}`,
        messages(() => runtime.output(dto, structuredClone(value))),
      );
    });
  }
  delete process.env.TYPEMCP_VALIDATORS;
  // The build's file for the same schemas, loaded as a Worker imports it.
  const schemas = DTOS.flatMap((dto) => (['input', 'output'] as const).map((direction) => ({ direction, schema: factory.forClass(dto) as JsonObject })));
  const file = path.join(dir, 'typemcp.validators.cjs');
  writeFileSync(file, validatorsSource(schemas).source);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the generated CommonJS file, as a server loads it
  usePrecompiledValidators(require(file) as PrecompiledValidators);
  precompiled = new DtoValidator(factory);
});

describe('precompiled validators', () => {
  it('exist for every schema and direction the build saw, and only for the exact schema text', () => {
    for (const dto of DTOS) {
      const schema = factory.forClass(dto);
      expect(precompiledValidator('input', schema)).toEqual(expect.any(Function));
      expect(precompiledValidator('output', schema)).toEqual(expect.any(Function));
      expect(precompiledValidator('input', { ...schema, description: 'another schema' })).toBeUndefined();
    }
  });

  it.each(DTOS.map((dto) => [dto.name, dto] as const))(
    '%s: the same answers as Ajv at run time, input and output, message for message, compiling nothing',
    (name, dto) => {
      HOSTILE.forEach((value, i) => {
        expect([i, messages(() => precompiled.input(dto, structuredClone(value)))]).toEqual([i, fromRuntime.get(`${name} input ${i}`)]);
        expect([i, messages(() => precompiled.output(dto, structuredClone(value)))]).toEqual([i, fromRuntime.get(`${name} output ${i}`)]);
      });
      // Neither of its Ajv instances was made: every check ran precompiled code.
      const ajvs = precompiled as unknown as { inputAjv?: unknown; outputAjv?: unknown };
      expect([ajvs.inputAjv, ajvs.outputAjv]).toEqual([undefined, undefined]);
      expect((runtime as unknown as { inputAjv?: unknown }).inputAjv).toBeDefined();
    },
  );

  it('the inputs exercise refusals and acceptances, outputs with undeclared fields removed (the comparison above is not vacuous)', () => {
    const answers = [...fromRuntime.values()] as { ok: boolean; problems?: string[]; value?: unknown }[];
    expect(answers.filter((a) => a.ok).length).toBeGreaterThan(3);
    const problems = answers.flatMap((a) => a.problems ?? []);
    for (const kind of [
      /must be a number/,
      /is required/,
      /not finite|finite/i,
      /must match format|email|url|uuid/i,
      /must be one of|must be equal to one of/,
      /at most|at least/,
    ]) {
      expect(problems.some((p) => kind.test(p))).toBe(true);
    }
    expect(fromRuntime.get('Shape output 19')).toEqual({ ok: false, problems: expect.any(Array) });
    expect(fromRuntime.get('Point output 11')).toEqual({ ok: true, value: { x: 1, y: 2 } });
  });

  it('TYPEMCP_VALIDATORS=off ignores them', () => {
    process.env.TYPEMCP_VALIDATORS = 'off';
    try {
      expect(precompiledValidator('input', factory.forClass(Point))).toBeUndefined();
    } finally {
      delete process.env.TYPEMCP_VALIDATORS;
    }
  });

  it('usePrecompiledValidators refuses what typemcp build did not write', () => {
    expect(() => usePrecompiledValidators({} as PrecompiledValidators)).toThrow(
      'usePrecompiledValidators() takes the module of a typemcp.validators.cjs written by typemcp build (format 1)',
    );
  });
});
