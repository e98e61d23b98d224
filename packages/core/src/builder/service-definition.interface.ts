/** What the builder makes of one service class, once, at start-up. */
import type { CacheHint, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition, ToolTaskOptions } from '@typemcp/protocol';
import type { ClassType, CompleteOptions } from '../metadata/metadata-args.interface.js';

/** How to call a decorated method: where its input DTO and its Context go. */
export interface Invocation {
  method: string;
  /** Number of declared parameters. */
  arity: number;
  /** The input DTO class and its parameter index, if the method takes one (`raw`: plain JSON, no DTO). */
  input?: { type: ClassType; index: number; raw?: boolean };
  /** Indexes of parameters typed `Context`. */
  contextIndexes: number[];
  /** `Class.method`, for messages. */
  origin: string;
}

/** `ExtensionData` on a class or method, by extension identifier. */
export type ExtensionDataMap = Record<string, object>;

export interface BuiltTool {
  definition: ToolDefinition;
  extensions?: ExtensionDataMap;
  invocation: Invocation;
  output?: ClassType;
  guard?: (principal: unknown) => boolean;
  /** OAuth scopes (the class's and the tool's). */
  scopes?: readonly string[];
  task?: ToolTaskOptions;
}

export interface BuiltResource {
  definition: ResourceDefinition | ResourceTemplateDefinition;
  extensions?: ExtensionDataMap;
  template: boolean;
  /** Caching hints for reads (2026-07-28). */
  cache?: Partial<CacheHint>;
  invocation: Invocation;
  /** OAuth scopes (the class's and the resource's). */
  scopes?: readonly string[];
}

export interface BuiltPrompt {
  definition: PromptDefinition;
  extensions?: ExtensionDataMap;
  invocation: Invocation;
  /** OAuth scopes (the class's and the prompt's). */
  scopes?: readonly string[];
}

export interface BuiltCompletion {
  options: CompleteOptions;
  invocation: Invocation;
}

/** A method that carries `ExtensionData` (a feature's method or any other). */
export interface BuiltExtensionMember {
  method: string;
  data: ExtensionDataMap;
  invocation: Invocation;
  /** The tool, resource (URI or template) or prompt the method also is. */
  feature?: { kind: 'tool' | 'resource' | 'prompt'; name: string };
}

/** Every MCP feature one service class declares. */
export interface ServiceDefinition {
  target: ClassType;
  tools: BuiltTool[];
  resources: BuiltResource[];
  prompts: BuiltPrompt[];
  completions: BuiltCompletion[];
  /** `ExtensionData` on the class. */
  extensionData?: ExtensionDataMap;
  /** The methods that carry `ExtensionData`. */
  extensionMembers: BuiltExtensionMember[];
}
