/**
 * Runs the same inputs through the published JSON Schema (compiled by a separate, strict Ajv,
 * as a client would) and through the server's own input check (DtoValidator: the compiled
 * schema, then class-validator where the schema cannot say everything), so tests can assert
 * that they accept and refuse the same things. The rule they hold the server to: it never
 * accepts what its published schema refuses. Where a schema cannot state a rule exactly, it is
 * laxer and class-validator refines; such rows are listed as refinements, never the reverse.
 */
import 'reflect-metadata';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ClassType } from '../../src/metadata/metadata-args.interface.js';
import { DtoValidator } from '../../src/pipeline/dto-validator.js';
import { DtoSchemaFactory, type DtoSchemaOptions } from '../../src/schema/index.js';

type Validate = ValidateFunction;

/** Compiles with Ajv in strict mode (any keyword Ajv does not know, or a bad union, throws). */
export function compileStrict(schema: object): Validate {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** What each side says about one input. */
export interface Verdict {
  schema: boolean;
  server: boolean;
}

const validators = new Map<string, DtoValidator>();

/** The server's input check, with the schema options a test uses. */
export function serverCheck(options: DtoSchemaOptions = {}): DtoValidator {
  const key = JSON.stringify(options);
  let validator = validators.get(key);
  if (!validator) validators.set(key, (validator = new DtoValidator(new DtoSchemaFactory(options))));
  return validator;
}

/** Runs one input through both sides. */
export async function judge(dto: ClassType, check: Validate, input: unknown, options: DtoSchemaOptions = {}): Promise<Verdict> {
  const schema = check(structuredClone(input));
  const result = await serverCheck(options).input(dto, structuredClone(input));
  return { schema, server: result.ok };
}

/** One row: a label, an input, and whether both sides must accept it. */
export type Row = [label: string, input: unknown, accepted: boolean];

/** Asserts that schema and server both give `accepted` for every row (lists every mismatch at once). */
export async function expectAgreement(dto: ClassType, schema: object, rows: Row[], options: DtoSchemaOptions = {}): Promise<void> {
  const check = compileStrict(schema);
  const wrong: string[] = [];
  for (const [label, input, accepted] of rows) {
    const v = await judge(dto, check, input, options);
    if (v.schema !== accepted || v.server !== accepted) wrong.push(`${label}: expected ${accepted}, schema ${v.schema}, server ${v.server}`);
  }
  expect(wrong).toEqual([]);
}

/**
 * The one allowed disagreement: the published schema accepts, class-validator refines and the
 * server refuses (a rule a schema cannot state). Each test that shows one names it here.
 */
export const REFINEMENTS = {
  /** `@ValidateIf(fn)`: when `fn` holds the validators run; the schema cannot run `fn`, so it leaves the field open. */
  CONDITION_TRUE_VALIDATES: { schema: true, server: false },
  /** `@Matches(/x/i)`: a JSON Schema pattern has no flags, so none is published and class-validator checks the regex. */
  REGEX_WITH_FLAGS: { schema: true, server: false },
  /** `@IsUrl()` refuses what `format: "uri"` takes: other schemes (`mailto:`), and hosts without a TLD (`localhost`) unless `require_tld: false`. */
  URL_RULES_OF_IS_URL: { schema: true, server: false },
} as const satisfies Record<string, Verdict>;
