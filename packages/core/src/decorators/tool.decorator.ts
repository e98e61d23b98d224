import type { ToolOptions } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { memberDecorator } from './member-decorator.js';

/**
 * Exposes a method of an `@McpService()` class as an MCP tool. Its first DTO-typed parameter is
 * the input (the JSON Schema comes from the DTO); a parameter typed `Context` receives the context.
 * Must be applied on a method of a class decorated with `@McpService()`.
 * @publicApi
 */
export function Tool(options: ToolOptions): MethodDecorator {
  return memberDecorator((target, method, paramTypes) => getMetadataStorage().tools.push({ target, method, paramTypes, options }));
}
