/**
 * Turns the decorator records of one service class into definitions: names, JSON Schemas,
 * prompt arguments and invocation plans, checked for the mistakes a developer can make.
 * Runs once per class at start-up; nothing here runs per request.
 */
import { UriTemplate, type JsonObject, type PromptArgument } from '@typemcp/protocol';
import { Context } from '../context/context.js';
import {
  dtoPropertyNotInTemplate,
  invalidName,
  invalidTaskSupport,
  missingDescription,
  invalidScope,
  SCOPE_RULE,
  missingParamTypes,
  multipleInputs,
  NAME_RULE,
  notAService,
  outputReturnType,
  templateVariableNotInDto,
  unreflectableParameter,
} from '../errors/definition-errors.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { MetadataStorage } from '../metadata/metadata-storage.js';
import type { SchemaSource } from '../manifest/schema-source.js';
import { defineKey } from '../schema/schema-walk.js';
import type { Invocation, ServiceDefinition } from './service-definition.interface.js';
import { extensionDataOf, extensionMembers } from './extension-members.builder.js';

/** Declared return types no output DTO's object can be (a Promise, a union or no annotation say nothing). */
const NOT_OBJECTS = new Set<unknown>([String, Number, Boolean, Array, Symbol, BigInt]);

const NOT_DTO = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, BigInt, Date, undefined]);

/** Drops keys whose value is undefined, so definitions carry only what was declared. */
function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) defineKey(out, key, v);
  return out as T;
}

function invocation(target: ClassType, method: string, paramTypes: unknown[], rawInput = false): Invocation {
  const fn = (target.prototype as Record<string, (...args: unknown[]) => unknown>)[method];
  const arity = Math.max(paramTypes.length, fn.length);
  if (arity > 0 && paramTypes.length === 0) throw missingParamTypes(target, method);
  const plan: Invocation = { method, arity, contextIndexes: [], origin: `${target.name}.${method}` };
  paramTypes.forEach((type, index) => {
    if (type === Context) plan.contextIndexes.push(index);
    else if (rawInput && !plan.input && type === Object) plan.input = { type: Object as ClassType, index, raw: true };
    else if (typeof type === 'function' && !NOT_DTO.has(type)) {
      if (plan.input) throw multipleInputs(target, method, plan.input, { type: type as ClassType, index });
      plan.input = { type: type as ClassType, index };
    } else throw unreflectableParameter(target, method, index, type);
  });
  return plan;
}

/** Tool and prompt names follow the MCP tool naming rule; a resource name is any non-empty string. */
function checkScope(scope: unknown, target: ClassType): void {
  if (typeof scope !== 'string' || !SCOPE_RULE.test(scope)) throw invalidScope(scope, target);
}

function checkName(kind: 'Tool' | 'Prompt' | 'Resource', name: unknown, target: ClassType, method: string): string {
  const valid = typeof name === 'string' && (kind === 'Resource' ? name.length > 0 : NAME_RULE.test(name));
  if (!valid) throw invalidName(kind, String(name), target, method);
  return name;
}

/**
 * Every template variable must land on a params DTO property (the rest are stripped, so the
 * read would fail blaming the URI), and every required property must have a variable.
 */
function checkTemplateParams(template: string, plan: Invocation, schemas: SchemaSource, target: ClassType): void {
  if (!plan.input) return;
  const dto = plan.input.type;
  const schema = schemas.schemaOf(dto, plan.origin, 'input');
  const properties = Object.keys((schema.properties ?? {}) as JsonObject);
  const variables = new UriTemplate(template).variableNames;
  for (const variable of variables) {
    if (!properties.includes(variable)) throw templateVariableNotInDto(template, variable, target, plan.method, dto, properties);
  }
  for (const property of (schema.required ?? []) as string[]) {
    if (!variables.includes(property)) throw dtoPropertyNotInTemplate(template, property, target, plan.method, dto);
  }
}

function promptArguments(schema: JsonObject): PromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) =>
    compact({
      name,
      title: property.title as string | undefined,
      description: property.description as string | undefined,
      required: required.has(name),
    }),
  );
}

