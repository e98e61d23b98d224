/**
 * Per-user state for handlers: a slot, defined once with `userState<T>(name)`, gives each user
 * their own typed value (`ctx.userState(slot)`: get, set, update, delete). The user is the
 * request's authenticated principal (its `principalKey`: for a verified token its issuer, subject
 * and client, so a refreshed token keeps the state), or, without authentication, the legacy
 * session (its `Mcp-Session-Id`; the connection on stdio). A request with neither (a stateless
 * 2026-07-28 request without authentication) has no user, and its state calls fail. Values are
 * JSON, capped in size, and expire `ttlMs` after their last write.
 */
import { ProtocolErrorCode } from '../errors.js';
import { DefinitionError } from '../registry/definition.error.js';
import type { UserStateStore } from './user-state-store.js';

/** A named slot of per-user state holding a `T` (JSON). Define it once, at module level. @publicApi */
export interface UserStateSlot<T> {
  readonly name: string;
  /** Expiry after the last write, in ms (default: the server's `userState.ttlMs`). */
  readonly ttlMs?: number;
  /** Largest value, as JSON in UTF-8 bytes (default: the server's `userState.maxBytes`). */
  readonly maxBytes?: number;
  /** Never set: carries `T`. */
  readonly type?: T;
}

/**
 * Defines a slot of per-user state: `const cart = userState<Cart>('cart', { ttlMs: 86_400_000 })`,
 * then `await ctx.userState(cart).get()` in a handler. Throws a DefinitionError
 * (`TYPEMCP_ERR_INVALID_USER_STATE`) for a name or option that cannot work.
 * @publicApi
 */
export function userState<T>(name: string, options: { ttlMs?: number; maxBytes?: number } = {}): UserStateSlot<T> {
  if (typeof name !== 'string' || !/^[\w.-]{1,100}$/.test(name)) {
    throw new DefinitionError(
      ProtocolErrorCode.InvalidUserState,
      `userState(${JSON.stringify(name)}): name it with 1 to 100 letters, digits, '_', '.' or '-'.`,
    );
  }
  for (const key of ['ttlMs', 'maxBytes'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new DefinitionError(ProtocolErrorCode.InvalidUserState, `userState("${name}"): "${key}" must be a positive whole number, not ${String(value)}.`);
    }
  }
  return Object.freeze({ name, ...options });
}

/** Stable codes of {@link UserStateError}. @publicApi */
export type UserStateErrorCode = (typeof ProtocolErrorCode)['UserStateAnonymous' | 'UserStateTooLarge' | 'UserStateConflict'];

/** A per-user state operation that cannot be done; `code` says why. A handler that lets it through fails with an internal error. @publicApi */
export class UserStateError extends Error {
  override readonly name = 'UserStateError';
  constructor(
    readonly code: UserStateErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** How many times `update` reads and tries again when another request wrote in between. */
const UPDATE_ATTEMPTS = 8;

/** One user's value of one slot. @publicApi */
export class UserState<T> {
  /** @internal Made by `ctx.userState(slot)`. */
  constructor(
    private readonly store: UserStateStore,
    private readonly scope: string,
    readonly slot: UserStateSlot<T>,
    private readonly ttlMs: number,
    private readonly maxBytes: number,
  ) {}

  /** The value, or undefined when none is set (or it expired). */
  async get(): Promise<T | undefined> {
    const stored = await this.store.get(this.scope, this.slot.name);
    return stored === undefined ? undefined : (JSON.parse(stored.value) as T);
  }

  /** Replaces the value (its expiry starts again). */
  async set(value: T): Promise<void> {
    await this.store.set(this.scope, this.slot.name, this.encode(value), this.ttlMs);
  }

  /**
   * Replaces the value with `change(current)`, atomically: when another request (on any
   * instance) wrote meanwhile, `change` runs again on the newer value. Resolves with what was stored.
   */
  async update(change: (current: T | undefined) => T): Promise<T> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const stored = await this.store.get(this.scope, this.slot.name);
      const next = change(stored === undefined ? undefined : (JSON.parse(stored.value) as T));
      const written = await this.store.set(this.scope, this.slot.name, this.encode(next), this.ttlMs, stored?.version ?? 0);
      if (written !== undefined) return next;
    }
    throw new UserStateError(
      ProtocolErrorCode.UserStateConflict,
      `userState("${this.slot.name}"): ${UPDATE_ATTEMPTS} updates in a row were overtaken by other writes`,
    );
  }

  /** Removes the value. */
  async delete(): Promise<void> {
    await this.store.delete(this.scope, this.slot.name);
  }

  private encode(value: T): string {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError(`userState("${this.slot.name}"): the value must be JSON (got ${typeof value})`);
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxBytes) {
      throw new UserStateError(
        ProtocolErrorCode.UserStateTooLarge,
        `userState("${this.slot.name}"): the value is ${bytes} bytes as JSON, over the ${this.maxBytes} allowed`,
      );
    }
    return text;
  }
}
