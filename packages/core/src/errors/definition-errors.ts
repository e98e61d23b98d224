/**
 * Definition-time errors: thrown by createServer() while it builds, never while serving; and the
 * start-up warnings for what builds but is probably a mistake. Each has a stable code; each
 * message names the class and member and says what to change.
 */
import { DefinitionError } from '@typemcp/protocol';
import { CoreErrorCode, DUPLICATE_CODES } from '../errors.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { DefinitionWarning } from '../server/server-options.interface.js';

const where = (target: ClassType, method: string) => `${target.name}.${method}`;

export function notAService(target: ClassType): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.NotAService,
    `${target.name} was passed to createServer({ services }) but is not decorated with @McpService(); add the decorator.`,
  );
}

export function invalidTaskSupport(target: ClassType, method: string, value: unknown): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.InvalidTaskSupport,
    `@Tool on ${where(target, method)} has task: ${JSON.stringify(value) ?? String(value)}; use 'optional' (a task when the client can take one) or 'required' (only as a task), or { support, retries }, or leave it out.`,
  );
}

export function outputReturnType(target: ClassType, method: string, output: ClassType, returned: { name: string }): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.OutputReturnType,
    `${where(target, method)} declares @Tool({ output: ${output.name} }) but returns ${returned.name.toLowerCase()}, and a tool with an ` +
      `output schema must answer with structured content; return an object of ${output.name} (throw a ToolError for a message ` +
      'the model should read), or leave output out to answer with text.',
  );
}

/** `Class` or `Class.method`: where ExtensionData was written. */
const placeOf = (target: ClassType, method?: string) => (method === undefined ? target.name : where(target, method));

export function invalidExtensionData(target: ClassType, method: string | undefined, id: unknown, problem: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.InvalidExtensionData,
    `ExtensionData(${JSON.stringify(id) ?? String(id)}) on ${placeOf(target, method)}: ${problem}.`,
  );
}

export function extensionNotInstalled(target: ClassType, method: string | undefined, id: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.ExtensionNotInstalled,
    `${placeOf(target, method)} carries data for the extension "${id}", which this server does not install; add it to createServer({ extensions: [...] }) (extensions are opt-in), or serve the class from a server that has it.`,
  );
}

export function missingDescription(kind: 'Tool' | 'Prompt', target: ClassType, method: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.MissingDescription,
    `@${kind} on ${where(target, method)} has no description; add @${kind}({ description: '...' }) (clients show it to the model).`,
  );
}

export function duplicateName(kind: keyof typeof DUPLICATE_CODES, name: string, first: string, second: string): DefinitionError {
  return new DefinitionError(
    DUPLICATE_CODES[kind],
    `${kind} "${name}" is declared by both ${first} and ${second}; give one of them another name with the "name" option.`,
  );
}

export function unreflectableParameter(target: ClassType, method: string, index: number, type: unknown): DefinitionError {
  const seen = typeof type === 'function' ? type.name : String(type);
  return new DefinitionError(
    CoreErrorCode.UnreflectableParameter,
    `Parameter ${index + 1} of ${where(target, method)} has a type reflection cannot see (${seen}: an interface, a union, a primitive or any). ` +
      'Declare it as a class DTO with class-validator decorators, or as Context.',
  );
}

export function missingParamTypes(target: ClassType, method: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.NoTypeMetadata,
    `${where(target, method)} takes parameters but no type metadata was emitted; enable "experimentalDecorators" and ` +
      '"emitDecoratorMetadata" in tsconfig.json (and decoratorMetadata in swc/babel) and import @typemcp/core before your classes.',
  );
}

/** `Class.constructor parameter N (name)`: where a dependency is asked for. */
export function constructorParameter(target: ClassType, index: number, name?: string): string {
  return `${target.name}.constructor parameter ${index + 1}${name ? ` (${name})` : ''}`;
}

/** A dependency the container cannot build: `needed` is the missing class or token, `by` who asks for it. */
export function unresolvedDependency(needed: string, by?: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.UnresolvedDependency,
    `Add @Injectable() to class ${needed}, or provide it in createServer({ providers: [{ provide: ${needed}, useClass | useValue }] })` +
      (by ? `: ${by} needs it and the container cannot build it.` : ': the container cannot build it.'),
  );
}

export function untypedDependency(target: ClassType, index: number, name: string | undefined, type: unknown): DefinitionError {
  const seen = typeof type === 'function' ? type.name : String(type);
  return new DefinitionError(
    CoreErrorCode.UntypedDependency,
    `${constructorParameter(target, index, name)} has a type the container cannot inject (${seen}: an interface, a type alias, ` +
      'a union, a primitive or any), so it would receive undefined. Type it as a class: an @Injectable() class, or a class or ' +
      'abstract class bound in createServer({ providers: [{ provide: TheClass, useClass | useValue }] }).',
  );
}

