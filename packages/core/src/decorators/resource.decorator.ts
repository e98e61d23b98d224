import type { ResourceOptions } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { memberDecorator } from './member-decorator.js';

/**
 * Exposes a method as an MCP resource. `uri` is a plain URI or an RFC 6570 template
 * (`notes://{id}`); for a template, the method's first DTO-typed parameter receives the
 * variables, converted and validated. The method returns text (string), bytes (Uint8Array),
 * resource contents, or a full `ReadResourceResult`.
 * @publicApi
 */
export function Resource(uri: string, options: ResourceOptions = {}): MethodDecorator {
  return memberDecorator((target, method, paramTypes) => getMetadataStorage().resources.push({ target, method, paramTypes, uri, options }));
}
