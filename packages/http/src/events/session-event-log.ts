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

  /** Marks a stream complete (shared stores). */
  end(streamId: string, lastSeq: number): void {
    const store = this.store;
    if (store.end) this.run(() => store.end!(this.sessionId, streamId, lastSeq), 'end');
  }

  /**
   * Follows a stream another instance writes (see EventStore.follow); a store without `follow`
   * replays what is kept and ends. `opened` is called before waiting, so the response starts.
   */
  async follow(
    streamId: string,
    afterSeq: number,
    onEvent: (event: StoredEvent) => void,
    options: { signal: AbortSignal; idleMs: number },
    opened: () => void,
  ): Promise<'ended' | 'aborted' | 'idle' | 'unknown'> {
    const store = this.store;
    if (!store.follow) {
      const kept = await this.read(streamId, afterSeq);
      if (!kept) return 'unknown';
      opened();
      for (const e of kept) onEvent(e);
      return 'ended';
    }
    const kept = await this.read(streamId, afterSeq);
    if (!kept) return 'unknown';
    opened();
    let last = afterSeq;
    for (const e of kept) {
      onEvent(e);
      last = e.seq;
    }
    try {
      return await store.follow(this.sessionId, streamId, last, onEvent, options);
    } catch (error) {
      this.report(error, 'event store follow');
      return 'ended';
    }
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
