/**
 * Definition-time errors: thrown by createServer() while it builds, never while serving. Each has
 * a stable code; each message names the class and member and says what to change.
 */
import { DefinitionError } from '@typemcp/protocol';
import type { ClassType } from '../metadata/metadata-args.interface.js';

const where = (target: ClassType, method: string) => `${target.name}.${method}`;

export function notAService(target: ClassType): DefinitionError {
  return new DefinitionError(
    'TYPEMCP_ERR_NOT_A_SERVICE',
    `${target.name} was passed to createServer({ services }) but is not decorated with @McpService(); add the decorator.`,
  );
}

export function missingDescription(kind: 'Tool' | 'Prompt', target: ClassType, method: string): DefinitionError {
  return new DefinitionError(
    'TYPEMCP_ERR_MISSING_DESCRIPTION',
    `@${kind} on ${where(target, method)} has no description; add @${kind}({ description: '...' }) (clients show it to the model).`,
  );
}

export function duplicateName(kind: string, name: string, first: string, second: string): DefinitionError {
  return new DefinitionError(
    `TYPEMCP_ERR_DUPLICATE_${kind.toUpperCase()}`,
    `${kind} "${name}" is declared by both ${first} and ${second}; give one of them another name with the "name" option.`,
  );
}

export function unreflectableParameter(target: ClassType, method: string, index: number, type: unknown): DefinitionError {
  const seen = typeof type === 'function' ? type.name : String(type);
  return new DefinitionError(
    'TYPEMCP_ERR_UNREFLECTABLE_PARAMETER',
    `Parameter ${index + 1} of ${where(target, method)} has a type reflection cannot see (${seen}: an interface, a union, a primitive or any). ` +
      'Declare it as a class DTO with class-validator decorators, or as Context.',
  );
}

export function missingParamTypes(target: ClassType, method: string): DefinitionError {
  return new DefinitionError(
    'TYPEMCP_ERR_NO_TYPE_METADATA',
    `${where(target, method)} takes parameters but no type metadata was emitted; enable "experimentalDecorators" and ` +
      '"emitDecoratorMetadata" in tsconfig.json (and decoratorMetadata in swc/babel) and import @typemcp/core before your classes.',
  );
}

export function unresolvedDependency(target: ClassType, detail: string): DefinitionError {
  return new DefinitionError(
    'TYPEMCP_ERR_UNRESOLVED_DEPENDENCY',
    `${target.name} could not be built: ${detail}. Mark each constructor dependency with @Injectable() or pass it in createServer({ providers }).`,
  );
}

export function unknownCompletionTarget(origin: string, what: string): DefinitionError {
  return new DefinitionError(
    'TYPEMCP_ERR_UNKNOWN_COMPLETION_TARGET',
    `@Complete on ${origin} refers to ${what}, which no served service declares; fix the name or the argument.`,
  );
}
