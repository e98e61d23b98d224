/**
 * SharedState on Redis (node-redis): session records as hashes whose TTL is the idle timeout,
 * resumable events in Redis Streams (bounded length and age; entry ids `0-<seq>`, so a resume
 * reads exactly the events after an id), pub/sub for messages between instances (one channel
 * per instance and one broadcast channel: O(instances) subscriptions, never O(sessions)).
 * Commands fail fast when Redis is down (no offline queue, a command timeout); the client
 * reconnects by itself.
 */
import { randomBytes } from 'node:crypto';
import type { EventStore, SharedMessage, SharedSessionRecord, SharedState, SharedStateHealth, StoredEvent } from '@typemcp/http';
import { checkOption as check } from '@typemcp/protocol/internal';
import { ORDERED, Script } from './lua-script.js';
import { RedisConnection, type BlockingReader, type Reply } from './redis-connection.js';
import { checkRedisOptions, type RedisStateOptions } from './redis-options.js';
import { RedisTaskStore } from './redis-task-store.js';
import { RedisOAuthProxyStore } from './redis-oauth-proxy-store.js';
import { RedisUserStateStore } from './redis-user-state-store.js';

export { withTimeout } from './redis-connection.js';

/** Node numbers wrap here, so server->client request ids stay safe integers (see the http package). */
const NODE_SPACE = 2 ** 20;

// Sets the GET-stream holder only on a session that still exists (never creates a key without TTL).
const setStreamNode = new Script(`if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'g', ARGV[1]) end return 0`, ORDERED);
// Clears it only when the given node still holds it (another may have taken over).
const clearStreamNode = new Script(`if redis.call('HGET', KEYS[1], 'g') == ARGV[1] then redis.call('HDEL', KEYS[1], 'g') end return 0`, ORDERED);
// KEYS: session. ARGV: state, ttl (ms).
const saveSession = new Script(`redis.call('HSET', KEYS[1], 'st', ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 0`, ORDERED);
// Deletes a session's event streams and their index. KEYS: index; ARGV: the streams' key prefix
// (the same hash tag as the index, so one slot).
const deleteEvents = new Script(
  `local ids = redis.call('SMEMBERS', KEYS[1])
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1]) return #ids`,
  ORDERED,
);

// One script per event-log write (one command and one reply instead of a MULTI of four): the
// stream key and its index share the session's hash tag, so a Redis Cluster runs it on one shard.
// KEYS: stream, index; ARGV: max length, entry id, message, age (ms), stream id.
const appendEvent = new Script(
  `redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], ARGV[2], 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[4]) return 0`,
  ORDERED,
);
// KEYS: stream; ARGV: entry id, age (ms).
const endStream = new Script(`redis.call('XADD', KEYS[1], ARGV[1], 'end', '1') redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 0`, ORDERED);
// KEYS: stream, index; ARGV: stream id.
const deleteStream = new Script(`redis.call('DEL', KEYS[1]) redis.call('SREM', KEYS[2], ARGV[1]) return 0`, ORDERED);

/** Fields of a stream entry as RESP2 returns them. */
function fields(list: Reply): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(list)) for (let i = 0; i + 1 < list.length; i += 2) out[String(list[i])] = String(list[i + 1]);
  return out;
}

const seqOf = (id: string) => Number(id.slice(id.indexOf('-') + 1));

class RedisEventStore implements EventStore {
  constructor(private readonly owner: RedisState) {}

  append(sessionId: string, streamId: string, seq: number, message: string): Promise<void> {
    const o = this.owner;
    const keys = [o.streamKey(sessionId, streamId), o.streamIndexKey(sessionId)];
    return o.connection.script(appendEvent, keys, [String(o.maxEventsPerStream), `0-${seq}`, message, String(o.eventTtlMs), streamId]).then(() => undefined);
  }

  async read(sessionId: string, streamId: string, afterSeq: number): Promise<readonly StoredEvent[] | undefined> {
    const key = this.owner.streamKey(sessionId, streamId);
    const c = this.owner.connection;
    const entries = (await c.command(key, ['XRANGE', key, `(0-${afterSeq}`, '+'])) as Reply[];
    if (entries.length === 0 && (await c.command(key, ['EXISTS', key])) === 0) return undefined;
    const events: StoredEvent[] = [];
    for (const entry of entries) {
      const [id, list] = entry as [string, Reply];
      const f = fields(list);
      if (f.m !== undefined) events.push({ seq: seqOf(id), message: f.m });
    }
    return events;
  }

