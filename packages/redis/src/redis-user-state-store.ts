/**
 * Per-user state in Redis (the UserStateStore port of @typemcp/protocol), shared by every
 * instance: one hash per (user, slot), `<prefix>:us:{<scope>}:<name>` with `v` its version and
 * `d` the JSON, expiring `ttlMs` after its last write. Every key of one user shares its hash tag
 * (one Cluster slot); the scope is a digest of the principal (or the session id), never the
 * principal itself. A compare-and-set write is one script.
 */
import type { StoredUserState, UserStateStore } from '@typemcp/protocol';
import { ORDERED, Script } from './lua-script.js';
import type { RedisConnection } from './redis-connection.js';

// KEYS: value. ARGV: json, ttl (ms), expected version ('' any). The new version, or -1 when the stored one is not the expected one.
const setValue = new Script(
  `local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if ARGV[3] ~= '' and v ~= tonumber(ARGV[3]) then return -1 end
v = v + 1
redis.call('HSET', KEYS[1], 'v', v, 'd', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return v`,
  ORDERED,
);

/** Made by RedisState.userStateStore(); serveHttp installs it on a server given no store of its own. @publicApi */
export class RedisUserStateStore implements UserStateStore {
  /** @internal */
  constructor(
    private readonly connection: RedisConnection,
    /** Prefix of every key. */
    readonly prefix: string,
  ) {}

  /** The key of one user's value of one slot. */
  keyOf(scope: string, name: string): string {
    return `${this.prefix}:us:{${scope}}:${name}`;
  }

  async get(scope: string, name: string): Promise<StoredUserState | undefined> {
    const key = this.keyOf(scope, name);
    const [version, value] = (await this.connection.command(key, ['HMGET', key, 'v', 'd'])) as (string | null)[];
    return typeof value === 'string' ? { value, version: Number(version) } : undefined;
  }

  async set(scope: string, name: string, value: string, ttlMs: number, expected?: number): Promise<number | undefined> {
    const version = (await this.connection.script(
      setValue,
      [this.keyOf(scope, name)],
      [value, String(ttlMs), expected === undefined ? '' : String(expected)],
    )) as number;
    return version < 0 ? undefined : version;
  }

  async delete(scope: string, name: string): Promise<void> {
    const key = this.keyOf(scope, name);
    await this.connection.command(key, ['DEL', key]);
  }
}
