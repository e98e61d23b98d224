/**
 * A bad option of serveHttp() or createMcpExpressApp(): thrown before anything is served, with a
 * stable code and the option's name, and a message that says what to pass instead.
 */

/** @publicApi */
export class HttpOptionError extends Error {
  override readonly name = 'HttpOptionError';
  /** Always `TYPEMCP_HTTP_INVALID_OPTION`. */
  readonly code = 'TYPEMCP_HTTP_INVALID_OPTION';

  constructor(
    /** The option at fault, e.g. `requestTimeoutMs`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

/** `value` when it is absent or a non-negative safe integer; otherwise throws an HttpOptionError naming `option`. */
export function nonNegativeInteger(option: string, value: unknown, unit: string): number | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0)) return value as number | undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new HttpOptionError(option, `${option} must be a non-negative integer (${unit}; 0 turns it off), got ${shown}`);
}