/** Builds the definitions of one `@McpService()` class. */
export function buildServiceDefinition(target: ClassType, storage: MetadataStorage, schemas: SchemaSource): ServiceDefinition {
  if (storage.classOf(target)?.kind !== 'service') throw notAService(target);
  const emptyInput = { type: 'object' as const, properties: {} };
  const classScopes = storage.classOf(target)?.scopes ?? [];
  // The class's scopes and the member's, once each; undefined when neither declares any.
  const scopesOf = (own?: readonly string[]): readonly string[] | undefined => {
    if (classScopes.length === 0 && !own?.length) return undefined;
    const all = [...new Set([...classScopes, ...(own ?? [])])];
    for (const scope of all) checkScope(scope, target);
    return all.length ? all : undefined;
  };

  const tools = storage.membersOf(storage.tools, target).map(({ method, paramTypes, options }) => {
    if (!options?.description) throw missingDescription('Tool', target, method);
    const { output, inputSchema, guard, scopes, task, ...rest } = options;
    const support = typeof task === 'object' && task !== null ? task.support : task;
    if (task !== undefined && support !== 'optional' && support !== 'required') throw invalidTaskSupport(target, method, task);
    const plan = invocation(target, method, paramTypes, inputSchema !== undefined);
    const returned = Reflect.getMetadata?.('design:returntype', target.prototype as object, method) as { name: string } | undefined;
    if (output && NOT_OBJECTS.has(returned)) throw outputReturnType(target, method, output, returned!);
    return {
      definition: compact({
        ...rest,
        name: checkName('Tool', options.name ?? method, target, method),
        inputSchema: inputSchema ?? (plan.input ? schemas.schemaOf(plan.input.type, plan.origin, 'input') : emptyInput),
        outputSchema: output ? schemas.schemaOf(output, plan.origin, 'output') : undefined,
      }),
      invocation: plan,
      output,
      guard,
      scopes: scopesOf(scopes),
      task: support ? { support, ...(typeof task === 'object' && task.retries !== undefined ? { retries: task.retries } : {}) } : undefined,
      extensions: extensionDataOf(storage, target, method),
    };
  });

  const resources = storage.membersOf(storage.resources, target).map(({ method, paramTypes, uri, options }) => {
    const template = UriTemplate.isTemplate(uri);
    const { size, cache, scopes, ...base } = compact({ ...options, name: checkName('Resource', options.name ?? method, target, method) });
    const plan = invocation(target, method, paramTypes);
    if (template) checkTemplateParams(uri, plan, schemas, target);
    return {
      definition: template ? { ...base, uriTemplate: uri } : compact({ ...base, uri, size }),
      template,
      cache,
      invocation: plan,
      scopes: scopesOf(scopes),
      extensions: extensionDataOf(storage, target, method),
    };
  });

  const prompts = storage.membersOf(storage.prompts, target).map(({ method, paramTypes, options }) => {
    if (!options?.description) throw missingDescription('Prompt', target, method);
    const plan = invocation(target, method, paramTypes);
    const args = plan.input ? promptArguments(schemas.schemaOf(plan.input.type, plan.origin, 'input')) : undefined;
    const name = checkName('Prompt', options.name ?? method, target, method);
    const { scopes, ...rest } = options;
    return {
      definition: compact({ ...rest, name, arguments: args?.length ? args : undefined }),
      invocation: plan,
      scopes: scopesOf(scopes),
      extensions: extensionDataOf(storage, target, method),
    };
  });

  const completions = storage.membersOf(storage.completes, target).map(({ method, options }) => ({
    options,
    invocation: { method, arity: 3, contextIndexes: [2], origin: `${target.name}.${method}` },
  }));

  const features = { tools, resources, prompts };
  const members = extensionMembers(storage, target, features, (method, paramTypes) => invocation(target, method, paramTypes));
  return { target, tools, resources, prompts, completions, extensionData: extensionDataOf(storage, target), extensionMembers: members };
}
