/**
 * SEP-2243 header mirroring (2026-07-28): a tool parameter annotated `x-mcp-header: Name` in its
 * input schema travels also as the `Mcp-Param-Name` header, so intermediaries can route on it.
 * The server checks each such header against the body, after decoding the `=?base64?...?=` form
 * (also allowed for `Mcp-Name`): a missing, malformed or different header is -32020.
 */
import type { JsonObject } from '@typemcp/protocol';
import { headerMismatch } from '@typemcp/protocol/internal';
import { base64Utf8, type McpRequestHeaders } from '../exchange/http-exchange.js';

/** One annotated parameter: where it sits in the arguments and which header mirrors it. */
interface Mirrored {
  readonly path: readonly string[];
  readonly header: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/s;

/** A header value as the client meant it: base64 sentinel decoded (undefined when malformed), else as sent. */
export function decodeHeaderValue(value: string): string | undefined {
  const encoded = SENTINEL.exec(value);
  if (!encoded) return value;
  return BASE64.test(encoded[1]) ? base64Utf8(encoded[1]) : undefined;
}

const cache = new WeakMap<object, readonly Mirrored[]>();

/** The annotated parameters of an input schema, reachable from the root through `properties` only. */
function mirroredOf(schema: JsonObject): readonly Mirrored[] {
  let found = cache.get(schema);
  if (found) return found;
  const out: Mirrored[] = [];
  const walk = (node: JsonObject, path: string[]) => {
    const properties = node.properties;
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return;
    for (const [key, child] of Object.entries(properties as JsonObject)) {
      if (child === null || typeof child !== 'object' || Array.isArray(child)) continue;
      const header = (child as JsonObject)['x-mcp-header'];
      if (typeof header === 'string' && header) out.push({ path: [...path, key], header });
      walk(child as JsonObject, [...path, key]);
    }
  };
  walk(schema, []);
  found = Object.freeze(out);
  cache.set(schema, found);
  return found;
}

function valueAt(args: JsonObject | undefined, path: readonly string[]): unknown {
  let node: unknown = args;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

function matches(sent: string, value: unknown): boolean {
  if (typeof value === 'string') return sent === value;
  if (typeof value === 'boolean') return sent === String(value);
  if (typeof value === 'number') return sent.trim() !== '' && Number(sent) === value;
  return false;
}

/** Throws -32020 when an `Mcp-Param-*` header of `schema` is missing, malformed or differs from `args`. */
export function checkParamHeaders(headers: McpRequestHeaders, schema: JsonObject, args: JsonObject | undefined): void {
  for (const { path, header } of mirroredOf(schema)) {
    const value = valueAt(args, path);
    if (value === undefined || value === null) continue;
    const name = `Mcp-Param-${header}`;
    const raw = headers[name.toLowerCase()];
    const sent = Array.isArray(raw) ? raw.join(', ') : raw;
    const decoded = sent === undefined ? undefined : decodeHeaderValue(sent);
    if (decoded === undefined || !matches(decoded, value)) throw headerMismatch(name, sent, typeof value === 'string' ? value : JSON.stringify(value));
  }
}
