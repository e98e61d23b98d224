/**
 * The one check every input and output of a DTO passes: the JSON Schema TypeMCP publishes for
 * it, compiled once per DTO with Ajv (draft 2020-12), then class-validator for what a schema
 * cannot say (custom and async constraints, `@ValidateIf`, regexes with flags...). So the server
 * never accepts what its published schema refuses, and never returns what it refuses.
 *
 * class-validator is skipped for a DTO whose every constraint the schema states exactly (the
 * agreement tests prove those equivalent); that is most DTOs, and it is the slow half.
 */
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { ValidationError } from 'class-validator';
import { type JsonObject } from '@typemcp/protocol';
import { isThenable } from '@typemcp/protocol/internal';
import { serialiseOutput } from '../content/output-serialiser.js';
import { isNullableCondition } from '../decorators/nullable.decorator.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { classTransformerStorage } from '../schema/class-transformer-storage.js';
import { validationMetadataOf, type ValidationMeta } from '../schema/dto-properties.reader.js';
import type { DtoSchemaFactory } from '../schema/index.js';
import { asyncConstraintsRegistered, convertStrings } from './argument-pipeline.js';
import { flatValidator } from '../config/flat-schema-check.js';
import { nonFiniteProblems, openToNonFinite } from './finite-numbers.js';
import { newAjv } from './ajv-instance.js';
import { CodeGenerationError, precompiledValidator } from './precompiled-validators.js';
import { schemaProblems } from './problems.js';
import { classTransformer, classValidator } from './validation-libraries.js';
import { TRANSFORM_OPTIONS, VALIDATOR_OPTIONS } from './validation-options.js';

/** The outcome of a check: the value to use, or one message per fault. */
export type DtoResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

// class-validator rules whose JSON Schema (see schema-converters.ts) accepts exactly what they do.
const EXACT_RULES = new Set([
  'isString',
  'isInt',
  'isBoolean',
  'min',
  'max',
  'isIn',
  'isEnum',
  'isArray',
  'arrayMinSize',
  'arrayMaxSize',
  'arrayNotEmpty',
  'isPositive',
  'isNegative',
  'isNotEmpty',
]);

interface Plan {
  /** Ajv's validate function, or one of its shape (flat-schema-check.ts). */
  check: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
  /** The schema states every constraint: class-validator would add nothing. */
  exact: boolean;
  /** Inputs only: the schema leaves a position open to any value, where Ajv cannot refuse Infinity (see finite-numbers.ts). */
  open?: boolean;
  /**
   * Inputs only: the declared properties plainToInstance copies as they are when their value is a
   * JSON scalar (no `@Type`, `@Transform`, `@Expose` or `@Exclude`, not a method or getter);
   * undefined when class-transformer metadata on the DTO could change any key.
   */
  scalars?: ReadonlySet<string>;
}

function flatten(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const field = path ? `${path}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) =>
      // class-validator messages start with the property name; name the full path instead.
      message.startsWith(`${e.property} `) ? `\`${field}\`${message.slice(e.property.length)}` : `\`${field}\`: ${message}`,
    );
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

const outcome = <T>(value: T, errors: ValidationError[]): DtoResult<T> => (errors.length ? { ok: false, problems: flatten(errors) } : { ok: true, value });

/** class-validator on a DTO instance, for what its schema could not say (loadConfig's flat path runs it too). */
export function refine<T>(value: T): DtoResult<T> | Promise<DtoResult<T>> {
  // What class-validator's validate() and validateSync() call, without its index's own functions
  // (which would load it whole: lazy-class-validator.ts); its container is still the one
  // useContainer() sets.
  const { getFromContainer, Validator } = classValidator();
  const validator = getFromContainer(Validator);
  if (asyncConstraintsRegistered()) return validator.validate(value as object, VALIDATOR_OPTIONS).then((errors) => outcome(value, errors));
  return outcome(value, validator.validateSync(value as object, VALIDATOR_OPTIONS));
}

/** Checks DTO inputs and outputs for one server (one schema factory, one set of options). */
export class DtoValidator {
  private inputAjv?: Ajv2020;
  private outputAjv?: Ajv2020;
  private readonly inputs = new Map<ClassType, Plan>();
  private readonly outputs = new Map<ClassType, Plan>();
  private readonly answers = new Map<ClassType, Plan>();
  private readonly exactness = new Map<ClassType, boolean>();

  /** `schemas`: a DtoSchemaFactory, or a server's schema source (the manifest's schemas, else the factory's). */
  constructor(readonly schemas: Pick<DtoSchemaFactory, 'forClass' | 'unknownFields'>) {}

