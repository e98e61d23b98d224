/**
 * Where the OAuth proxy keeps its state: registered clients, authorizations waiting for consent or
 * for the upstream, authorization codes, refresh tokens, grants (with the upstream's tokens) and
 * consents. One key-value port with expiry, so a shared store (Redis...) is a few lines; the
 * memory store is the default, bounded per kind.
 */

/** The kinds of record the proxy stores. @publicApi */
export type OAuthRecordKind =
  | 'client'
  | 'pending'
  | 'upstream-state'
  | 'code'
  | 'used-code'
  | 'refresh'
  | 'used-refresh'
  | 'grant'
  | 'consent'
  /** A JWT id seen (client assertions, ID-JAGs), kept until the JWT expires: replay detection. */
  | 'jti';

/**
 * The OAuth proxy's storage port. Values are JSON-serialisable objects. `take` must be atomic
 * (get and delete in one step): authorization codes, upstream states and refresh tokens are
 * single-use, and two concurrent redemptions must not both succeed. @publicApi
 */
export interface OAuthProxyStore {
  /** The live record, or undefined (absent or expired). */
  /** See {@link OAuthProxyStore}. */
  get(kind: OAuthRecordKind, key: string): Promise<Record<string, unknown> | undefined>;
  /** Stores `value` under `key` until `ttlMs` from now. */
  /** See {@link OAuthProxyStore}. */
  set(kind: OAuthRecordKind, key: string, value: Record<string, unknown>, ttlMs: number): Promise<void>;
  /** Gets and deletes in one atomic step. */
  /** See {@link OAuthProxyStore}. */
  take(kind: OAuthRecordKind, key: string): Promise<Record<string, unknown> | undefined>;
  /** Removes the record, if any. */
  /** See {@link OAuthProxyStore}. */
  delete(kind: OAuthRecordKind, key: string): Promise<void>;
  /**
   * Stores `value` only when no live record has `key`, in one atomic step; true when stored.
   * Replay detection of JWT ids uses it (a `jti` seen twice, on any instance, loses). A store
   * without it falls back to `get` then `set`, which two concurrent replays can both pass.
   */
  add?(kind: OAuthRecordKind, key: string, value: Record<string, unknown>, ttlMs: number): Promise<boolean>;
}

/** Options of {@link MemoryOAuthProxyStore}. @publicApi */
export interface MemoryOAuthProxyStoreOptions {
  /** Most records of each kind (default 10 000); past it the oldest record of that kind goes. */
  maxEntriesPerKind?: number;
}

interface Entry {
  readonly value: Record<string, unknown>;
  readonly expiresAt: number;
}

/** The default {@link OAuthProxyStore}: one process, bounded per kind (the oldest record goes first), expired records dropped when met. @publicApi */
export class MemoryOAuthProxyStore implements OAuthProxyStore {
  private readonly kinds = new Map<OAuthRecordKind, Map<string, Entry>>();
  private readonly max: number;

  constructor(options: MemoryOAuthProxyStoreOptions = {}) {
    this.max = options.maxEntriesPerKind ?? 10_000;
    if (!Number.isInteger(this.max) || this.max < 1) throw new RangeError('maxEntriesPerKind must be a positive integer');
  }

  /** Records of a kind held now (expired ones may still count until met). */
  size(kind: OAuthRecordKind): number {
    return this.kinds.get(kind)?.size ?? 0;
  }

  /** See {@link OAuthProxyStore}. */
  get(kind: OAuthRecordKind, key: string): Promise<Record<string, unknown> | undefined> {
    return Promise.resolve(this.live(kind, key)?.value);
  }

  /** See {@link OAuthProxyStore}. */
  set(kind: OAuthRecordKind, key: string, value: Record<string, unknown>, ttlMs: number): Promise<void> {
    let map = this.kinds.get(kind);
    if (!map) this.kinds.set(kind, (map = new Map<string, Entry>()));
    map.delete(key);
    map.set(key, { value: structuredClone(value), expiresAt: Date.now() + ttlMs });
    if (map.size > this.max) this.evict(map);
    return Promise.resolve();
  }

  /** See {@link OAuthProxyStore}. */
  take(kind: OAuthRecordKind, key: string): Promise<Record<string, unknown> | undefined> {
    const entry = this.live(kind, key);
    if (entry) this.kinds.get(kind)!.delete(key);
    return Promise.resolve(entry?.value);
  }

  /** See {@link OAuthProxyStore}. */
  delete(kind: OAuthRecordKind, key: string): Promise<void> {
    this.kinds.get(kind)?.delete(key);
    return Promise.resolve();
  }

  /** See {@link OAuthProxyStore}. */
  async add(kind: OAuthRecordKind, key: string, value: Record<string, unknown>, ttlMs: number): Promise<boolean> {
    if (this.live(kind, key)) return false;
    await this.set(kind, key, value, ttlMs);
    return true;
  }

  private live(kind: OAuthRecordKind, key: string): Entry | undefined {
    const map = this.kinds.get(kind);
    const entry = map?.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      map!.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops the oldest record (insertion order: `set` re-inserts), O(1). */
  private evict(map: Map<string, Entry>): void {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
