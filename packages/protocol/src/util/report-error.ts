/**
 * The default destination of internal errors (`onError` unset): one line on stderr with the
 * stack, never on the wire.
 */

/** Writes `error` and where it happened as one stderr line that starts with `prefix`. */
export function writeErrorLine(prefix: string, error: unknown, where: string): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${prefix} ${where}: ${detail}\n`);
}
