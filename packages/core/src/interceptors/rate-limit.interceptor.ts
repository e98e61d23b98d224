/**
 * Rate limiting as an interceptor: a token bucket per caller (the principal, else the session),
 * for every call it wraps together ('global') or per tool, resource or prompt ('tool'). A refused
 * call is answered with the JSON-RPC error -32004 whose `data.retryAfterMs` says when to retry;
 * the method is not called.
 */
import {
  InvalidOptionError,
  principalId,
  RateLimitedError,
  RateLimiter,
  type RateLimitDecision,
  type RateLimiterOptions,
  type SessionContract,
} from '@typemcp/protocol';
import { isThenable, nodeCrypto } from '@typemcp/protocol/internal';
import type { CallNext, Interceptor, InterceptorCall } from './interceptor.interface.js';

/** Options of {@link rateLimit}. @publicApi */
export interface RateLimitOptions extends RateLimiterOptions {
  /**
   * `'global'` (default): one bucket per caller for every call this interceptor wraps;
   * `'tool'`: one per caller and tool (or resource, or prompt).
   */
  scope?: 'global' | 'tool';
  /**
   * The caller's bucket, or undefined to let the call through unlimited. Default: the principal's
   * id (`principalId()`: a string principal, or its `sub`, `id` or `clientId`), else the session
   * (HTTP's `Mcp-Session-Id`, or this process's own id for a stdio session). On stateless HTTP
   * without authentication every request is a new session: limit those with the HTTP
   * `rateLimit` option (per client address) or a key of your own.
   */
  key?: (call: InterceptorCall) => string | undefined;
  /** Prefix of this limiter's keys (default `mcp`): limiters that share a store need different names. */
  name?: string;
}

const invalid = (option: string, message: string) => new InvalidOptionError(option, `Invalid option "${option}": ${message}.`);

/**
 * This process's prefix for sessions without a transport id, so a shared store never mixes two
 * processes' sessions. Made on first use: node:crypto (5-15 ms to load) is not loaded with core.
 */
let processId: string | undefined;
const processPrefix = (): string => (processId ??= nodeCrypto().randomUUID());
let sessions = 0;
const sessionKeys = new WeakMap<SessionContract, string>();

/** The default key of a call's caller. */
function callerOf(call: InterceptorCall): string {
  const principal = principalId(call.principal);
  if (principal !== undefined) return `principal:${principal}`;
  const session = call.request.session;
  if (session.sessionId !== undefined) return `session:${session.sessionId}`;
  let key = sessionKeys.get(session);
  if (key === undefined) sessionKeys.set(session, (key = `session:${processPrefix()}:${++sessions}`));
  return key;
}

/** The interceptor {@link rateLimit} returns. @publicApi */
export class RateLimitInterceptor implements Interceptor {
  /** The bucket rule and store (shared with other limiters by passing the same `store`). */
  readonly limiter: RateLimiter;
  private readonly perTool: boolean;
  private readonly key?: (call: InterceptorCall) => string | undefined;
  private readonly prefix: string;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: RateLimitOptions) {
    this.limiter = new RateLimiter(options, 'rateLimit');
    const { scope, key, name } = options;
    if (scope !== undefined && scope !== 'global' && scope !== 'tool') {
      throw invalid('rateLimit.scope', `it must be 'global' or 'tool', not ${JSON.stringify(scope)}`);
    }
    if (key !== undefined && typeof key !== 'function') throw invalid('rateLimit.key', 'it must be a function (call) => string | undefined');
    if (name !== undefined && (typeof name !== 'string' || name.length === 0)) throw invalid('rateLimit.name', 'it must be a non-empty string');
    this.perTool = scope === 'tool';
    this.key = key;
    this.prefix = name ?? 'mcp';
  }

  /** Takes a token from the caller's bucket: calls `next()`, or throws a {@link RateLimitedError} when the bucket is empty. */
  intercept(call: InterceptorCall, next: CallNext): unknown {
    const caller = this.key ? this.key(call) : callerOf(call);
    if (caller === undefined) return next();
    const decision = this.limiter.take(this.perTool ? `${this.prefix}:${caller}:${call.kind}:${call.name}` : `${this.prefix}:${caller}`);
    return isThenable(decision) ? decision.then((d) => proceed(d, next)) : proceed(decision, next);
  }
}

function proceed(decision: RateLimitDecision, next: CallNext): Promise<unknown> {
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterMs);
  return next();
}

/**
 * A token-bucket rate limit, as an interceptor: `createServer({ interceptors: [rateLimit({...})] })`
 * for every call, `@UseInterceptors(rateLimit({...}))` on a service class or a method for those.
 * Throws an InvalidOptionError for an option it cannot work with.
 * @publicApi
 */
export function rateLimit(options: RateLimitOptions): RateLimitInterceptor {
  return new RateLimitInterceptor(options);
}