export function multipleInputs(
  target: ClassType,
  method: string,
  first: { index: number; type: ClassType },
  second: { index: number; type: ClassType },
): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.MultipleInputs,
    `${where(target, method)} takes two input DTOs: parameter ${first.index + 1} (${first.type.name}) and parameter ${second.index + 1} ` +
      `(${second.type.name}), but TypeMCP takes one input DTO per method; merge the fields into one class (extend one from the other, or nest one as a property).`,
  );
}

/** An OAuth scope token (RFC 6749 section 3.3): printable ASCII without space, `"` or backslash. */
export const SCOPE_RULE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function invalidScope(scope: unknown, target: ClassType): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.InvalidScope,
    `${target.name} declares the scope ${JSON.stringify(scope)}, but a scope is a non-empty string of printable ASCII without spaces, quotes or backslashes (RFC 6749 section 3.3).`,
  );
}

/** MCP 2025-11-25 tool naming guidance, applied to prompts too: 1-128 of A-Z a-z 0-9 _ - . */
export const NAME_RULE = /^[A-Za-z0-9_.-]{1,128}$/;

export function invalidName(kind: 'Tool' | 'Prompt' | 'Resource', name: string, target: ClassType, method: string): DefinitionError {
  const rule =
    kind === 'Resource'
      ? 'a resource name must be a non-empty string'
      : `${kind.toLowerCase()} names are 1 to 128 characters of A-Z a-z 0-9 _ - . (no spaces, slashes or other characters)`;
  return new DefinitionError(
    CoreErrorCode.InvalidName,
    `@${kind} on ${where(target, method)} has the name ${JSON.stringify(name)}, but ${rule}; set another with the "name" option.`,
  );
}

export function templateVariableNotInDto(
  template: string,
  variable: string,
  target: ClassType,
  method: string,
  dto: ClassType,
  properties: string[],
): DefinitionError {
  const has = properties.length ? `has ${properties.join(', ')}` : 'has no properties';
  return new DefinitionError(
    CoreErrorCode.TemplateVariableNotInDto,
    `The variable "${variable}" of @Resource('${template}') on ${where(target, method)} has no property in ${dto.name}, which ${has}; ` +
      `rename the variable or add a decorated "${variable}" property to ${dto.name}.`,
  );
}

export function dtoPropertyNotInTemplate(template: string, property: string, target: ClassType, method: string, dto: ClassType): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.DtoPropertyNotInTemplate,
    `${dto.name}.${property} is required, but @Resource('${template}') on ${where(target, method)} has no {${property}} variable to fill it, ` +
      `so every read would fail; add {${property}} to the template or mark the property @IsOptional().`,
  );
}

export function unknownCompletionTarget(origin: string, what: string): DefinitionError {
  return new DefinitionError(
    CoreErrorCode.UnknownCompletionTarget,
    `@Complete on ${origin} refers to ${what}, which no served service declares; fix the name or the argument.`,
  );
}

/** A warning, not an error: the server still starts. */
export function unservedService(target: ClassType): DefinitionWarning {
  return {
    code: CoreErrorCode.UnservedService,
    message:
      `${target.name} is declared with @McpService() but no server serves it; add it to createServer({ services }), ` +
      'or declare it @McpService({ deferred: true }) if server.addService() adds it at run time.',
  };
}

export function invalidInterceptor(where: string, value: unknown): DefinitionError {
  const seen = typeof value === 'function' ? `class ${value.name}` : value === null ? 'null' : typeof value;
  return new DefinitionError(
    CoreErrorCode.InvalidInterceptor,
    `An interceptor of ${where} is not usable (${seen} without an intercept(call, next) method); give a class implementing Interceptor, or an instance of one.`,
  );
}

export function checkReadinessOptions(target: ClassType, method: string, options: { timeoutMs?: unknown }): void {
  const t = options.timeoutMs;
  if (typeof (target.prototype as Record<string, unknown>)[method] !== 'function') {
    throw new DefinitionError(CoreErrorCode.InvalidReadinessCheck, `@ReadinessCheck() on ${where(target, method)}: put it on a method.`);
  }
  if (t !== undefined && !(typeof t === 'number' && Number.isInteger(t) && t > 0)) {
    throw new DefinitionError(
      CoreErrorCode.InvalidReadinessCheck,
      `@ReadinessCheck() on ${where(target, method)} has timeoutMs: ${JSON.stringify(t) ?? typeof t}; give a positive integer of milliseconds, or leave it out (2000).`,
    );
  }
}

export function deprecatedDestroy(target: { name: string }): DefinitionWarning {
  return {
    code: CoreErrorCode.DeprecatedDestroy,
    message: `${target.name} has a destroy() method and no onDestroy(): it is still called when the server closes, but rename it onDestroy() (implements OnDestroy), the documented stop hook.`,
  };
}
