import type { PromptOptions } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { memberDecorator } from './member-decorator.js';

/**
 * Exposes a method as an MCP prompt. Its arguments come from the first DTO-typed parameter
 * (required unless `@IsOptional()`). The method returns a string (one user message), an array
 * of prompt messages, or a full `GetPromptResult`.
 * @publicApi
 */
export function Prompt(options: PromptOptions): MethodDecorator {
  return memberDecorator((target, method, paramTypes) => getMetadataStorage().prompts.push({ target, method, paramTypes, options }));
}
