/**
 * Property-based proof of the contract, with fast-check: for DTOs covering every decorator the
 * schema generator maps, whatever the server accepts the published schema accepts too (checked
 * by a separate strict Ajv, as a client would), and every output the server lets through
 * validates against the published output schema. Inputs mix arbitrary JSON with the edge values
 * each rule is known to be touchy about (dates without a time, hosts without a scheme, numeric
 * enum names, null on optional fields, astral characters against lengths, misspelt fields...).
 * Outputs also hold what handlers really return: Date objects (a pg row's timestamps), invalid
 * Dates, and nullable fields in their published form (`anyOf` the field's schema and null).
 */
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  IsArray,
  IsBase64,
  IsBoolean,
  IsDate,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEmpty,
  IsEnum,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsOptional,
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
  ValidateIf,
  validate,
  ValidateNested,
} from 'class-validator';
import fc from 'fast-check';
import { Nullable } from '../../src/decorators/nullable.decorator.js';
import type { ClassType } from '../../src/metadata/metadata-args.interface.js';
import { DtoSchemaFactory } from '../../src/schema/index.js';
import { compileStrict, serverCheck } from './agreement.helper.js';

enum Level {
  Low = 1,
  High = 2,
}
enum Colour {
  Red = 'red',
  Blue = 'blue',
}

class Point {
  @IsInt() x!: number;
  @IsOptional() @IsInt() @Min(0) y?: number;
}

class Scalars {
  @IsString() @Length(2, 5) name!: string;
  @IsInt() @Min(0) @Max(10) count!: number;
  @IsNumber() ratio!: number;
  @IsPositive() positive!: number;
  @IsNegative() @IsOptional() negative?: number;
  @IsBoolean() flag!: boolean;
  @MinLength(2) @MaxLength(3) @IsString() short!: string;
  @Matches(/^[a-c]+$/) abc!: string;
  @Matches(/^x$/i) @IsOptional() anyCaseX?: string;
  @IsOptional() @IsInt() limit?: number = 10;
}

class Formats {
  @IsEmail() email!: string;
  @IsUrl() url!: string;
  @IsOptional() @IsUrl({ require_tld: false }) local?: string;
  @IsUUID() id!: string;
  @IsISO8601() at!: string;
  @IsDateString() @IsOptional() on?: string;
  @IsIP() ip!: string;
  @IsIP('6') @IsOptional() ip6?: string;
  @IsBase64() @IsOptional() blob?: string;
}

class Choices {
  @IsEnum(Level) level!: Level;
  @IsEnum(Colour) colour!: Colour;
  @IsIn(['a', 1, true]) mixed!: unknown;
  @IsOptional() @IsEnum(Level) maybe?: Level;
  @Nullable() @IsString() nullable!: string | null;
  @IsOptional() @Nullable() @IsInt() both?: number | null;
  @IsNotEmpty() notEmpty!: unknown;
  @IsEmpty() @IsOptional() empty?: unknown;
  @IsDefined() defined!: unknown;
  @Allow() anything?: unknown;
}

class Nullables {
  @Nullable() @IsString() @MinLength(2) name!: string | null;
  @IsOptional() @Nullable() @IsInt() @Min(0) age?: number | null;
  @IsOptional() @Nullable() @IsEnum(Colour) colour?: Colour | null;
  @IsOptional() @Nullable() @ValidateNested() @Type(() => Point) at?: Point | null;
  @IsOptional() @Nullable() @IsIP() ip?: string | null;
}

class Stamped {
  @IsDate() @Type(() => Date) when!: Date;
  @IsString() what!: string;
}

/** Timestamps as an output DTO declares them; at run time each holds a Date, as pg returns it. */
class Dated {
  @IsDate() @Type(() => Date) at!: Date;
  @IsISO8601() stamp!: string;
  @IsOptional() @Nullable() @IsISO8601() doneAt?: string | null;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Stamped) history?: Stamped[];
}

class Shapes {
  @ValidateNested() @Type(() => Point) at!: Point;
  @IsOptional() @ValidateNested() @Type(() => Point) maybeAt?: Point;
  @ValidateNested({ each: true }) @Type(() => Point) @ArrayMinSize(1) @ArrayMaxSize(2) path!: Point[];
  @IsString({ each: true }) tags!: string[];
  @IsArray() @ArrayNotEmpty() list!: unknown[];
  @IsIn(['post', 'pickup']) method!: string;
  @ValidateIf((o: Shapes) => o.method === 'post') @IsString() @MinLength(2) street?: string;
  @IsString({ validateIf: (o: Shapes) => o.method === 'post' }) zip?: string;
}

