/**
 * Shapes what the engine emits for the revision a client negotiated: an older client never
 * receives a content type, field or notification its schema lacks. Definitions and results
 * are written for the newest revision; everything here copies only when it must remove.
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type {
  Annotations,
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Implementation,
  PromptDefinition,
  ReadResourceResult,
  ResourceContents,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerCapabilities,
  ToolDefinition,
} from '../mcp-types.js';
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { LocalClientRequestError } from '../jsonrpc/client-request.error.js';
import type { RevisionFeatures } from '../revisions.js';

function omit<T extends object>(value: T, keys: readonly string[]): T {
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) {
    if (key in value) {
      copy ??= { ...(value as Record<string, unknown>) };
      delete copy[key];
    }
  }
  return (copy as T | undefined) ?? value;
}

/** The keys a revision lacks on definitions (tools, resources, templates, prompts, links). */
function definitionKeys(f: RevisionFeatures): string[] {
  const keys: string[] = [];
  if (!f.titles) keys.push('title');
  if (!f.contentMeta) keys.push('_meta');
  if (!f.icons) keys.push('icons');
  return keys;
}

function shapeAnnotations<T extends { annotations?: Annotations }>(value: T, f: RevisionFeatures): T {
  if (f.lastModified || value.annotations?.lastModified === undefined) return value;
  return { ...value, annotations: omit(value.annotations, ['lastModified']) };
}

function shapeContents(contents: ResourceContents, f: RevisionFeatures): ResourceContents {
  return f.contentMeta ? contents : omit(contents, ['_meta']);
}

/** The server's identity for the revision. */
export function shapeImplementation(impl: Implementation, f: RevisionFeatures): Implementation {
  if (f.latest) return impl;
  return omit(impl, f.titles ? ['icons', 'description', 'websiteUrl'] : ['title', 'icons', 'description', 'websiteUrl']);
}

/**
 * Server capabilities for the revision: no `completions` before 2025-03-26, `tasks` only at
 * 2025-11-25. A copy (the server adds the revision's `extensions` to it).
 */
export function shapeCapabilities(caps: ServerCapabilities, f: RevisionFeatures): ServerCapabilities {
  const keys = f.legacyTasks ? [] : ['tasks'];
  if (!f.completionsCapability) keys.push('completions');
  const shaped = omit(caps, keys);
  return shaped === caps ? { ...caps } : shaped;
}

/** A tool definition for the revision. */
export function shapeTool(tool: ToolDefinition, f: RevisionFeatures): ToolDefinition {
  // `execution.taskSupport` is 2025-11-25's; the 2026-07-28 Tool has no such field.
  if (f.latest) return f.legacyTasks || tool.execution === undefined ? tool : omit(tool, ['execution']);
  const keys = definitionKeys(f);
  keys.push('execution');
  if (!f.toolAnnotations) keys.push('annotations');
  if (!f.structuredOutput) keys.push('outputSchema');
  return omit(tool, keys);
}

/** A resource definition for the revision. */
export function shapeResource<T extends ResourceDefinition | ResourceTemplateDefinition>(res: T, f: RevisionFeatures): T {
  if (f.latest) return res;
  return shapeAnnotations(omit(res, definitionKeys(f)), f);
}

/** A prompt definition for the revision. */
export function shapePrompt(prompt: PromptDefinition, f: RevisionFeatures): PromptDefinition {
  if (f.latest) return prompt;
  const shaped = omit(prompt, definitionKeys(f));
  if (f.titles || !shaped.arguments?.some((a) => a.title !== undefined)) return shaped;
  return { ...shaped, arguments: shaped.arguments.map((a) => omit(a, ['title'])) };
}

/** One content block for the revision: unknown types degrade to text. */
export function shapeContent(block: ContentBlock, f: RevisionFeatures): ContentBlock {
  if (f.latest) return block;
  if (block.type === 'audio' && !f.audio) {
    return { type: 'text', text: `[audio (${block.mimeType}) omitted: not supported by protocol revision ${f.revision}]` };
  }
  if (block.type === 'resource_link' && !f.resourceLinks) {
    const label = block.title ?? block.name;
    return { type: 'text', text: `Resource: ${label} <${block.uri}>${block.description ? ` - ${block.description}` : ''}` };
  }
  let shaped = shapeAnnotations(f.contentMeta ? block : omit(block, ['_meta']), f);
  if (shaped.type === 'resource') {
    const resource = shapeContents(shaped.resource, f);
    if (resource !== shaped.resource) shaped = { ...shaped, resource };
  } else if (shaped.type === 'resource_link') shaped = omit(shaped, definitionKeys(f));
  return shaped;
}

/** Content blocks for the revision; the same array when nothing had to change. */
function shapeBlocks(blocks: ContentBlock[], f: RevisionFeatures): ContentBlock[] {
  let out: ContentBlock[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const shaped = shapeContent(blocks[i], f);
    if (shaped !== blocks[i]) (out ??= blocks.slice())[i] = shaped;
  }
  return out ?? blocks;
}

/** A `tools/call` result for the revision: structured output also travels as text before 2025-06-18. */
export function shapeCallToolResult(result: CallToolResult, f: RevisionFeatures): CallToolResult {
  if (f.latest) return result;
  const content = shapeBlocks(result.content, f);
  if (f.structuredOutput || result.structuredContent === undefined) {
    return content === result.content ? result : { ...result, content };
  }
  const json = JSON.stringify(result.structuredContent);
  const mirrored = content.some((b) => b.type === 'text' && b.text === json);
  const shaped = omit(result, ['structuredContent']);
  return { ...shaped, content: mirrored ? content : [...content, { type: 'text', text: json }] };
}

/** A `resources/read` result for the revision. */
export function shapeReadResult(result: ReadResourceResult, f: RevisionFeatures): ReadResourceResult {
  if (f.latest || f.contentMeta) return result;
  return { ...result, contents: result.contents.map((c) => shapeContents(c, f)) };
}

/** A `prompts/get` result for the revision. */
export function shapeGetPromptResult(result: GetPromptResult, f: RevisionFeatures): GetPromptResult {
  if (f.latest) return result;
  return { ...result, messages: result.messages.map((m) => ({ ...m, content: shapeContent(m.content, f) })) };
}

/**
 * An elicitation `requestedSchema` for the revision. Before 2025-11-25 only booleans carry a
 * `default` (others are dropped) and titled single-select enums are `enum` + `enumNames`;
 * multi-select has no equivalent there, so it is refused rather than silently changed.
 */
export function shapeElicitationSchema(schema: JsonObject, f: RevisionFeatures): JsonObject {
  const properties = schema.properties as Record<string, JsonObject> | undefined;
  if (f.richElicitation || !properties) return schema;
  const shaped: Record<string, JsonObject> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'array') {
      throw new LocalClientRequestError(
        ErrorCode.InvalidRequest,
        `Elicitation field "${name}" is a multi-select, which protocol revision ${f.revision} does not have`,
      );
    }
    let p = property.type === 'boolean' ? property : omit(property, ['default']);
    if (Array.isArray(p.oneOf)) {
      const options = p.oneOf as { const: string; title?: string }[];
      p = { ...omit(p, ['oneOf']), enum: options.map((o) => o.const), enumNames: options.map((o) => o.title ?? o.const) };
    }
    shaped[name] = p;
  }
  return { ...schema, properties: shaped };
}

/** Progress notification params for the revision (no `message` before 2025-03-26). */
export function shapeProgress(params: JsonObject, f: RevisionFeatures): JsonObject {
  return f.progressMessage ? params : omit(params, ['message']);
}
