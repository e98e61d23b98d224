/**
 * Revision 2026-07-28 carries, on every request, what the `initialize` handshake used to
 * establish once: the protocol version, the client's capabilities and identity, and the log
 * level. This module reads and checks those `_meta` fields; the same checks serve the engine and
 * the HTTP transport (which must answer them with status 400 before streaming anything).
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { isJsonObject as isObject, type JsonObject } from '../jsonrpc/message.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { LOGGING_LEVELS, type ClientCapabilities, type Implementation } from '../mcp-types.js';
import { revisionFeatures, SUPPORTED_REVISIONS, type RevisionFeatures } from '../revisions.js';

/** The reserved `_meta` keys of 2026-07-28. */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Methods a modern request may not use: the handshake and what per-request `_meta` replaced. */
export const LEGACY_ONLY_METHODS: ReadonlySet<string> = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** Methods that exist only in the modern era. */
export const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set(['server/discover', 'subscriptions/listen']);

/** Requests that may be answered with an `input_required` result (multi round-trip requests). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What one modern request declared about itself. */
export interface ModernRequestMeta {
  /** Tells this verdict of the admission ladder apart from a refusal or a legacy request. */
  readonly kind: 'modern';
  readonly features: RevisionFeatures;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  /** Index into LOGGING_LEVELS; undefined means the request wants no log messages at all. */
  readonly logLevel?: number;
}

/** The `_meta` of a request's params, when it is an object. */
export function requestMeta(params: unknown): JsonObject | undefined {
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) ? meta : undefined;
}

/** True when the request speaks the modern era: it names its protocol version in `_meta`. */
export function isModernRequest(params: unknown): boolean {
  return requestMeta(params)?.[MetaKey.protocolVersion] !== undefined;
}

/** The -32022 error for a version we do not serve statelessly. */
export function unsupportedVersion(requested: string): McpError {
  return new McpError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    supported: [...SUPPORTED_REVISIONS],
    requested,
  });
}

const invalidMeta = (detail: string) => new McpError(ErrorCode.InvalidParams, `Invalid params: _meta ${detail}`);

/** The -32020 error for an HTTP header that disagrees with the body. */
export function headerMismatch(header: string, headerValue: string | undefined, bodyValue: string): McpError {
  const shown = headerValue === undefined ? 'is missing' : `value ${JSON.stringify(headerValue)} does not match`;
  return new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${header} header ${shown} body value ${JSON.stringify(bodyValue)}`);
}

/**
 * Reads and checks a modern request's `_meta`, in this order: -32602 for a missing or malformed
 * required field; on HTTP (`headerVersion` given, `null` when the header is absent) -32020 when
 * the MCP-Protocol-Version header disagrees; -32022 for a version this server does not serve
 * statelessly (legacy revisions are only served after `initialize`).
 */
export function readModernMeta(params: unknown, headerVersion?: string | null): ModernRequestMeta {
  const meta = requestMeta(params);
  const version = meta?.[MetaKey.protocolVersion];
  if (typeof version !== 'string') throw invalidMeta(`"${MetaKey.protocolVersion}" is required and must be a string`);
  const capabilities = meta![MetaKey.clientCapabilities];
  if (!isObject(capabilities)) throw invalidMeta(`"${MetaKey.clientCapabilities}" is required and must be an object`);
  if (headerVersion !== undefined && headerVersion !== version) throw headerMismatch('MCP-Protocol-Version', headerVersion ?? undefined, version);
  const features = revisionFeatures(version);
  if (!features?.modern) throw unsupportedVersion(version);
  const clientInfo = meta![MetaKey.clientInfo];
  if (clientInfo !== undefined && !(isObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string')) {
    throw invalidMeta(`"${MetaKey.clientInfo}" must be an object with string "name" and "version"`);
  }
  const level = meta![MetaKey.logLevel];
  let logLevel: number | undefined;
  if (level !== undefined) {
    logLevel = (LOGGING_LEVELS as readonly unknown[]).indexOf(level);
    if (logLevel < 0) throw invalidMeta(`"${MetaKey.logLevel}" must be one of ${LOGGING_LEVELS.join(', ')}`);
  }
  return { kind: 'modern', features, clientCapabilities: capabilities as ClientCapabilities, clientInfo: clientInfo as Implementation | undefined, logLevel };
}

/** The error a modern request for `method` gets before any handler runs, or undefined. */
export function modernMethodRefusal(method: string, known: boolean): McpError | undefined {
  if (!known || LEGACY_ONLY_METHODS.has(method)) {
    return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}${known ? ' (not part of protocol revision 2026-07-28)' : ''}`);
  }
  return undefined;
}

/** The -32021 error for a request that needs client capabilities the request did not declare. */
export function missingCapability(required: ClientCapabilities, why: string): McpError {
  return new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${why}`, {
    requiredCapabilities: required,
  });
}
