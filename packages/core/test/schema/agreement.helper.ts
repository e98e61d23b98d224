/**
 * Runs the same inputs through the generated JSON Schema (Ajv, 2020-12) and through the runtime
 * path (class-transformer + class-validator with the pipeline's options) so tests can assert that
 * they accept and reject the same things.
 */
import 'reflect-metadata';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { ClassType } from '../../src/metadata/metadata-args.interface.js';
import { TRANSFORM_OPTIONS, VALIDATOR_OPTIONS } from '../../src/pipeline/validation-options.js';

type Validate = ValidateFunction;

/**
 * Compiles with Ajv in strict mode. `allowUnionTypes` is the one relaxation: strict mode refuses
 * `type: ['string', 'null']` by default, and that union is how an optional field admits `null`.
 */
export function compileStrict(schema: object): Validate {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** What each side says about one input. */
export interface Verdict {
  schema: boolean;
  validator: boolean;
}

/** Runs one input through both sides. */
export async function judge(dto: ClassType, check: Validate, input: unknown): Promise<Verdict> {
  const schema = check(structuredClone(input));
  const instance = plainToInstance(dto, structuredClone(input), TRANSFORM_OPTIONS) as object;
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  return { schema, validator: errors.length === 0 };
}

/** One row: a label, an input, and whether both sides must accept it. */
export type Row = [label: string, input: unknown, accepted: boolean];

/** Asserts that schema and validator both give `accepted` for every row (lists every mismatch at once). */
export async function expectAgreement(dto: ClassType, schema: object, rows: Row[]): Promise<void> {
  const check = compileStrict(schema);
  const wrong: string[] = [];
  for (const [label, input, accepted] of rows) {
    const v = await judge(dto, check, input);
    if (v.schema !== accepted || v.validator !== accepted) wrong.push(`${label}: expected ${accepted}, schema ${v.schema}, validator ${v.validator}`);
  }
  expect(wrong).toEqual([]);
}

/**
 * Where class-validator and JSON Schema differ in a way the schema cannot fix. Each test that
 * shows one names it here, so the gap is on record instead of hidden in a table.
 */
export const KNOWN_GAPS = {
  /** `isEnum` checks every value of the enum object, and a numeric enum's object also maps numbers back to names. */
  NUMERIC_ENUM_NAME_ACCEPTED: { schema: false, validator: true },
  /** `@ValidateNested()` skips `undefined`: a nested DTO is optional to class-validator unless another validator refuses it. */
  MISSING_NESTED_ACCEPTED: { schema: false, validator: true },
  /** `@ValidateNested()` validates each element of an array, so an array passes where one object is declared. */
  ARRAY_FOR_NESTED_ACCEPTED: { schema: false, validator: true },
  /** `{ each: true }` on a non-array value checks the value itself; add `@IsArray()` to refuse it. */
  BARE_VALUE_FOR_EACH_ACCEPTED: { schema: false, validator: true },
  /** `@ValidateIf(fn)` / `{ validateIf }`: when the condition is false any value passes; a schema cannot run `fn`. */
  CONDITION_FALSE_ACCEPTS_ANYTHING: { schema: false, validator: true },
  /** `isISO8601` also takes dates without a time (`2024-05-01`), weeks, ordinals; `date-time` wants a full RFC 3339 timestamp. */
  PARTIAL_ISO8601_ACCEPTED: { schema: false, validator: true },
  /** `isURL` takes a host without a scheme (`example.com`); the `uri` format needs a scheme. */
  URL_WITHOUT_SCHEME_ACCEPTED: { schema: false, validator: true },
  /** JSON Schema patterns have no flags: `@Matches(/x/i)` becomes a case-sensitive `pattern`. */
  REGEX_FLAGS_DROPPED: { schema: false, validator: true },
} as const satisfies Record<string, Verdict>;
