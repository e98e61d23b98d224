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
import { createClient } from 'redis';
import { checkOption as check } from '@typemcp/protocol/internal';
import { Script } from './lua-script.js';
import { checkRedisOptions, type RedisStateOptions } from './redis-options.js';
import { RedisTaskStore } from './redis-task-store.js';

type Client = ReturnType<typeof createClient>;
type Reply = string | number | null | Reply[];

/** Node numbers wrap here, so server->client request ids stay safe integers (see the http package). */
const NODE_SPACE = 2 ** 20;

// Sets the GET-stream holder only on a session that still exists (never creates a key without TTL).
const SET_STREAM_NODE = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'g', ARGV[1]) end return 0`;
// Clears it only when the given node still holds it (another may have taken over).
const CLEAR_STREAM_NODE = `if redis.call('HGET', KEYS[1], 'g') == ARGV[1] then redis.call('HDEL', KEYS[1], 'g') end return 0`;
// Deletes a session's record, its event streams and their index.
const DELETE_SESSION = `local ids = redis.call('SMEMBERS', KEYS[2])
for _, id in ipairs(ids) do redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1], KEYS[2]) return #ids`;

// One script per event-log write (one command and one reply instead of a MULTI of four): the
// stream key and its index share the session's hash tag, so a Redis Cluster runs it on one shard.
// KEYS: stream, index; ARGV: max length, entry id, message, age (ms), stream id.
const APPEND_EVENT = `redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], ARGV[2], 'm', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[4]) return 0`;
// KEYS: stream; ARGV: entry id, age (ms).
const END_STREAM = `redis.call('XADD', KEYS[1], ARGV[1], 'end', '1') redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 0`;
// KEYS: stream, index; ARGV: stream id.
const DELETE_STREAM = `redis.call('DEL', KEYS[1]) redis.call('SREM', KEYS[2], ARGV[1]) return 0`;

const appendEvent = new Script(APPEND_EVENT);
const endStream = new Script(END_STREAM);
const deleteStream = new Script(DELETE_STREAM);

/**
 * `pending`, or a rejection after `ms`: node-redis's own command timeout only covers the wait
 * before a command is written, not a Redis that received it and does not answer (slow, paused).
 */
