/**
 * One session's view of the event store: the session id is fixed (so a session can only ever
 * read its own streams), and store failures are reported, never thrown into message routing.
 *
 * Writes to a store that answers asynchronously (Redis) go out one stream at a time, in order,
 * each after the previous one was taken: a failed write (the store away for a moment) is tried
 * again, and the stream's later writes wait behind it, so an outage delays a resumed client's
 * events but never loses or reorders one (a stream's event ids only grow). Past
 * {@link WRITE_RETRY_MS} the write is given up and reported.
 */
import { unref } from '@typemcp/protocol/internal';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { EventStore, StoredEvent } from './event-store.interface.js';

/** How long a write is tried again while the store fails it. */
export const WRITE_RETRY_MS = 30_000;

export class SessionEventLog {
  /** Per stream, the last write still in flight (or waiting to be tried again). */
  private readonly writes = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: EventStore,
    private readonly sessionId: string,
    private readonly report: (error: unknown, where: string) => void,
  ) {}

  append(streamId: string, seq: number, message: string): void {
    this.write(streamId, () => this.store.append(this.sessionId, streamId, seq, message), 'append');
  }

  /**
   * The kept events after `afterSeq` (once this stream's writes are in); undefined when the
   * stream is unknown. A store that cannot be read is reported and refuses the resume (503, retry
   * later): an empty replay would lose the events it holds.
   */
  async read(streamId: string, afterSeq: number): Promise<readonly StoredEvent[] | undefined> {
    try {
      await this.writes.get(streamId);
      return await this.store.read(this.sessionId, streamId, afterSeq);
    } catch (error) {
      this.report(error, 'event store read');
      throw new HttpTransportError(HttpErrorCode.StateUnavailable, 'Service unavailable: the event store cannot be read; resume later', {
        headers: { 'Retry-After': '1' },
      });
    }
  }

  deleteStream(streamId: string): void {
    this.write(streamId, () => this.store.deleteStream(this.sessionId, streamId), 'deleteStream');
  }

  /** Marks a stream complete (shared stores). */
  end(streamId: string, lastSeq: number): void {
    const store = this.store;
    if (store.end) this.write(streamId, () => store.end!(this.sessionId, streamId, lastSeq), 'end');
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

  /** The session ended: pending writes are given up, its streams deleted. */
  deleteSession(): void {
    this.closed = true;
    this.writes.clear();
    try {
      const pending = this.store.deleteSession(this.sessionId);
      if (pending) pending.catch((error: unknown) => this.report(error, 'event store deleteSession'));
    } catch (error) {
      this.report(error, 'event store deleteSession');
    }
  }

  /** Runs a write of `streamId` after the stream's earlier ones (a synchronous store: at once). */
  private write(streamId: string, op: () => void | Promise<void>, what: string): void {
    const before = this.writes.get(streamId);
    if (before === undefined) {
      let first: void | Promise<void>;
      try {
        first = op();
      } catch (error) {
        return this.report(error, `event store ${what}`);
      }
      if (first === undefined) return;
      return this.chain(
        streamId,
        first.catch((error: unknown) => this.retry(op, what, error)),
      );
    }
    this.chain(
      streamId,
      before.then(() => this.retry(op, what)),
    );
  }

  private chain(streamId: string, pending: Promise<void>): void {
    this.writes.set(streamId, pending);
    void pending.then(() => {
      if (this.writes.get(streamId) === pending) this.writes.delete(streamId);
    });
  }

  /** Tries `op` (again, after `failed`) until it is taken, the session ends, or WRITE_RETRY_MS have passed. */
  private async retry(op: () => void | Promise<void>, what: string, failed?: unknown): Promise<void> {
    const until = Date.now() + WRITE_RETRY_MS;
    let error = failed;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      if (error === undefined) {
        try {
          return await op();
        } catch (e) {
          error = e;
        }
      }
      if (this.closed) return;
      if (Date.now() + wait > until) return this.report(error, `event store ${what}`);
      await new Promise((resolve) => unref(setTimeout(resolve, wait)));
      error = undefined;
    }
  }
}
