/**
 * Plain JSON in, validated DTO instance out: class-transformer builds the instance,
 * class-validator checks it. Failures are returned as readable lines naming each field and
 * constraint, for the caller to turn into a tool error or a -32602.
 */
import { plainToInstance, type ClassTransformOptions } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { TRANSFORM_OPTIONS, VALIDATOR_OPTIONS } from './validation-options.js';

/** String-valued inputs (URI template variables, prompt arguments) are converted by property type. */
const CONVERTING_OPTIONS: ClassTransformOptions = { ...TRANSFORM_OPTIONS, enableImplicitConversion: true };

/** The outcome of {@link toDto}. */
export type DtoResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

function flatten(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const field = path ? `${path}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) =>
      // class-validator messages start with the property name; keep the full path instead.
      message.startsWith(`${e.property} `) ? `${field}${message.slice(e.property.length)}` : `${field}: ${message}`,
    );
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Converts and validates `plain` as an instance of `dto`. */
export async function toDto<T>(dto: ClassType<T>, plain: unknown, convertStrings = false): Promise<DtoResult<T>> {
  const value = plainToInstance(dto, plain ?? {}, convertStrings ? CONVERTING_OPTIONS : TRANSFORM_OPTIONS) as T;
  const errors = await validate(value as object, VALIDATOR_OPTIONS);
  return errors.length ? { ok: false, problems: flatten(errors) } : { ok: true, value };
}