  /**
   * `plain` as a validated instance of `dto`. `convert` first turns numeric and boolean strings
   * into numbers and booleans where the property is declared so (URI template variables and
   * prompt arguments, which are always strings). Synchronous unless class-validator must run an
   * asynchronous constraint.
   */
  input<T>(dto: ClassType<T>, plain: unknown, convert = false): DtoResult<T> | Promise<DtoResult<T>> {
    return this.instance(dto, (convert ? convertStrings(dto, plain) : plain) ?? {}, this.plan(dto, 'input'));
  }

  /**
   * An accepted elicitation answer (`ctx.elicit(Dto)`) as a validated instance of `dto`, checked
   * as {@link input} checks arguments, except that a flat schema (the form's properties are
   * primitives: the specification's rule for forms) is checked without compiling it, with Ajv's
   * very errors (flat-schema-check.ts). `typemcp build` never sees these DTOs, so no precompiled
   * validator is there for them; this way they are still checked where code generation is
   * forbidden (workerd), and the first answer loads no Ajv.
   */
  answer<T>(dto: ClassType<T>, plain: unknown): DtoResult<T> | Promise<DtoResult<T>> {
    return this.instance(dto, plain ?? {}, this.plan(dto, 'answer'));
  }

  private instance<T>(dto: ClassType<T>, data: unknown, plan: Plan): DtoResult<T> | Promise<DtoResult<T>> {
    if (!plan.check(data)) {
      const problems = schemaProblems(plan.check.errors as ErrorObject[]);
      return { ok: false, problems: plan.open ? [...new Set([...problems, ...nonFiniteProblems(data)])] : problems };
    }
    if (plan.open) {
      const problems = nonFiniteProblems(data);
      if (problems.length > 0) return { ok: false, problems };
    }
    const value =
      (plan.scalars && scalarInstance(dto, data as object, plan.scalars)) ?? (classTransformer().plainToInstance(dto, data, TRANSFORM_OPTIONS) as T);
    if (plan.exact) return { ok: true, value };
    return refine(value);
  }

  /**
   * A handler's return value as the plain JSON sent as `structuredContent`: serialised as the
   * client will receive it (`serialiseOutput`: a Date as its ISO string, `toJSON()`, the DTO's
   * class-transformer decorators), then checked against the published output schema, with fields
   * the DTO does not declare removed when that schema is closed (`unknownFields: 'reject'`).
   * @throws UnrepresentableResultError for what JSON cannot carry.
   */
  output(dto: ClassType, value: unknown): DtoResult<JsonObject> | Promise<DtoResult<JsonObject>> {
    const plain = serialiseOutput(dto, value);
    const plan = this.plan(dto, 'output');
    if (!plan.check(plain)) return { ok: false, problems: schemaProblems(plan.check.errors as ErrorObject[], 'the result') };
    if (plan.exact) return { ok: true, value: plain };
    const checked = refine(classTransformer().plainToInstance(dto, structuredClone(plain), TRANSFORM_OPTIONS) as object);
    const settle = (r: DtoResult<object>): DtoResult<JsonObject> => (r.ok ? { ok: true, value: plain } : r);
    return isThenable(checked) ? checked.then(settle) : settle(checked);
  }

  private plan(dto: ClassType, use: 'input' | 'output' | 'answer'): Plan {
    const plans = use === 'input' ? this.inputs : use === 'output' ? this.outputs : this.answers;
    const direction = use === 'output' ? 'output' : 'input';
    let plan = plans.get(dto);
    if (!plan) {
      const schema = this.schemas.forClass(dto);
      // The validator `typemcp build` compiled from this very schema (an answer's: a flat check), else Ajv compiles one now.
      const check =
        precompiledValidator(direction, schema) ??
        (use === 'answer' ? flatValidator(schema as Record<string, unknown>) : undefined) ??
        this.compile(dto, direction, schema);
      // With undeclared fields stripped rather than refused, class-validator's whitelist strips them.
      plan = { check, exact: this.schemas.unknownFields === 'reject' && this.isExact(dto) };
      if (direction === 'input') {
        plan.scalars = copiedScalars(dto, Object.keys((schema.properties ?? {}) as object));
        plan.open = openToNonFinite(schema);
      }
      plans.set(dto, plan);
    }
    return plan;
  }

  private compile(dto: ClassType, direction: 'input' | 'output', schema: object): ValidateFunction {
    const ajv = direction === 'input' ? (this.inputAjv ??= newAjv(false)) : (this.outputAjv ??= newAjv(true));
    try {
      return ajv.compile(schema);
    } catch (error) {
      throw error instanceof EvalError ? new CodeGenerationError(dto, direction, error) : error;
    }
  }

