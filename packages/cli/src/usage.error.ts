/** A mistake in how a command was called (exit code 2), as opposed to an error the server reported (1). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
