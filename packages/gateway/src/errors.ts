/**
 * The catalogue of @typemcp/gateway's stable codes: every `TYPEMCP_GATEWAY_*` code is defined
 * here once (docs/errors.md says what each means and how to fix it), with the error classes that
 * carry them.
 */
import { ErrorCode, McpError } from '@typemcp/protocol';

/**
 * Stable codes of the gateway's errors (`error.code`, or `error.data.code` of a JSON-RPC error).
 * @publicApi
 */
export const GatewayErrorCode = {
  /** A mount's options are wrong (an InvalidOptionError). */
  InvalidMount: 'TYPEMCP_GATEWAY_INVALID_MOUNT',
  /** A mounted feature's name or URI is already served (a DefinitionError at start-up). */
  NameTaken: 'TYPEMCP_GATEWAY_NAME_TAKEN',
  /** The first connection to a required upstream failed. */
  ConnectFailed: 'TYPEMCP_GATEWAY_CONNECT_FAILED',
  /** A request to an upstream that is down, or whose connection closed during the request. */
  UpstreamUnavailable: 'TYPEMCP_GATEWAY_UPSTREAM_UNAVAILABLE',
  /** An upstream took longer than `requestTimeoutMs` to answer. */
  UpstreamTimeout: 'TYPEMCP_GATEWAY_UPSTREAM_TIMEOUT',
  /** An upstream asked a question (elicitation, sampling, roots) no client request of this gateway can answer. */
  UnrelayableRequest: 'TYPEMCP_GATEWAY_UNRELAYABLE_REQUEST',
  /** A 2026-07-28 client's retry named work parked between rounds that has expired or is not its own. */
  ParkedCallGone: 'TYPEMCP_GATEWAY_PARKED_CALL_GONE',
  /** Warning: an upstream feature left out at a later sync, its name or URI being taken. */
  FeatureSkipped: 'TYPEMCP_GATEWAY_WARN_FEATURE_SKIPPED',
} as const;

/** One of {@link GatewayErrorCode}. */
export type GatewayErrorCodeValue = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

/**
 * A JSON-RPC error the gateway answers with: -32603 with `data.code` (one of
 * {@link GatewayErrorCode}) and `data.mount` (the mount's namespace, or its name without one).
 * @publicApi
 */
export class GatewayError extends McpError {
  constructor(
    readonly gatewayCode: GatewayErrorCodeValue,
    message: string,
    mount: string,
  ) {
    super(ErrorCode.InternalError, message, { code: gatewayCode, mount });
  }
}

/**
 * A mount that could not connect the first time (`mount()` rejects with it unless `required` is
 * false); `cause` is what the connection attempt met.
 * @publicApi
 */
export class MountConnectError extends Error {
  override readonly name = 'MountConnectError';
  readonly code = GatewayErrorCode.ConnectFailed;
}
