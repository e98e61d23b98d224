/**
 * The user state store port: where per-user state lives, one JSON text per (scope, name) with a
 * version (for compare-and-set updates) and a time to live. `MemoryUserStateStore` is the
 * default; `@typemcp/redis` keeps it in Redis when the HTTP server shares state there.
 */

/** One stored value. @publicApi */
export interface StoredUserState {
  readonly value: string;
  /** Increases with every write (1 for the first). */
  readonly version: number;
}

/** Each method may answer synchronously (in memory) or with a promise (Redis). @publicApi */
export interface UserStateStore {
  /** The value of `name` for `scope`; undefined when there is none (never set, deleted or expired). */
  get(scope: string, name: string): StoredUserState | undefined | Promise<StoredUserState | undefined>;
  /**
   * Stores `value`, expiring `ttlMs` after this write. With `expected` (0: there must be none),
   * only when the stored version is that one. Resolves with the new version, or undefined when
   * the version did not match (nothing written).
   */
  set(scope: string, name: string, value: string, ttlMs: number, expected?: number): number | undefined | Promise<number | undefined>;
  delete(scope: string, name: string): void | Promise<void>;
}

/** Options of the in-memory store. @publicApi */
export interface MemoryUserStateStoreOptions {
  /** Most values kept at once (default 10 000): past it, the least recently used go first. */
  maxEntries?: number;
}

interface Entry {
  value: string;
  version: number;
  expiresAt: number;
}

/**
 * Per-user state in a Map, bounded: past `maxEntries` the least recently used value goes; an
 * expired one is dropped when read. One process only.
 * @publicApi
 */
export class MemoryUserStateStore implements UserStateStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;

  constructor(options: MemoryUserStateStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** How many values are held (expired ones not yet dropped included). */
  get size(): number {
    return this.entries.size;
  }

  get(scope: string, name: string): StoredUserState | undefined {
    const key = `${scope}\u0000${name}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { value: entry.value, version: entry.version };
  }

  set(scope: string, name: string, value: string, ttlMs: number, expected?: number): number | undefined {
    const key = `${scope}\u0000${name}`;
    const current = this.get(scope, name);
    if (expected !== undefined && (current?.version ?? 0) !== expected) return undefined;
    const version = (current?.version ?? 0) + 1;
    this.entries.delete(key);
    this.entries.set(key, { value, version, expiresAt: Date.now() + ttlMs });
    // Past the bound the least recently used goes (an expired value goes when read, or in its turn).
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return version;
  }

  delete(scope: string, name: string): void {
    this.entries.delete(`${scope}\u0000${name}`);
  }
}