  deleteStream(sessionId: string, streamId: string): Promise<void> {
    const o = this.owner;
    return o.connection.script(deleteStream, [o.streamKey(sessionId, streamId), o.streamIndexKey(sessionId)], [streamId]).then(() => undefined);
  }

  deleteSession(sessionId: string): Promise<void> {
    return this.owner.deleteEvents(sessionId);
  }

  end(sessionId: string, streamId: string, lastSeq: number): Promise<void> {
    const key = this.owner.streamKey(sessionId, streamId);
    return this.owner.connection.script(endStream, [key], [`0-${lastSeq + 1}`, String(this.owner.eventTtlMs)]).then(() => undefined);
  }

  async follow(
    sessionId: string,
    streamId: string,
    afterSeq: number,
    onEvent: (event: StoredEvent) => void,
    options: { signal: AbortSignal; idleMs: number },
  ): Promise<'ended' | 'aborted' | 'idle' | 'unknown'> {
    const key = this.owner.streamKey(sessionId, streamId);
    const reader = await this.owner.follower(key);
    const abort = () => reader.destroy();
    options.signal.addEventListener('abort', abort, { once: true });
    try {
      let last = afterSeq;
      let quietSince = Date.now();
      while (!options.signal.aborted) {
        const wait = Math.max(1, Math.min(5000, options.idleMs - (Date.now() - quietSince)));
        const reply = (await reader.command(['XREAD', 'BLOCK', String(wait), 'STREAMS', key, `0-${last}`])) as Reply[] | null;
        if (reply === null) {
          if (Date.now() - quietSince >= options.idleMs) return 'idle';
          if ((await reader.command(['EXISTS', key])) === 0) return 'unknown';
          continue;
        }
        quietSince = Date.now();
        for (const entry of (reply[0] as Reply[])[1] as Reply[]) {
          const [id, list] = entry as [string, Reply];
          const f = fields(list);
          if (f.end !== undefined) return 'ended';
          last = seqOf(id);
          onEvent({ seq: last, message: f.m });
        }
      }
      return 'aborted';
    } catch (error) {
      if (options.signal.aborted) return 'aborted';
      throw error;
    } finally {
      options.signal.removeEventListener('abort', abort);
      this.owner.release(reader);
    }
  }
}

