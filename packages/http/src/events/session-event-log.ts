/**
 * One session's view of the event store: the session id is fixed (so a session can only ever
 * read its own streams), and store failures are reported, never thrown into message routing.
 */
import type { EventStore, StoredEvent } from './event-store.interface.js';

export class SessionEventLog {
  constructor(
    private readonly store: EventStore,
    private readonly sessionId: string,
    private readonly report: (error: unknown, where: string) => void,
  ) {}

  append(streamId: string, seq: number, message: string): void {
    this.run(() => this.store.append(this.sessionId, streamId, seq, message), 'append');
  }

  /** The kept events after `afterSeq`; undefined when the stream is unknown (or the store failed). */
  async read(streamId: string, afterSeq: number): Promise<readonly StoredEvent[] | undefined> {
    try {
      return await this.store.read(this.sessionId, streamId, afterSeq);
    } catch (error) {
      this.report(error, 'event store read');
      return undefined;
    }
  }

  deleteStream(streamId: string): void {
    this.run(() => this.store.deleteStream(this.sessionId, streamId), 'deleteStream');
  }

  deleteSession(): void {
    this.run(() => this.store.deleteSession(this.sessionId), 'deleteSession');
  }

  private run(op: () => void | Promise<void>, what: string): void {
    try {
      const pending = op();
      if (pending) pending.catch((error: unknown) => this.report(error, `event store ${what}`));
    } catch (error) {
      this.report(error, `event store ${what}`);
    }
  }
}