export function withTimeout<T>(pending: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms (commandTimeoutMs)`)), ms);
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

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
    return o.run((c) => appendEvent.run(c, keys, [String(o.maxEventsPerStream), `0-${seq}`, message, String(o.eventTtlMs), streamId]).then(() => undefined));
  }

  async read(sessionId: string, streamId: string, afterSeq: number): Promise<readonly StoredEvent[] | undefined> {
    const key = this.owner.streamKey(sessionId, streamId);
    const entries = (await this.owner.run((c) => c.sendCommand(['XRANGE', key, `(0-${afterSeq}`, '+']))) as Reply[];
    if (entries.length === 0) {
      const exists = (await this.owner.run((c) => c.sendCommand(['EXISTS', key]))) as unknown as number;
      if (exists === 0) return undefined;
    }
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
    return o.run((c) => deleteStream.run(c, [o.streamKey(sessionId, streamId), o.streamIndexKey(sessionId)], [streamId]).then(() => undefined));
  }

  deleteSession(sessionId: string): Promise<void> {
    return this.owner.deleteEvents(sessionId);
  }

  end(sessionId: string, streamId: string, lastSeq: number): Promise<void> {
    const key = this.owner.streamKey(sessionId, streamId);
    return this.owner.run((c) => endStream.run(c, [key], [`0-${lastSeq + 1}`, String(this.owner.eventTtlMs)]).then(() => undefined));
  }

  async follow(
    sessionId: string,
    streamId: string,
    afterSeq: number,
    onEvent: (event: StoredEvent) => void,
    options: { signal: AbortSignal; idleMs: number },
  ): Promise<'ended' | 'aborted' | 'idle' | 'unknown'> {
    const key = this.owner.streamKey(sessionId, streamId);
    const reader = await this.owner.follower();
    const abort = () => reader.destroy();
    options.signal.addEventListener('abort', abort, { once: true });
    try {
      let last = afterSeq;
      let quietSince = Date.now();
      while (!options.signal.aborted) {
        const wait = Math.max(1, Math.min(5000, options.idleMs - (Date.now() - quietSince)));
        const reply = (await reader.sendCommand(['XREAD', 'BLOCK', String(wait), 'STREAMS', key, `0-${last}`])) as Reply[] | null;
        if (reply === null) {
          if (Date.now() - quietSince >= options.idleMs) return 'idle';
          if (((await reader.sendCommand(['EXISTS', key])) as unknown as number) === 0) return 'unknown';
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
  private readonly client: Client;
  private readonly subscriber: Client;
  private readonly options: RedisStateOptions;
  private connecting?: Promise<void>;
  private node = 0;
  private lastError?: string;
  private followers = 0;
  private closed = false;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: RedisStateOptions = {}) {
    checkRedisOptions(options);
    this.options = options;
    this.prefix = options.prefix ?? 'typemcp';
    this.eventTtlMs = options.eventTtlMs ?? 10 * 60_000;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
    const timeout = options.commandTimeoutMs ?? 1000;
    this.commandTimeoutMs = timeout;
    this.client = createClient({
      url: options.url ?? 'redis://127.0.0.1:6379',
      // Fail fast while Redis is away (503), never queue requests behind a reconnect.
      disableOfflineQueue: true,
      commandOptions: { timeout },
      socket: { connectTimeout: options.connectTimeoutMs ?? 2000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    });
    this.subscriber = this.client.duplicate();
    for (const c of [this.client, this.subscriber]) {
      c.on('error', (error: unknown) => {
        // node-redis errors carry no credentials; keep the message only.
        this.lastError = error instanceof Error ? error.message : String(error);
      });
      c.on('ready', () => (this.lastError = undefined));
    }
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

  /** Runs a command on the main connection, refused at once while it is not ready. */
  run<T>(op: (c: Client) => Promise<T>): Promise<T> {
    if (!this.client.isReady) return Promise.reject(new Error(`Redis is not reachable${this.lastError ? `: ${this.lastError}` : ''}`));
    return withTimeout(op(this.client), this.commandTimeoutMs);
  }

  async start(receive: (message: SharedMessage) => void): Promise<number> {
    this.connecting ??= (async () => {
      await Promise.all([this.client.connect(), this.subscriber.connect()]);
    })();
    const timeout = this.options.connectTimeoutMs ?? 2000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.connecting,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`Redis is not reachable after ${timeout} ms`)), timeout))),
    ]).finally(() => clearTimeout(timer));
    if (this.node === 0) {
      const n = (await this.client.sendCommand(['INCR', `${this.prefix}:node`])) as number;
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
      await this.subscriber.subscribe([this.channel('all'), this.channel(node)], listener);
      this.node = node;
    }
    return this.node;
  }

  async loadSession(id: string): Promise<SharedSessionRecord | undefined> {
    const reply = (await this.run((c) => c.sendCommand(['HMGET', this.sessionKey(id), 'st', 'g']))) as (string | null)[];
    const [state, node] = reply;
    if (state === null || state === undefined) return undefined;
    return node ? { state, streamNode: Number(node) } : { state };
  }

  saveSession(id: string, state: string, ttlMs: number): Promise<void> {
    const key = this.sessionKey(id);
    return this.run((c) =>
      c
        .multi()
        .addCommand(['HSET', key, 'st', state])
        .addCommand(['PEXPIRE', key, String(ttlMs)])
        .exec()
        .then(() => undefined),
    );
  }

  touchSessions(ids: readonly string[], ttlMs: number): Promise<void> {
    return this.run((c) => {
      const multi = c.multi();
      for (const id of ids) multi.addCommand(['PEXPIRE', this.sessionKey(id), String(ttlMs)]);
      return multi.execAsPipeline().then(() => undefined);
    });
  }

  async deleteSession(id: string): Promise<void> {
    await this.run((c) => c.sendCommand(['DEL', this.sessionKey(id)]));
    await this.deleteEvents(id);
  }

  /** Deletes a session's event streams. */
  deleteEvents(id: string): Promise<void> {
    const prefix = `${this.prefix}:e:{${id}}:`;
    return this.run((c) =>
      c.sendCommand(['EVAL', DELETE_SESSION, '2', this.sessionKey(`${id}-unused`), this.streamIndexKey(id), prefix]).then(() => undefined),
    );
  }

  setStreamNode(id: string, node: number | undefined, previous?: number): Promise<void> {
    const key = this.sessionKey(id);
    return this.run((c) =>
      node !== undefined
        ? c.sendCommand(['EVAL', SET_STREAM_NODE, '1', key, String(node)]).then(() => undefined)
        : c.sendCommand(['EVAL', CLEAR_STREAM_NODE, '1', key, String(previous ?? 0)]).then(() => undefined),
    );
  }

  publish(to: number | 'all', message: SharedMessage): Promise<void> {
    return this.run((c) => c.sendCommand(['PUBLISH', this.channel(to), JSON.stringify(message)]).then(() => undefined));
  }

  async requestStateKeys(): Promise<readonly string[]> {
    if (this.options.requestStateKeys?.length) return this.options.requestStateKeys;
    // One random key for every instance of this prefix, made by whichever starts first.
    const key = `${this.prefix}:rsk`;
    await this.run((c) => c.sendCommand(['SET', key, randomBytes(32).toString('base64url'), 'NX']));
    return [(await this.run((c) => c.sendCommand(['GET', key]))) as string];
  }

  /**
   * A task store on this state's connection and prefix, for `tasks: { store }` of the server
   * served with this state: one connection serves sessions, events and tasks. Its commands fail
   * until the state has started (serveHttp starts it before the first request); closing it leaves
   * the connection to the state. For a server without shared HTTP state, use redisTaskStore().
   */
  taskStore(options: { maxTasksPerOwner?: number } = {}): RedisTaskStore {
    check.object('options', options);
    check.integer('maxTasksPerOwner', options.maxTasksPerOwner, 1, Number.MAX_SAFE_INTEGER);
    return new RedisTaskStore((op) => this.run(op), this.prefix, options.maxTasksPerOwner);
  }

  /** PING on the command connection within `commandTimeoutMs` (the subscriber's state is in health()): readiness of this instance. */
  async ping(): Promise<void> {
    await this.run((c) => c.ping());
  }

  health(): SharedStateHealth {
    if (this.client.isReady && this.subscriber.isReady) return { ok: true, detail: 'redis: up' };
    return { ok: false, detail: `redis: unreachable, reconnecting${this.lastError ? ` (${this.lastError})` : ''}` };
  }

  /** A connection for one blocking read (XREAD BLOCK holds its connection). */
  async follower(): Promise<Client> {
    const max = this.options.maxFollowers ?? 256;
    if (this.followers >= max) throw new Error(`more than ${max} streams are being followed`);
    if (!this.client.isReady) throw new Error('Redis is not reachable');
    this.followers++;
    const reader = this.client.duplicate({ commandOptions: { timeout: 0 } } as never);
    reader.on('error', () => {});
    try {
      await reader.connect();
    } catch (error) {
      this.followers--;
      throw error;
    }
    return reader;
  }

  release(reader: Client): void {
    this.followers--;
    if (reader.isOpen) reader.destroy();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of [this.subscriber, this.client]) {
      if (c.isOpen) await c.close().catch(() => c.destroy());
    }
  }
}

/**
 * Shared state on Redis for `serveHttp(server, { state })` and
 * `listen({ transport: 'http', state })`: several instances then serve as one. @publicApi
 */
export function redisState(options: RedisStateOptions = {}): RedisState {
  return new RedisState(options);
}
