/**
 * A served class meets the installed extensions: every `ExtensionData` identifier it carries
 * must be installed, and each extension with a `bindService` receives the class's members that
 * carry its data, callable on the instance. Runs when a class is served, never per request.
 */
import { McpError, ErrorCode, type McpExtension, type RequestContext } from '@typemcp/protocol';
import { isThenable } from '@typemcp/protocol/internal';
import { caller } from '../builder/service.binder.js';
import type { BuiltExtensionMember, ServiceDefinition } from '../builder/service-definition.interface.js';
import { extensionNotInstalled } from '../errors/definition-errors.js';
import type { DtoResult, DtoValidator } from '../pipeline/dto-validator.js';
import type { ExtensionMember, ExtensionService, ServerExtension } from './server-extension.interface.js';

/** Throws unless every extension the class's data names is installed (`installed` by identifier). */
export function checkInstalled(def: ServiceDefinition, installed: (id: string) => McpExtension | undefined): void {
  const places: [string | undefined, Record<string, object> | undefined][] = [[undefined, def.extensionData]];
  for (const m of def.extensionMembers) places.push([m.method, m.data]);
  for (const [method, data] of places) {
    for (const id of Object.keys(data ?? {})) if (!installed(id)) throw extensionNotInstalled(def.target, method, id);
  }
}

/** `member` as an extension calls it: input validated against its DTO, then the method. */
function member(built: BuiltExtensionMember, id: string, instance: object, validator: DtoValidator): ExtensionMember {
  const { invocation } = built;
  const call = caller(instance, invocation, validator) as (dto: unknown, ctx: RequestContext) => unknown;
  const input = invocation.input?.raw ? undefined : invocation.input?.type;
  const checked = (result: DtoResult<unknown>, ctx: RequestContext) => {
    if (!result.ok) throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${invocation.origin}: ${result.problems.join('; ')}`);
    return call(result.value, ctx);
  };
  return {
    method: built.method,
    origin: invocation.origin,
    data: built.data[id],
    ...(built.feature ? { feature: built.feature } : {}),
    call: (value, ctx) => {
      if (!input) return call(value, ctx);
      const result = validator.input(input, value);
      return isThenable(result) ? result.then((r) => checked(r, ctx)) : checked(result, ctx);
    },
  };
}

/**
 * Calls each extension's `bindService` with what the class carries for it; returns the undo of
 * all of them. If one throws, those already bound are undone before it propagates.
 */
export function bindExtensions(
  def: ServiceDefinition,
  instance: object,
  extensions: readonly ServerExtension[],
  validator: DtoValidator,
  scopes: readonly string[] | undefined,
): () => void {
  const undo: (() => void)[] = [];
  const all = () => undo.reverse().forEach((u) => u());
  try {
    for (const extension of extensions) {
      if (typeof extension.bindService !== 'function') continue;
      const { id } = extension;
      const members = def.extensionMembers.filter((m) => m.data[id] !== undefined).map((m) => member(m, id, instance, validator));
      const data = def.extensionData?.[id];
      if (!data && members.length === 0) continue;
      const service: ExtensionService = { target: def.target, instance, members, ...(data ? { data } : {}), ...(scopes?.length ? { scopes } : {}) };
      const unbind = extension.bindService(service);
      if (typeof unbind === 'function') undo.push(unbind);
    }
  } catch (error) {
    all();
    throw error;
  }
  return all;
}
