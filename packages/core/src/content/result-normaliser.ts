/**
 * Turns what a decorated method returns into the MCP result: strings, content blocks, output
 * DTOs, or the full result object.
 */
import { instanceToPlain } from 'class-transformer';
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  JsonObject,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
} from '@typemcp/protocol';

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** A content block (`{ type: 'text' | 'image' | ... }`) rather than data. */
export function isBlock(value: unknown): value is ContentBlock {
  return value !== null && typeof value === 'object' && BLOCK_TYPES.has((value as { type?: unknown }).type as string);
}

function toBlock(value: unknown): ContentBlock {
  if (typeof value === 'string') return { type: 'text', text: value };
  if (isBlock(value)) return value;
  return { type: 'text', text: JSON.stringify(value) };
}

/**
 * A tool's return value as a CallToolResult. With an output DTO, an object result becomes
 * `structuredContent` and is mirrored as JSON text (for clients that only read content).
 */
export function toCallToolResult(value: unknown, hasOutput: boolean): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'object' && Array.isArray((value as CallToolResult).content) && !isBlock(value)) return value as CallToolResult;
  if (hasOutput && typeof value === 'object' && !Array.isArray(value) && !isBlock(value)) {
    const structuredContent = instanceToPlain(value) as JsonObject;
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  }
  return { content: Array.isArray(value) ? value.map(toBlock) : [toBlock(value)] };
}

/** A resource method's return value as a ReadResourceResult for `uri`. */
export function toReadResourceResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  const withType = <T extends object>(c: T) => (mimeType ? { ...c, mimeType } : c);
  if (typeof value === 'string') return { contents: [withType({ uri, text: value })] };
  if (value instanceof Uint8Array) return { contents: [withType({ uri, blob: Buffer.from(value).toString('base64') })] };
  if (value && typeof value === 'object' && Array.isArray((value as ReadResourceResult).contents)) return value as ReadResourceResult;
  const list = (Array.isArray(value) ? value : [value]) as ResourceContents[];
  return { contents: list.map((c) => (c.mimeType || !mimeType ? c : { ...c, mimeType })) };
}

/** A prompt method's return value as a GetPromptResult. */
export function toGetPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (value && typeof value === 'object' && Array.isArray((value as GetPromptResult).messages)) return value as GetPromptResult;
  const messages: PromptMessage[] = (Array.isArray(value) ? value : [value]).map((m) =>
    m && typeof m === 'object' && 'role' in m ? (m as PromptMessage) : { role: 'user', content: toBlock(m) },
  );
  return description ? { description, messages } : { messages };
}
