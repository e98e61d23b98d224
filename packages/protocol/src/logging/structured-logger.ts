/**
 * The structured logger port: any logger with pino's shape (`debug`, `info`, `warn`, `error`,
 * each taking a fields object then a message, and `child`). TypeMCP never depends on a logging
 * library; pino, or a small adapter around another one, plugs in as it is.
 */

/** One level of a {@link StructuredLogger}: a fields object first, then the message. @publicApi */
export type StructuredLogFn = (fields: Record<string, unknown>, msg: string) => void;

/**
 * A logger with pino's shape. TypeMCP logs internal errors at `error` (the error under `err`, as
 * pino's serializer expects), start-up warnings at `warn` and the HTTP request log at `info`, and
 * never a token, an Authorization header or a tool's arguments.
 * @publicApi
 */
export interface StructuredLogger {
  /** Detail for debugging. */
  debug: StructuredLogFn;
  /** Normal operation (the HTTP request log). */
  info: StructuredLogFn;
  /** Something probably wrong (start-up warnings). */
  warn: StructuredLogFn;
  /** A failure (internal errors). */
  error: StructuredLogFn;
  /** A logger that adds `bindings` to every record (TypeMCP binds `component`). */
  child(bindings: Record<string, unknown>): StructuredLogger;
}

const LEVELS = ['debug', 'info', 'warn', 'error', 'child'] as const;

/** True when `value` has every method of a {@link StructuredLogger}. */
export function isStructuredLogger(value: unknown): value is StructuredLogger {
  return value !== null && typeof value === 'object' && LEVELS.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
}

/** The claims a principal's id is read from, in order. */
const ID_CLAIMS = ['sub', 'subject', 'id', 'clientId'] as const;

/**
 * The id of a principal, for logs and rate-limit keys: the principal itself when it is a string
 * or a number, else its first `sub`, `subject` (a verified token's principal), `id` or `clientId` member that is a non-empty string or a
 * number. Undefined when there is none (no principal, or one without such a member): nothing
 * else of a principal is ever logged.
 * @publicApi
 */
export function principalId(principal: unknown): string | undefined {
  if (typeof principal === 'string') return principal.length ? principal : undefined;
  if (typeof principal === 'number') return String(principal);
  if (principal === null || typeof principal !== 'object') return undefined;
  for (const claim of ID_CLAIMS) {
    const value = (principal as Record<string, unknown>)[claim];
    if ((typeof value === 'string' && value.length) || typeof value === 'number') return String(value);
  }
  return undefined;
}
