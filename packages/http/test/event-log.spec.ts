/**
 * A session's writes to an event store that answers asynchronously and is away for a moment
 * (what a Redis restart looks like from an instance): nothing is lost or reordered, later writes
 * of a stream wait behind the failed one, and a read that fails refuses the resume (503) rather
 * than replaying nothing. The store is the real MemoryEventStore behind an async wrapper that
 * rejects while `down`.
 */
import { MemoryEventStore, type EventStore, type StoredEvent } from '@typemcp/http';
import { SessionEventLog } from '../src/events/session-event-log';

class FlakyStore implements EventStore {
  down = false;
  readonly inner = new MemoryEventStore();
  private gate<T>(op: () => T): Promise<T> {
    return new Promise((resolve, reject) => setImmediate(() => (this.down ? reject(new Error('Redis is not reachable')) : resolve(op()))));
  }
  append(s: string, stream: string, seq: number, message: string): Promise<void> {
    return this.gate(() => this.inner.append(s, stream, seq, message));
  }
  read(s: string, stream: string, after: number): Promise<readonly StoredEvent[] | undefined> {
    return this.gate(() => this.inner.read(s, stream, after));
  }
  deleteStream(s: string, stream: string): Promise<void> {
    return this.gate(() => this.inner.deleteStream(s, stream));
  }
  deleteSession(s: string): Promise<void> {
    return this.gate(() => this.inner.deleteSession(s));
  }
}

describe('SessionEventLog on a store that is away for a moment', () => {
  it('keeps every write of a stream, in order, and a read waits for them', async () => {
    const store = new FlakyStore();
    const reported: unknown[] = [];
    const log = new SessionEventLog(store, 'sid', (e) => reported.push(e));
    log.append('st', 1, 'one');
    store.down = true;
    log.append('st', 2, 'two');
    log.append('st', 3, 'three');
    await new Promise((r) => setTimeout(r, 120));
    store.down = false;
    log.append('st', 4, 'four');
    expect(await log.read('st', 0)).toEqual([
      { seq: 1, message: 'one' },
      { seq: 2, message: 'two' },
      { seq: 3, message: 'three' },
      { seq: 4, message: 'four' },
    ]);
    expect(reported).toEqual([]);
  });

  it('refuses a read the store cannot answer with a 503 to try again, and reports it', async () => {
    const store = new FlakyStore();
    const reported: unknown[] = [];
    const log = new SessionEventLog(store, 'sid', (e, where) => reported.push(where));
    store.down = true;
    await expect(log.read('st', 0)).rejects.toMatchObject({ status: 503, code: 'TYPEMCP_HTTP_STATE_UNAVAILABLE', headers: { 'Retry-After': '1' } });
    expect(reported).toEqual(['event store read']);
  });
});
