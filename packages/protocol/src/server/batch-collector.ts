/**
 * The responses of one JSON-RPC batch (2025-03-26 sessions): gathered as their requests finish
 * and written as one array, once, after every member was dispatched.
 */

/** Collects the responses of one JSON-RPC batch so they leave as one array, once. */
export class BatchCollector {
  private readonly responses: string[] = [];
  private pending = 0;
  private dispatching = true;

  constructor(private readonly flush: (message: string) => void) {}

  /** Counts one more response to wait for. */
  expect(): void {
    this.pending++;
  }

  /** Adds one response; `undefined` for a request that gets none (cancelled). */
  add(message: string | undefined): void {
    if (message) this.responses.push(message);
    this.pending--;
    this.maybeFlush();
  }

  /** Call after every member of the batch was dispatched. */
  seal(): void {
    this.dispatching = false;
    this.maybeFlush();
  }

  private maybeFlush(): void {
    if (this.dispatching || this.pending > 0 || this.responses.length === 0) return;
    this.flush(`[${this.responses.join(',')}]`);
    this.responses.length = 0;
  }
}
