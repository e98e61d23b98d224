/**
 * The install-time checks of an extension: its identifier (SEP-2133: the `_meta` key rules with
 * a mandatory prefix) and the shape of each part, each failure a DefinitionError saying what
 * to change. Nothing here runs per request.
 */
import { isJsonObject } from '../../jsonrpc/message.js';
import { ProtocolErrorCode } from '../../errors.js';
import { DefinitionError } from '../../registry/definition.error.js';
import type { McpExtension } from './extension.types.js';

const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
/** `{vendor-prefix}/{extension-name}`. */
export const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);

const DECORATORS = ['tool', 'resource', 'template', 'prompt', 'contents'] as const;
const LISTS = ['tools', 'resources', 'templates', 'prompts'] as const;

function invalid(id: string, detail: string): DefinitionError {
  return new DefinitionError(ProtocolErrorCode.InvalidExtension, `Invalid extension "${id}": ${detail}.`);
}

function checkFunctions(id: string, owner: string, value: unknown, keys: readonly string[]): void {
  if (value === undefined) return;
  if (!isJsonObject(value)) throw invalid(id, `"${owner}" must be an object`);
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw invalid(id, `"${owner}.${key}" is not one of ${keys.join(', ')}`);
    if (typeof value[key] !== 'function') throw invalid(id, `"${owner}.${key}" must be a function`);
  }
}

function checkMethods(id: string, methods: unknown): void {
  if (methods === undefined) return;
  if (!isJsonObject(methods)) throw invalid(id, '"methods" must be an object of methods by name');
  for (const [name, method] of Object.entries(methods)) {
    const where = `methods["${name}"]`;
    if (!name || name.startsWith('notifications/')) throw invalid(id, `${where} is not a request method name`);
    if (!isJsonObject(method) || typeof method.handler !== 'function') throw invalid(id, `${where} needs a handler function`);
    if (method.params !== undefined && typeof method.params !== 'function') throw invalid(id, `${where}.params must be a function`);
    const available = method.available;
    if (available !== undefined && available !== 'legacy' && available !== 'modern' && typeof available !== 'function') {
      throw invalid(id, `${where}.available must be 'legacy', 'modern' or a function of the revision`);
    }
    if (method.cache !== undefined && method.cache !== 'list' && method.cache !== 'read') throw invalid(id, `${where}.cache must be 'list' or 'read'`);
    if (method.requiresClient !== undefined && typeof method.requiresClient !== 'boolean') throw invalid(id, `${where}.requiresClient must be a boolean`);
  }
}

/** Throws a DefinitionError (`TYPEMCP_ERR_INVALID_EXTENSION`) for an extension the engine cannot install. */
export function checkExtension(extension: McpExtension): void {
  if (!isJsonObject(extension)) throw invalid(typeof extension, 'give an object with at least an "id"');
  const { id } = extension;
  if (typeof id !== 'string' || !EXTENSION_ID.test(id)) {
    throw invalid(
      String(id),
      'the identifier must be "{vendor-prefix}/{extension-name}" (SEP-2133), e.g. "com.example/my-extension": dot-separated labels, a slash, then a name that starts and ends with a letter or digit',
    );
  }
  const { settings } = extension;
  if (settings !== undefined && typeof settings !== 'function' && !isJsonObject(settings)) {
    throw invalid(id, '"settings" must be an object (an empty one for no settings) or a function of the revision');
  }
  checkMethods(id, extension.methods);
  const decorate = extension.decorate as Record<string, unknown> | undefined;
  if (decorate !== undefined && !isJsonObject(decorate)) throw invalid(id, '"decorate" must be an object');
  const { results, ...definitions } = decorate ?? {};
  checkFunctions(id, 'decorate', definitions, DECORATORS);
  if (results !== undefined && !isJsonObject(results)) throw invalid(id, '"decorate.results" must be an object of decorators by method');
  for (const [method, fn] of Object.entries((results as Record<string, unknown> | undefined) ?? {})) {
    if (typeof fn !== 'function') throw invalid(id, `"decorate.results["${method}"]" must be a function`);
  }
  checkFunctions(id, 'visible', extension.visible, LISTS);
  if (extension.setup !== undefined && typeof extension.setup !== 'function') throw invalid(id, '"setup" must be a function');
}
