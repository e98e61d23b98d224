/**
 * The default session store: a Map in recency order (a lookup moves the session to the end), a
 * sweep that closes sessions idle longer than the timeout, and a cap that evicts the least
 * recently used idle session. A busy session (a request in flight, a stream open) is never
 * evicted; when every session is busy a new one is refused (the caller answers 503).
 */
import { checkOption as check, unref } from '@typemcp/protocol/internal';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import type { SessionStore, StoredSession } from './session-store.interface.js';

/** @publicApi */
export interface MemorySessionStoreOptions {
  /** Idle time after which a session is closed (default 30 min). */
  idleTimeoutMs?: number;
  /** Most sessions held (default 10 000). */
  maxSessions?: number;
  /** How often idle sessions are looked for (default: a quarter of the timeout, at most 60 s). */
  sweepIntervalMs?: number;
  /** Called with each session the store closes (idle or evicted for room). */
  onEvict?: (session: StoredSession, reason: 'idle' | 'capacity') => void;
}

export const DEFAULT_IDLE_TIMEOUT_MS = HTTP_DEFAULTS.idleTimeoutMs;
export const DEFAULT_MAX_SESSIONS = HTTP_DEFAULTS.maxSessions;

/** @publicApi */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly idleTimeoutMs: number;
  private readonly maxSessions: number;
  private readonly timer: NodeJS.Timeout;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(private readonly options: MemorySessionStoreOptions = {}) {
    check.ms('idleTimeoutMs', options.idleTimeoutMs, 1, DEFAULT_IDLE_TIMEOUT_MS);
    check.integer('maxSessions', options.maxSessions, 1, Number.MAX_SAFE_INTEGER, DEFAULT_MAX_SESSIONS);
    check.ms('sweepIntervalMs', options.sweepIntervalMs, 1);
    check.function('onEvict', options.onEvict);
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    const interval = options.sweepIntervalMs ?? Math.min(60_000, Math.max(10, Math.floor(this.idleTimeoutMs / 4)));
    this.timer = setInterval(() => this.sweep(), interval);
    // Sessions, not their housekeeping, keep a process alive.
    unref(this.timer);
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): StoredSession | undefined {
    const session = this.sessions.get(id);
    if (session) {
      this.sessions.delete(id);
      this.sessions.set(id, session);
    }
    return session;
  }

  add(session: StoredSession): boolean {
    if (this.sessions.size >= this.maxSessions) {
      const victim = this.leastRecentlyUsedIdle();
      if (!victim) return false;
      this.evict(victim, 'capacity');
    }
    this.sessions.set(session.id, session);
    return true;
  }

  delete(id: string): boolean {
    return this.sessions.delete(id);
  }

  values(): IterableIterator<StoredSession> {
    return this.sessions.values();
  }

  dispose(): void {
    clearInterval(this.timer);
  }

  /** Closes every session idle for longer than the timeout (also runs on a timer). */
  sweep(now = Date.now()): void {
    // Recency order follows lookups, not lastActiveAt (a stream can outlive its lookup), so scan all.
    for (const session of [...this.sessions.values()]) {
      if (!session.busy && now - session.lastActiveAt >= this.idleTimeoutMs) this.evict(session, 'idle');
    }
  }

  private leastRecentlyUsedIdle(): StoredSession | undefined {
    for (const session of this.sessions.values()) if (!session.busy) return session;
    return undefined;
  }

  private evict(session: StoredSession, reason: 'idle' | 'capacity'): void {
    this.sessions.delete(session.id);
    this.options.onEvict?.(session, reason);
    void session.close(0);
  }
}
