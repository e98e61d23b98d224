/**
 * Keep-alive for every open SSE connection: one unref'd interval writes a `: ping` comment to
 * each, so proxies keep idle streams open and dead peers are noticed (the write fails, the
 * response closes). One timer for all connections, not one per stream.
 */
import { unref } from '@typemcp/protocol/internal';

/** What the keep-alive needs of a connection (an SseConnection). */
export interface KeptAlive {
  /** Writes an SSE comment line. */
  comment(text: string): void;
  /** Ends the stream. */
  end(): void;
}

export class KeepAlive<C extends KeptAlive = KeptAlive> {
  private readonly connections = new Set<C>();
  private readonly timer?: NodeJS.Timeout;

  constructor(intervalMs: number) {
    if (intervalMs > 0) {
      this.timer = setInterval(() => this.ping(), intervalMs);
      unref(this.timer);
    }
  }

  add(connection: C): void {
    this.connections.add(connection);
  }

  delete(connection: C): void {
    this.connections.delete(connection);
  }

  /** Open connections (every SSE stream of this server). */
  get size(): number {
    return this.connections.size;
  }

  /** Every open connection (for shutdown). */
  all(): C[] {
    return [...this.connections];
  }

  ping(): void {
    for (const connection of this.connections) connection.comment('ping');
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
