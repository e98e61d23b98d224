/**
 * Turns what a decorated method returns into the MCP result: strings, content blocks, output
 * DTOs, or the full result object. Values are turned into JSON text without silent loss: a Date
 * becomes its ISO string, a bigint its decimal digits, and what JSON cannot carry (Map, Set,
 * functions, symbols, promises, NaN and Infinity) throws an UnrepresentableResultError.
 */
import type { CallToolResult, ContentBlock, GetPromptResult, JsonObject, PromptMessage, ReadResourceResult, ResourceContents } from '@typemcp/protocol';
import { UnrepresentableResultError } from './unrepresentable-result.error.js';

const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** A content block (`{ type: 'text' | 'image' | ... }`) rather than data. */
export function isBlock(value: unknown): value is ContentBlock {
  return value !== null && typeof value === 'object' && BLOCK_TYPES.has((value as { type?: unknown }).type as string);
}

/** What JSON would silently lose of `value` ("a Map", "NaN"...), or undefined when it can carry it. */
export function lossOf(value: unknown): string | undefined {
  switch (typeof value) {
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'number':
      return Number.isFinite(value) ? undefined : String(value);
    case 'object':
      if (value instanceof Map) return 'a Map';
      if (value instanceof Set) return 'a Set';
      if (value instanceof WeakMap || value instanceof WeakSet) return `a ${value.constructor.name}`;
      if (value instanceof Promise) return 'a Promise (await it first)';
      return undefined;
    default:
      return undefined;
  }
}

/** The error for `problem` (a {@link lossOf}) found at property `key` ('' for the value itself). */
export function unrepresentable(problem: string, key: string): UnrepresentableResultError {
  const where = key === '' ? '' : ` at "${key}"`;
  return new UnrepresentableResultError(
    `returned ${problem}${where}, which JSON cannot represent; return plain objects, arrays, strings, numbers and booleans ` +
      '(e.g. Object.fromEntries(map), [...set])',
  );
}

// Sees every value JSON.stringify would write, after toJSON (a Date is already its ISO string).
function replacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  const problem = lossOf(value);
  if (problem === undefined) return value;
  throw unrepresentable(problem, key);
}

/** `value` as JSON text, refusing what JSON would silently lose. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, replacer);
}

function toBlock(value: unknown): ContentBlock {
  if (typeof value === 'string') return { type: 'text', text: value };
  if (isBlock(value)) return value;
  if (value instanceof Date) return { type: 'text', text: value.toISOString() };
  return { type: 'text', text: toJsonText(value) };
}

/**
 * A checked output DTO's JSON (already plain JSON) as a CallToolResult: `structuredContent`,
 * mirrored as JSON text for clients that only read content.
 */
export function toStructuredResult(structuredContent: JsonObject): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
}

/**
 * The return value of a tool without an output DTO as a CallToolResult (a tool with one is the
 * binder's `checkedOutput`). `undefined` and `null` are an empty result (`{ content: [] }`).
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'object' && Array.isArray((value as CallToolResult).content) && !isBlock(value)) return value as CallToolResult;
  return { content: Array.isArray(value) ? value.map(toBlock) : [toBlock(value)] };
}

function isContents(value: unknown): value is ResourceContents {
  return value !== null && typeof value === 'object' && typeof (value as ResourceContents).uri === 'string' && ('text' in value || 'blob' in value);
}

/** A resource method's return value as a ReadResourceResult for `uri`. */
export function toReadResourceResult(value: unknown, uri: string, mimeType: string | undefined): ReadResourceResult {
  const withType = <T extends object>(c: T) => (mimeType ? { ...c, mimeType } : c);
  if (typeof value === 'string') return { contents: [withType({ uri, text: value })] };
  if (value instanceof Uint8Array) return { contents: [withType({ uri, blob: Buffer.from(value).toString('base64') })] };
  if (value && typeof value === 'object' && Array.isArray((value as ReadResourceResult).contents)) return value as ReadResourceResult;
  const list = (Array.isArray(value) ? value : [value]) as unknown[];
  const at = list.findIndex((c) => !isContents(c));
  if (at >= 0) {
    const odd = list[at];
    const what = lossOf(odd) ?? (odd === null || odd === undefined ? String(odd) : Array.isArray(odd) ? 'a nested array' : `a ${typeof odd}`);
    throw new UnrepresentableResultError(
      `resource ${uri} returned ${what}; return a string, bytes (Uint8Array), { uri, text | blob }, an array of those, or { contents }`,
    );
  }
  return { contents: (list as ResourceContents[]).map((c) => (c.mimeType || !mimeType ? c : { ...c, mimeType })) };
}

/** A prompt method's return value as a GetPromptResult. */
export function toGetPromptResult(value: unknown, description: string | undefined): GetPromptResult {
  if (value && typeof value === 'object' && Array.isArray((value as GetPromptResult).messages)) return value as GetPromptResult;
  const messages: PromptMessage[] = (Array.isArray(value) ? value : [value]).map((m) =>
    m && typeof m === 'object' && 'role' in m ? (m as PromptMessage) : { role: 'user', content: toBlock(m) },
  );
  return description ? { description, messages } : { messages };
}
