/**
 * class-validator (with validator.js and libphonenumber-js, about 320 modules) and
 * class-transformer's main entry, loaded on first use instead of when `@typemcp/core` is imported.
 * A stdio server is started anew for every client session, and one whose features take no DTO
 * never needs either; a DTO's own decorators load class-validator anyway, before any of this runs.
 * Every value import of these two packages in core goes through here (types are free).
 */
import type * as ClassTransformerModule from 'class-transformer';
import type * as ClassValidatorModule from 'class-validator';

let validatorModule: typeof ClassValidatorModule | undefined;
let transformerModule: typeof ClassTransformerModule | undefined;

/** `require('class-validator')`, once. */
export function classValidator(): typeof ClassValidatorModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (validatorModule ??= require('class-validator') as typeof ClassValidatorModule);
}

/** `require('class-transformer')`, once. */
export function classTransformer(): typeof ClassTransformerModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (transformerModule ??= require('class-transformer') as typeof ClassTransformerModule);
}

/** What the schema code reads of class-validator for every DTO, read once: its exports are getters. */
export interface ValidatorNames {
  getMetadataStorage: typeof ClassValidatorModule.getMetadataStorage;
  IS_DATE: string;
  IS_EMPTY: string;
  IS_OPTIONAL: string;
  ValidationTypes: typeof ClassValidatorModule.ValidationTypes;
}

let names: ValidatorNames | undefined;

/** class-validator's storage accessor and the validation type names, read once from its exports. */
export function validatorNames(): ValidatorNames {
  if (names) return names;
  const { getMetadataStorage, IS_DATE, IS_EMPTY, IS_OPTIONAL, ValidationTypes } = classValidator();
  return (names = { getMetadataStorage, IS_DATE, IS_EMPTY, IS_OPTIONAL, ValidationTypes });
}
