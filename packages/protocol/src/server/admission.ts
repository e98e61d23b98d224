/**
 * The refusal ladder: which era an inbound request speaks (the legacy handshake era or the
 * stateless 2026-07-28) and, before any handler runs, whether it is refused and with which
 * JSON-RPC error. Pure: it reads the message and the connection's negotiated state, nothing
 * else. The session runs `admitRequest` on every request; the HTTP transport runs `postEra` and
 * `admitModernPost` to answer a 2026-07-28 POST with a status before it streams anything.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, JsonRpcErrorObject, RequestId } from '../jsonrpc/message.js';
import { exceedsDepth } from '../jsonrpc/nesting-depth.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { revisionFeatures, type RevisionFeatures } from '../revisions.js';
import { isModernRequest, modernMethodRefusal, MODERN_ONLY_METHODS, readModernMeta, type ModernRequestMeta } from './modern-request.js';

/** What the ladder needs to know about the connection a request arrived on. */
export interface NegotiatedState {
  /** The features negotiated with `initialize`; undefined before it (and on 2026-07-28 requests). */
  readonly features: RevisionFeatures | undefined;
  /** True while a request with this id is being handled. */
  isInFlight(id: RequestId): boolean;
}

/** A request answered with `error` before any handler runs. */
export interface Refused {
  readonly kind: 'refused';
  readonly error: JsonRpcErrorObject;
}

/** A request of the handshake era, admitted. */
export interface LegacyAdmission {
  readonly kind: 'legacy';
}

/** The ladder's verdict: refused, or admitted in one era (2026-07-28 with what `_meta` declared). */
export type Admission = Refused | LegacyAdmission | ModernRequestMeta;

/** The one verdict of every admitted legacy request (shared: admitting allocates nothing). */
export const LEGACY: LegacyAdmission = Object.freeze({ kind: 'legacy' });

const refused = (code: number, message: string): Refused => ({ kind: 'refused', error: { code, message } });
const refusedBy = (error: McpError): Refused => ({ kind: 'refused', error: error.toJSON() });

/** The answer to a frame that is not JSON. */
export function refuseUnparsable(error: Error): Refused {
  return refused(ErrorCode.ParseError, `Parse error: ${error.message}`);
}

/** The answer to a value that is not a JSON-RPC message (`reason` from `classifyMessage`). */
export function refuseInvalid(reason: string): Refused {
  return refused(ErrorCode.InvalidRequest, `Invalid request: ${reason}`);
}

/** The answer to a batch on a connection that takes none (yet), or to an empty one; else undefined. */
export function admitBatch(length: number, features: RevisionFeatures | undefined): Refused | undefined {
  if (!features?.batching) {
    return refused(
      ErrorCode.InvalidRequest,
      features ? `JSON-RPC batches are not supported in protocol revision ${features.revision}` : 'JSON-RPC batches are not accepted before initialization',
    );
  }
  return length === 0 ? refused(ErrorCode.InvalidRequest, 'A JSON-RPC batch must not be empty') : undefined;
}

/** The answer to `initialize` inside a batch. */
export function refuseInitializeInBatch(): Refused {
  return refused(ErrorCode.InvalidRequest, 'initialize must not be part of a batch');
}

/**
 * A request naming its revision in `_meta` is served statelessly (2026-07-28) unless the
 * connection chose the legacy era with `initialize`; `initialize` itself is always legacy.
 */
export function isModernEra(method: string, params: unknown, features: RevisionFeatures | undefined): boolean {
  return !features && method !== 'initialize' && isModernRequest(params);
}

/**
 * The session's ladder, in order: a duplicate id (-32600); for the legacy era an unknown or
 * modern-only method (-32601) (a 2026-07-28 method only exists there), then a request before
 * `initialize` (-32600); params that are not an object or nest deeper than `maxDepth` (-32602);
 * for the 2026-07-28 era a method it does not have (-32601), then its `_meta` (see
 * `readModernMeta`). `known` says whether the server has a handler for the method.
 */
export function admitRequest(
  request: { readonly id: RequestId; readonly method: string; readonly params: unknown },
  state: NegotiatedState,
  known: boolean,
  maxDepth: number,
): Admission {
  const { id, method, params } = request;
  const features = state.features;
  const modern = isModernEra(method, params, features);
  if (state.isInFlight(id)) {
    return refused(ErrorCode.InvalidRequest, `Request id ${JSON.stringify(id)} is already in flight; ids must be unique`);
  }
  if (!modern && (!known || MODERN_ONLY_METHODS.has(method))) return refused(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  if (!modern && !features && method !== 'initialize' && method !== 'ping') {
    return refused(ErrorCode.InvalidRequest, `Server not initialized: send "initialize" before "${method}"`);
  }
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return refused(ErrorCode.InvalidParams, 'Invalid params: "params" must be an object');
  }
  if (exceedsDepth(params, maxDepth)) return refused(ErrorCode.InvalidParams, `Invalid params: nested deeper than ${maxDepth} levels`);
  if (!modern) return LEGACY;
  const methodRefusal = modernMethodRefusal(method, known);
  if (methodRefusal) return refusedBy(methodRefusal);
  try {
    return readModernMeta(params);
  } catch (error) {
    return refusedBy(error as McpError);
  }
}

/**
 * Which era an HTTP POST speaks. A session id or a legacy MCP-Protocol-Version header means
 * legacy, a modern one means 2026-07-28; otherwise a request naming its version in `_meta` is
 * modern (it gets -32022 if the version is unknown) and everything else legacy (initialize, or a
 * refusal of an unknown header version).
 */
export function postEra(sessionId: string | undefined, headerVersion: string | undefined, body: unknown): 'legacy' | 'modern' {
  if (sessionId !== undefined) return 'legacy';
  const features = headerVersion === undefined ? undefined : revisionFeatures(headerVersion);
  if (features) return features.modern ? 'modern' : 'legacy';
  return !Array.isArray(body) && isModernRequest((body as { params?: unknown } | null)?.params) ? 'modern' : 'legacy';
}

/** The answer to a batch in a 2026-07-28 POST. */
export function refuseModernBatch(): Refused {
  return refused(ErrorCode.InvalidRequest, 'Invalid request: JSON-RPC batches are not part of protocol revision 2026-07-28');
}

/**
 * The ladder of a 2026-07-28 request over HTTP, in the order the transport spec and the
 * conformance suite expect: `_meta` fields (-32602), the MCP-Protocol-Version header against
 * `_meta` (-32020, `headerVersion` undefined when absent), the version (-32022), then what
 * `checkTransport` throws (an McpError: headers that must repeat the body), then the method
 * (-32601). Other errors thrown by `checkTransport` propagate.
 */
export function admitModernPost(
  method: string,
  params: JsonObject | undefined,
  headerVersion: string | undefined,
  known: boolean,
  checkTransport: (method: string, params: JsonObject | undefined) => void,
): Refused | ModernRequestMeta {
  let meta: ModernRequestMeta;
  try {
    meta = readModernMeta(params, headerVersion ?? null);
    checkTransport(method, params);
  } catch (error) {
    if (error instanceof McpError) return refusedBy(error);
    throw error;
  }
  const methodRefusal = modernMethodRefusal(method, known);
  return methodRefusal ? refusedBy(methodRefusal) : meta;
}
