/**
 * Definition-time errors of the DTO -> JSON Schema step. Each has a stable code and a message
 * that names the DTO and property and says what to change.
 */
import { DefinitionError } from '@typemcp/protocol';
import { CoreErrorCode } from '../errors.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';

/** A DTO property that class-validator cannot see, so input for it would silently vanish. */
export function undecoratedProperty(dto: ClassType, property: string, seenThrough: 'a @Description' | 'an initial value' | 'a class field'): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.UndecoratedProperty,
    `Property "${property}" of ${dto.name} has ${seenThrough} but no class-validator decorator, so it would be missing from the ` +
      'JSON Schema and stripped from the arguments. Add a validator such as @IsString(), @IsInt() or @ValidateNested() ' +
      '(with @IsOptional() if it may be omitted, or @Allow() to accept any value).',
  );
}

/** Validators on one property that no single value can satisfy, e.g. `@IsString() @Min(1)`. */
export function conflictingTypes(dto: ClassType, property: string, types: string[]): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.ConflictingValidators,
    `The validators on ${dto.name}.${property} require a value that is at once ${types.join(' and ')}, so every input would be ` +
      'rejected. Remove the validators that do not match the property type.',
  );
}

/** `@ValidateNested()` without `@Type(() => X)`: the value stays a plain object and always fails validation. */
export function untypedNested(dto: ClassType, property: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.UntypedNested,
    `${dto.name}.${property} has @ValidateNested() but no @Type(() => Dto) from class-transformer, so the argument is never ` +
      'turned into a DTO instance and always fails validation. Add @Type(() => TheNestedClass).',
  );
}

/** `@IsDate()` without `@Type(() => Date)`: JSON has no dates, so the string never becomes one and always fails. */
export function untypedDate(dto: ClassType, property: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.UntypedDate,
    `${dto.name}.${property} has @IsDate() but no @Type(() => Date) from class-transformer: JSON carries a date as a string, ` +
      'which @IsDate() always refuses. Add @Type(() => Date) (the field then takes an ISO 8601 date-time such as ' +
      '2024-05-01T10:20:30Z and holds a Date), or declare a string field with @IsISO8601().',
  );
}
