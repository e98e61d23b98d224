/**
 * The default event store, in memory and bounded: at most `maxEventsPerStream` events per stream
 * (the oldest go first) and about `maxBytesPerSession` per session (other streams go first,
 * oldest first; the newest event always stays).
 */
import type { EventStore, StoredEvent } from './event-store.interface.js';

/** @publicApi */
export interface MemoryEventStoreOptions {
  /** Events kept per stream (default 100). */
  maxEventsPerStream?: number;
  /** Approximate bytes kept per session (default 1 MiB). */
  maxBytesPerSession?: number;
}

// Rough per-event bookkeeping cost, so many tiny events are bounded too.
const EVENT_OVERHEAD = 64;

interface SessionLog {
  /** Streams in creation order. */
  readonly streams: Map<string, StoredEvent[]>;
  bytes: number;
}

const size = (event: StoredEvent) => event.message.length + EVENT_OVERHEAD;

/** @publicApi */
export class MemoryEventStore implements EventStore {
  private readonly logs = new Map<string, SessionLog>();
  private readonly maxEvents: number;
  private readonly maxBytes: number;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEventsPerStream ?? 100;
    this.maxBytes = options.maxBytesPerSession ?? 1024 * 1024;
  }

  append(sessionId: string, streamId: string, seq: number, message: string): void {
    let log = this.logs.get(sessionId);
    if (!log) this.logs.set(sessionId, (log = { streams: new Map(), bytes: 0 }));
    let events = log.streams.get(streamId);
    if (!events) log.streams.set(streamId, (events = []));
    const event = { seq, message };
    events.push(event);
    log.bytes += size(event);
    if (events.length > this.maxEvents) log.bytes -= size(events.shift()!);
    this.trim(log, streamId);
  }

  read(sessionId: string, streamId: string, afterSeq: number): readonly StoredEvent[] | undefined {
    const events = this.logs.get(sessionId)?.streams.get(streamId);
    return events?.filter((e) => e.seq > afterSeq);
  }

  deleteStream(sessionId: string, streamId: string): void {
    const log = this.logs.get(sessionId);
    const events = log?.streams.get(streamId);
    if (!log || !events) return;
    for (const e of events) log.bytes -= size(e);
    log.streams.delete(streamId);
    if (log.streams.size === 0) this.logs.delete(sessionId);
  }

  deleteSession(sessionId: string): void {
    this.logs.delete(sessionId);
  }

  /** Sessions with kept events (for tests and metrics). */
  get sessionCount(): number {
    return this.logs.size;
  }

  // Other streams go first, oldest first; then the oldest events of the current one.
  private trim(log: SessionLog, current: string): void {
    if (log.bytes <= this.maxBytes) return;
    for (const [id, events] of log.streams) {
      if (id === current) continue;
      for (const e of events) log.bytes -= size(e);
      log.streams.delete(id);
      if (log.bytes <= this.maxBytes) return;
    }
    const events = log.streams.get(current)!;
    while (log.bytes > this.maxBytes && events.length > 1) log.bytes -= size(events.shift()!);
  }
}
