/**
 * The OAuth proxy's store in Redis (the OAuthProxyStore port of @typemcp/http), shared by every
 * instance of a proxy: one string per record, `<prefix>:oa:<kind>:{<key>}`, its JSON with the
 * record's TTL. Single use holds across instances because each step is one atomic command: `add`
 * is SET NX (a code's or refresh token's used-marker, a JWT id: added once, anywhere), `take` is
 * GETDEL. Keys are what the proxy gives: digests of codes and tokens, random ids, never a token
 * itself.
 */
import type { OAuthProxyStore, OAuthRecordKind } from '@typemcp/http';
import type { RedisConnection } from './redis-connection.js';

/** Made by RedisState.oauthProxyStore(); give it as `oauthProxy.store` to every instance. @publicApi */
export class RedisOAuthProxyStore implements OAuthProxyStore {
  /** @internal */
  constructor(
    private readonly connection: RedisConnection,
    /** Prefix of every key. */
    readonly prefix: string,
  ) {}

  /** The key of one record (its own hash tag: one Cluster slot per record). */
  keyOf(kind: OAuthRecordKind, key: string): string {
    return `${this.prefix}:oa:${kind}:{${key}}`;
  }

  async get(kind: OAuthRecordKind, key: string): Promise<Record<string, unknown> | undefined> {
    const k = this.keyOf(kind, key);
    return parse(await this.connection.command(k, ['GET', k]));
  }

  async set(kind: OAuthRecordKind, key: string, value: Record<string, unknown>, ttlMs: number): Promise<void> {
    const k = this.keyOf(kind, key);
    await this.connection.command(k, ['SET', k, JSON.stringify(value), 'PX', String(Math.max(1, Math.ceil(ttlMs)))]);
  }

  async take(kind: OAuthRecordKind, key: string): Promise<Record<string, unknown> | undefined> {
    const k = this.keyOf(kind, key);
    return parse(await this.connection.command(k, ['GETDEL', k]));
  }

  async delete(kind: OAuthRecordKind, key: string): Promise<void> {
    const k = this.keyOf(kind, key);
    await this.connection.command(k, ['DEL', k]);
  }

  async add(kind: OAuthRecordKind, key: string, value: Record<string, unknown>, ttlMs: number): Promise<boolean> {
    const k = this.keyOf(kind, key);
    return (await this.connection.command(k, ['SET', k, JSON.stringify(value), 'PX', String(Math.max(1, Math.ceil(ttlMs))), 'NX'])) === 'OK';
  }
}

function parse(reply: unknown): Record<string, unknown> | undefined {
  if (typeof reply !== 'string') return undefined;
  const value = JSON.parse(reply) as unknown;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
