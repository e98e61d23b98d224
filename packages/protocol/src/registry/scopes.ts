/**
 * OAuth scopes declared on tools, resources and prompts, and the check of a principal's scopes
 * against them. Scopes are enforced for authenticated sessions only: a session without a
 * principal (stdio, an HTTP server without `auth`) has no token and so no scopes to check.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { ProtocolErrorCode } from '../errors.js';

/**
 * The scopes a principal was granted: its `scopes` member when that is an array of strings (what
 * `@typemcp/http`'s JWT and introspection verifiers return), otherwise none.
 * @publicApi
 */
export function scopesOfPrincipal(principal: unknown): readonly string[] {
  const scopes = principal !== null && typeof principal === 'object' ? (principal as { scopes?: unknown }).scopes : undefined;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * The scopes of `required` that `principal` lacks; empty when it may proceed (nothing required,
 * or no principal: an unauthenticated session is not subject to scopes).
 * @publicApi
 */
export function missingScopes(required: readonly string[] | undefined, principal: unknown): readonly string[] {
  if (!required || required.length === 0 || principal === undefined) return [];
  const granted = scopesOfPrincipal(principal);
  return required.filter((s) => !granted.includes(s));
}

/**
 * A request for a feature whose scopes the caller's token lacks: JSON-RPC error
 * {@link ErrorCode.InsufficientScope} with `data: { code: 'TYPEMCP_INSUFFICIENT_SCOPE', requiredScopes, missingScopes }`.
 * Over HTTP the transport answers it before anything streams with `403` and
 * `WWW-Authenticate: Bearer error="insufficient_scope"` (step-up authorization).
 * @publicApi
 */
export class InsufficientScopeError extends McpError {
  override readonly name = 'InsufficientScopeError';

  constructor(
    /** Every scope the feature needs (what a client should ask for). */
    readonly requiredScopes: readonly string[],
    /** The ones the caller's token does not have. */
    readonly missingScopes: readonly string[],
  ) {
    super(ErrorCode.InsufficientScope, `Insufficient scope: this request needs the scope${missingScopes.length > 1 ? 's' : ''} ${missingScopes.join(' ')}`, {
      code: ProtocolErrorCode.InsufficientScope,
      requiredScopes: [...requiredScopes],
      missingScopes: [...missingScopes],
    });
  }
}

/** Throws InsufficientScopeError when `principal` lacks any of `required`. */
export function checkScopes(required: readonly string[] | undefined, principal: unknown): void {
  if (!required) return;
  const missing = missingScopes(required, principal);
  if (missing.length) throw new InsufficientScopeError(required, missing);
}
