/**
 * The per-user state of one server: its store (memory by default; a shared one installed by the
 * HTTP transport when instances share state, unless one was given), its defaults, and the rule
 * naming a request's user (see user-state.ts).
 */
import { ProtocolErrorCode } from '../errors.js';
import { nodeCrypto } from '../util/node-crypto.js';
import { principalDigest } from '../server/principal-key.js';
import { UserState, UserStateError, type UserStateSlot } from './user-state.js';
import { MemoryUserStateStore, type UserStateStore } from './user-state-store.js';

/** The `userState` option of a server. @publicApi */
export interface UserStateOptions {
  /** Where values live (default: in memory, at most 10 000; with shared HTTP state on Redis, there). */
  store?: UserStateStore;
  /** Expiry after a value's last write, in ms, unless its slot says otherwise (default 3 600 000, an hour). */
  ttlMs?: number;
  /** Largest value as JSON, in bytes, unless its slot says otherwise (default 65 536). */
  maxBytes?: number;
}

/** Who a request's state belongs to: its principal, else its legacy session. */
export interface UserStateOwner {
  readonly principal?: unknown;
  /** The legacy session (undefined for a 2026-07-28 request); its `sessionId` when it has one. */
  readonly session?: object & { readonly sessionId?: string };
}

/** @publicApi */
export class UserStates {
  private store?: UserStateStore;
  private readonly given: boolean;
  private readonly ttlMs: number;
  private readonly maxBytes: number;
  /** Sessions without an id (stdio): a random scope each, for the connection's life. */
  private readonly connections = new WeakMap<object, string>();

  constructor(options: UserStateOptions = {}) {
    this.store = options.store;
    this.given = options.store !== undefined;
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.maxBytes = options.maxBytes ?? 65_536;
  }

  /** Uses a store shared by several instances (what the HTTP transport does with its shared state), unless the server was given one. */
  share(store: UserStateStore): void {
    if (!this.given) this.store = store;
  }

  /** The state of `slot` for the user of a request; throws a UserStateError when the request has no user. */
  of<T>(slot: UserStateSlot<T>, owner: UserStateOwner): UserState<T> {
    this.store ??= new MemoryUserStateStore();
    return new UserState(this.store, this.scopeOf(owner), slot, slot.ttlMs ?? this.ttlMs, slot.maxBytes ?? this.maxBytes);
  }

  private scopeOf(owner: UserStateOwner): string {
    if (owner.principal !== undefined && owner.principal !== null) return `p.${principalDigest(owner.principal)}`;
    const session = owner.session;
    if (session?.sessionId) return `s.${session.sessionId}`;
    if (session) {
      let scope = this.connections.get(session);
      if (!scope) this.connections.set(session, (scope = `c.${nodeCrypto().randomUUID()}`));
      return scope;
    }
    throw new UserStateError(
      ProtocolErrorCode.UserStateAnonymous,
      'Per-user state needs a user: an authenticated principal, or a legacy session; this request has neither (a 2026-07-28 request without authentication)',
    );
  }
}