const EDGE_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  2,
  1.5,
  10,
  11,
  -0.5,
  '',
  'a',
  'ab',
  'abc',
  'abcdef',
  'x',
  'X',
  '3',
  'Low',
  'High',
  'red',
  'Red',
  'blue',
  'post',
  'pickup',
  '😀😀',
  '😀',
  'example.org',
  'https://example.org/a?b=c',
  'http://localhost:3000',
  'mailto:ada@example.org',
  'ftp://files.example.org',
  'ada@example.org',
  'ada',
  '3b241101-e2bb-4255-8caf-4136c566a962',
  '3b241101',
  '2024-05-01',
  '2024-05-01T10:20:30Z',
  '2024-05-01T10:20:30',
  '2024-W18',
  '127.0.0.1',
  '::1',
  '300.1.1.1',
  'aGk=',
  'aGk',
  [],
  [1],
  ['a', 'b'],
  ['a', 1],
  [{ x: 1 }],
  [{ x: 1 }, { x: 2, y: 3 }],
  [{ x: 'a' }],
  {},
  { x: 1 },
  { x: 1, y: -1 },
  { x: 1, z: 2 },
  { x: 1.5 },
];

const value = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...EDGE_VALUES) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** Inputs for a DTO: its declared fields (often absent) with edge or arbitrary values, sometimes a misspelt or extra field. */
function inputs(keys: string[]): fc.Arbitrary<Record<string, unknown>> {
  const declared = fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });
  const extra = fc.option(fc.tuple(fc.constantFrom(...keys.map((k) => `${k}s`), 'extra'), value), { freq: 5 });
  return fc.tuple(declared, extra).map(([record, more]) => (more ? { ...record, [more[0]]: more[1] } : record));
}

/** A valid input with one or two fields changed or removed, and now and then an extra field: inputs near the boundary. */
function nearby(seed: Record<string, unknown>, keys: string[]): fc.Arbitrary<Record<string, unknown>> {
  const change = fc.tuple(fc.constantFrom(...keys), fc.option(value, { freq: 6 }));
  const extra = fc.option(fc.tuple(fc.constantFrom(...keys.map((k) => `${k}s`), 'extra'), value), { freq: 8 });
  return fc.tuple(fc.array(change, { minLength: 0, maxLength: 2 }), extra).map(([changes, more]) => {
    const out: Record<string, unknown> = { ...seed };
    for (const [key, v] of changes) {
      if (v === null) delete out[key];
      else out[key] = v;
    }
    if (more) out[more[0]] = more[1];
    return out;
  });
}

/** A valid input to start from, so that generated changes land near the accepting region too. */
const SEEDS: Record<string, Record<string, unknown>> = {
  Scalars: { name: 'abc', count: 3, ratio: 0.5, positive: 2, flag: true, short: 'ab', abc: 'ab' },
  Formats: { email: 'ada@example.org', url: 'https://example.org', id: '3b241101-e2bb-4255-8caf-4136c566a962', at: '2024-05-01T10:20:30Z', ip: '::1' },
  Choices: { level: 1, colour: 'red', mixed: true, nullable: null, notEmpty: 'x', defined: 0 },
  Nullables: { name: null, age: null, colour: null, at: null, ip: null },
  Dated: { at: '2024-05-01T10:20:30Z', stamp: '2024-05-01T10:20:30+02:00', doneAt: null, history: [{ when: '2024-05-01T10:20:30Z', what: 'made' }] },
  Shapes: { at: { x: 1 }, path: [{ x: 1 }], tags: ['a'], list: [1], method: 'pickup' },
};

const DTOS: ClassType[] = [Scalars, Formats, Choices, Nullables, Dated, Shapes];
const RUNS = 400;

describe('the server never accepts what its published schema refuses', () => {
  for (const dto of DTOS) {
    it(`${dto.name}: every input the server accepts validates against the published schema`, async () => {
      const schema = new DtoSchemaFactory().forClass(dto);
      const client = compileStrict(schema);
      const keys = Object.keys(schema.properties as object);
      const seed = SEEDS[dto.name];
      let accepted = 0;
      await fc.assert(
        // Arbitrary inputs, and the valid seed with a field or two replaced or removed.
        fc.asyncProperty(fc.oneof({ weight: 1, arbitrary: inputs(keys) }, { weight: 3, arbitrary: nearby(seed, keys) }), async (input) => {
          const verdict = await serverCheck().input(dto, structuredClone(input));
          if (verdict.ok) {
            accepted++;
            if (!client(structuredClone(input))) throw new Error(`server accepted what the schema refuses: ${JSON.stringify(client.errors)}`);
          }
        }),
        { numRuns: RUNS, examples: [[seed]] },
      );
      // The property would hold vacuously if nothing were ever accepted.
      expect(accepted).toBeGreaterThanOrEqual(RUNS / 50);
    });
  }
});

