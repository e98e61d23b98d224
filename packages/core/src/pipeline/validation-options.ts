/**
 * How arguments become DTO instances and are validated. The schema generator's tests use the
 * same options, so the JSON Schema a client sees and the validator that runs agree.
 */
import type { ClassTransformOptions } from 'class-transformer';
import type { ValidatorOptions } from 'class-validator';

/** plainToInstance options: property initialisers act as defaults for absent fields. */
export const TRANSFORM_OPTIONS: ClassTransformOptions = { exposeDefaultValues: true };

/** validate options: unknown properties are stripped, unknown objects refused. */
export const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: false,
  // Inputs are always class instances made by plainToInstance; a DTO with no decorated field must still accept {}.
  forbidUnknownValues: false,
  validationError: { target: false, value: false },
};