/** @publicApi */
export class RedisState implements SharedState {
  readonly events: EventStore;
  readonly prefix: string;
  readonly eventTtlMs: number;
  readonly maxEventsPerStream: number;
  readonly commandTimeoutMs: number;
  /** @internal The connection every store made from this state shares. */
  readonly connection: RedisConnection;
  private readonly options: RedisStateOptions;
  private node = 0;
  private followers = 0;
  private userStates?: RedisUserStateStore;
  private oauthStore?: RedisOAuthProxyStore;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: RedisStateOptions = {}) {
    checkRedisOptions(options);
    this.options = options;
    this.prefix = options.prefix ?? 'typemcp';
    this.eventTtlMs = options.eventTtlMs ?? 10 * 60_000;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
    this.connection = new RedisConnection(options);
    this.commandTimeoutMs = this.connection.commandTimeoutMs;
    this.events = new RedisEventStore(this);
  }

  /** Keys of one session share a hash tag, so a Redis Cluster keeps them on one shard. */
  sessionKey(id: string): string {
    return `${this.prefix}:s:{${id}}`;
  }

  streamKey(sessionId: string, streamId: string): string {
    return `${this.prefix}:e:{${sessionId}}:${streamId}`;
  }

  streamIndexKey(sessionId: string): string {
    return `${this.prefix}:es:{${sessionId}}`;
  }

  private channel(node: number | 'all'): string {
    return node === 'all' ? `${this.prefix}:bus` : `${this.prefix}:n:${node}`;
  }

  async start(receive: (message: SharedMessage) => void): Promise<number> {
    await this.connection.connect();
    if (this.node === 0) {
      const n = (await this.connection.command(`${this.prefix}:node`, ['INCR', `${this.prefix}:node`])) as number;
      const node = ((n - 1) % NODE_SPACE) + 1;
      const listener = (text: string) => {
        let message: SharedMessage;
        try {
          message = JSON.parse(text) as SharedMessage;
        } catch {
          return;
        }
        receive(message);
      };
      await Promise.all([this.connection.subscribe(this.channel('all'), listener), this.connection.subscribe(this.channel(node), listener)]);
      this.node = node;
    }
    return this.node;
  }

  async loadSession(id: string): Promise<SharedSessionRecord | undefined> {
    const key = this.sessionKey(id);
    const [state, node] = (await this.connection.command(key, ['HMGET', key, 'st', 'g'])) as (string | null)[];
    if (state === null || state === undefined) return undefined;
    return node ? { state, streamNode: Number(node) } : { state };
  }

  saveSession(id: string, state: string, ttlMs: number): Promise<void> {
    return this.connection.script(saveSession, [this.sessionKey(id)], [state, String(ttlMs)]).then(() => undefined);
  }

  async touchSessions(ids: readonly string[], ttlMs: number): Promise<void> {
    // One command per session (each may live on another shard); node-redis pipelines them.
    await Promise.all(ids.map((id) => this.connection.command(this.sessionKey(id), ['PEXPIRE', this.sessionKey(id), String(ttlMs)])));
  }

  async deleteSession(id: string): Promise<void> {
    await this.connection.command(this.sessionKey(id), ['DEL', this.sessionKey(id)]);
    await this.deleteEvents(id);
  }

  /** Deletes a session's event streams. */
  deleteEvents(id: string): Promise<void> {
    return this.connection.script(deleteEvents, [this.streamIndexKey(id)], [`${this.prefix}:e:{${id}}:`]).then(() => undefined);
  }

  setStreamNode(id: string, node: number | undefined, previous?: number): Promise<void> {
    const key = [this.sessionKey(id)];
    const done =
      node !== undefined ? this.connection.script(setStreamNode, key, [String(node)]) : this.connection.script(clearStreamNode, key, [String(previous ?? 0)]);
    return done.then(() => undefined);
  }

  publish(to: number | 'all', message: SharedMessage): Promise<void> {
    return this.connection.publish(this.channel(to), JSON.stringify(message));
  }

  async requestStateKeys(): Promise<readonly string[]> {
    if (this.options.requestStateKeys?.length) return this.options.requestStateKeys;
    // One random key for every instance of this prefix, made by whichever starts first.
    const key = `${this.prefix}:rsk`;
    await this.connection.command(key, ['SET', key, randomBytes(32).toString('base64url'), 'NX']);
    return [(await this.connection.command(key, ['GET', key])) as string];
  }

  /**
   * A task store on this state's connection and prefix, for `tasks: { store }` of the server
   * served with this state: one connection serves sessions, events and tasks. Its commands fail
   * until the state has started (serveHttp starts it before the first request); closing it leaves
   * the connection to the state. For a server without shared HTTP state, use redisTaskStore().
   */
  taskStore(options: { maxTasksPerOwner?: number; leaseMs?: number } = {}): RedisTaskStore {
    check.object('options', options);
    return new RedisTaskStore(this.connection, undefined, this.prefix, options);
  }

  /**
   * Per-user state on this state's connection and prefix: serveHttp installs it as the server's
   * `userState` store, unless the server was given one.
   */
  userStateStore(): RedisUserStateStore {
    return (this.userStates ??= new RedisUserStateStore(this.connection, this.prefix));
  }

  /**
   * The OAuth proxy's store on this state's connection and prefix: give it as `oauthProxy.store`
   * (with the same `signingKey`) to every instance, and a login started on one completes on
   * another; codes and refresh tokens stay single use across them.
   */
  oauthProxyStore(): RedisOAuthProxyStore {
    return (this.oauthStore ??= new RedisOAuthProxyStore(this.connection, this.prefix));
  }

  /** PING on the command connection within `commandTimeoutMs` (the subscriber's state is in health()): readiness of this instance. */
  async ping(): Promise<void> {
    await this.connection.command(undefined, ['PING']);
  }

  health(): SharedStateHealth {
    if (this.connection.isReady) return { ok: true, detail: 'redis: up' };
    const error = this.connection.error;
    return { ok: false, detail: `redis: unreachable, reconnecting${error ? ` (${error})` : ''}` };
  }

  /** @internal A connection for one blocking read of `key` (XREAD BLOCK holds its connection). */
  async follower(key: string): Promise<BlockingReader> {
    const max = this.options.maxFollowers ?? 256;
    if (this.followers >= max) throw new Error(`more than ${max} streams are being followed`);
    this.followers++;
    try {
      return await this.connection.reader(key);
    } catch (error) {
      this.followers--;
      throw error;
    }
  }

  /** @internal */
  release(reader: BlockingReader): void {
    this.followers--;
    reader.destroy();
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/**
 * Shared state on Redis for `serveHttp(server, { state })` and
 * `listen({ transport: 'http', state })`: several instances then serve as one. @publicApi
 */
export function redisState(options: RedisStateOptions = {}): RedisState {
  return new RedisState(options);
}