describe('the server never returns what its published output schema refuses', () => {
  for (const dto of DTOS) {
    it(`${dto.name}: every output the check lets through validates against the output schema`, async () => {
      const client = compileStrict(new DtoSchemaFactory().forClass(dto));
      const keys = Object.keys(new DtoSchemaFactory().forClass(dto).properties as object);
      const seed = SEEDS[dto.name];
      let returned = 0;
      await fc.assert(
        fc.asyncProperty(fc.oneof({ weight: 1, arbitrary: inputs(keys) }, { weight: 3, arbitrary: nearby(seed, keys) }), async (value) => {
          // A handler's return value: a plain object, or an instance with extra fields.
          const result = await serverCheck().output(dto, Object.assign(new dto() as object, structuredClone(value)));
          if (result.ok) {
            returned++;
            if (!client(structuredClone(result.value))) throw new Error(`returned what the output schema refuses: ${JSON.stringify(client.errors)}`);
          }
        }),
        { numRuns: RUNS, examples: [[seed]] },
      );
      expect(returned).toBeGreaterThanOrEqual(RUNS / 50);
    });
  }
});

/** A Date a row could hold, in years 1 to 9999 (what RFC 3339 can write). */
const validDate = fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
/** Any Date at all: invalid ones (their JSON is null) and years RFC 3339 cannot write (`+275760-...`) too. */
const anyDate = fc.oneof(validDate, fc.constant(new Date(Number.NaN)), fc.date());
const dateOrEdge = fc.oneof({ weight: 4, arbitrary: anyDate }, { weight: 1, arbitrary: value });
/** What a handler returns for `Dated`: Dates where a row has them, now and then another value. */
const datedOutput = fc.record(
  {
    at: dateOrEdge,
    stamp: dateOrEdge,
    doneAt: fc.option(dateOrEdge, { nil: null }),
    history: fc.array(fc.record({ when: dateOrEdge, what: fc.oneof(fc.string(), value) }), { maxLength: 3 }),
    extra: value,
  },
  { requiredKeys: ['at', 'stamp'] },
);
/** A handler returns a plain object (a row) or an instance of the output DTO. */
const returned = (plain: Record<string, unknown>, asInstance: boolean) => (asInstance ? Object.assign(new Dated(), plain) : plain);

describe('outputs holding Dates, as a pg row does', () => {
  const client = compileStrict(new DtoSchemaFactory().forClass(Dated));

  it('every output the check lets through is plain JSON and validates against the output schema', async () => {
    let passed = 0;
    await fc.assert(
      fc.asyncProperty(datedOutput, fc.boolean(), async (plain, asInstance) => {
        const result = await serverCheck().output(Dated, returned(plain, asInstance));
        if (!result.ok) return;
        passed++;
        expect(JSON.parse(JSON.stringify(result.value))).toEqual(result.value);
        if (!client(structuredClone(result.value))) throw new Error(`returned what the output schema refuses: ${JSON.stringify(client.errors)}`);
      }),
      { numRuns: RUNS },
    );
    expect(passed).toBeGreaterThanOrEqual(RUNS / 50);
  });

  it('every row of valid Dates is let through, each Date sent as its ISO string', async () => {
    const row = fc.record({
      at: validDate,
      stamp: validDate,
      doneAt: fc.option(validDate, { nil: null }),
      history: fc.array(fc.record({ when: validDate, what: fc.string() }), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(row, fc.boolean(), async (plain, asInstance) => {
        const result = await serverCheck().output(Dated, returned(plain, asInstance));
        expect(result).toEqual({
          ok: true,
          value: {
            at: plain.at.toISOString(),
            stamp: plain.stamp.toISOString(),
            doneAt: plain.doneAt?.toISOString() ?? null,
            history: plain.history.map((h) => ({ when: h.when.toISOString(), what: h.what })),
          },
        });
      }),
      { numRuns: RUNS },
    );
  });
});

describe('nullable fields are published in the one portable form', () => {
  it("anyOf the field's own schema and null, never a type array", () => {
    const schema = new DtoSchemaFactory().forClass(Nullables);
    for (const property of Object.values(schema.properties as Record<string, { anyOf?: unknown[] }>)) {
      expect(property.anyOf).toHaveLength(2);
      expect(property.anyOf![1]).toEqual({ type: 'null' });
    }
    expect(JSON.stringify([schema, new DtoSchemaFactory().forClass(Choices)])).not.toMatch(/"type":\[/);
  });
});

describe('the property can fail', () => {
  it('finds inputs that class-validator alone (the server before the schema check) accepts and the schema refuses', async () => {
    for (const dto of [Formats, Choices, Shapes] as ClassType[]) {
      const schema = new DtoSchemaFactory().forClass(dto);
      const client = compileStrict(schema);
      const keys = Object.keys(schema.properties as object);
      const outcome = await fc.check(
        fc.asyncProperty(nearby(SEEDS[dto.name], keys), async (input) => {
          const errors = await validate(plainToInstance(dto, structuredClone(input)) as object, { forbidUnknownValues: false });
          return errors.length > 0 || client(structuredClone(input));
        }),
        { numRuns: RUNS },
      );
      expect(outcome.failed).toBe(true);
    }
  });
});