  /** True when every rule on `dto` (and the DTOs nested in it) is one the schema states exactly. */
  private isExact(dto: ClassType): boolean {
    const known = this.exactness.get(dto);
    if (known !== undefined) return known;
    this.exactness.set(dto, true); // a recursive DTO is exact if the rest of it is
    const metas = validationMetadataOf(dto);
    const exact =
      classTransformerStorage.getExcludedMetadatas(dto).length === 0 &&
      classTransformerStorage.getExposedMetadatas(dto).length === 0 &&
      metas.every((meta) => this.isExactRule(dto, meta));
    this.exactness.set(dto, exact);
    return exact;
  }

  private isExactRule(dto: ClassType, meta: ValidationMeta): boolean {
    if (meta.groups?.length || meta.always || meta.validateIf || meta.context !== undefined) return false;
    if (classTransformerStorage.findTransformMetadatas(dto, meta.propertyName, 0).length > 0) return false;
    const typeFn = classTransformerStorage.findTypeMetadata(dto, meta.propertyName)?.typeFunction;
    const { ValidationTypes } = classValidator();
    switch (meta.type) {
      case ValidationTypes.IS_DEFINED:
      case ValidationTypes.WHITELIST:
        return !typeFn;
      case ValidationTypes.CONDITIONAL_VALIDATION:
        return meta.name === 'isOptional' || isNullableCondition(meta.constraints?.[0]);
      case ValidationTypes.NESTED_VALIDATION: {
        let child: unknown;
        try {
          child = typeFn?.();
        } catch {
          return false;
        }
        return typeof child === 'function' && this.isExact(child as ClassType);
      }
      case ValidationTypes.CUSTOM_VALIDATION:
        if (typeFn) return false;
        if (meta.name === 'isNumber') return !(meta.constraints?.[0] as { maxDecimalPlaces?: number } | undefined)?.maxDecimalPlaces;
        return EXACT_RULES.has(meta.name ?? '');
      default:
        return false;
    }
  }
}

/**
 * `plainToInstance(dto, plain, TRANSFORM_OPTIONS)`, built without class-transformer's main entry
 * when every field is a JSON scalar it would copy as it is (see `Plan.scalars`): loadConfig's
 * flat path, at start-up.
 */
export function instanceOf<T>(dto: ClassType<T>, plain: object, properties: readonly string[]): T {
  const scalars = copiedScalars(dto, properties);
  return (scalars && scalarInstance(dto, plain, scalars)) ?? (classTransformer().plainToInstance(dto, plain, TRANSFORM_OPTIONS) as T);
}

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`. */
const PLAIN_TO_CLASS = 0;

/** See `Plan.scalars`: which of `properties` plainToInstance copies unchanged when they hold a JSON scalar. */
function copiedScalars(dto: ClassType, properties: readonly string[]): ReadonlySet<string> | undefined {
  const storage = classTransformerStorage;
  if (storage.getStrategy(dto) !== 'none' || storage.getExposedMetadatas(dto).length > 0 || storage.getExcludedMetadatas(dto).length > 0) return undefined;
  const prototype = dto.prototype as object;
  return new Set(
    properties.filter((name) => {
      if (name === '__proto__' || name === 'constructor') return false;
      if (storage.findTypeMetadata(dto, name) || storage.findTransformMetadatas(dto, name, PLAIN_TO_CLASS).length > 0) return false;
      // plainToInstance skips a key the prototype defines without a setter (a method, a getter).
      const own = Object.getOwnPropertyDescriptor(prototype, name);
      return !own || own.set !== undefined;
    }),
  );
}

/**
 * What `plainToInstance(dto, data, TRANSFORM_OPTIONS)` returns when every field of `data` is one
 * of `scalars` holding a string, number, boolean or null, built without class-transformer's
 * per-call metadata lookups (they were most of the cost of a small DTO's check); undefined for
 * any other input, which takes class-transformer's own path.
 */
function scalarInstance<T>(dto: ClassType<T>, data: object, scalars: ReadonlySet<string>): T | undefined {
  const fields = data as Record<string, unknown>;
  const keys = Object.keys(fields);
  for (let i = 0; i < keys.length; i++) {
    const value = fields[keys[i]];
    const type = typeof value;
    if (!scalars.has(keys[i]) || !(type === 'string' || type === 'number' || type === 'boolean' || value === null)) return undefined;
  }
  const instance = new dto() as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) {
    // As plainToInstance does: a field never replaces a function the instance already has.
    if (instance[keys[i]] instanceof Function) continue;
    instance[keys[i]] = fields[keys[i]];
  }
  return instance as T;
}
