/**
 * One connection to Redis for every store of this package: a single server (`url`) or a Redis
 * Cluster (`cluster`: some of its nodes), with the same few operations either way, so the stores
 * never care which. Every key a command or a script touches shares one hash tag (one slot), so
 * a Cluster routes it by its first key. Pub/sub is sharded (SPUBLISH / SSUBSCRIBE) when the
 * server has it (Redis 7 or later), classic otherwise. Commands fail fast while Redis is away
 * (no offline queue) and each runs under its own timer: node-redis's command timeout only covers
 * a command not yet written, so a Redis that took a command and never answers would otherwise
 * hold the caller forever.
 */
import { createCluster, createClient } from 'redis';
import type { Script } from './lua-script.js';

type Client = ReturnType<typeof createClient>;
type Cluster = ReturnType<typeof createCluster>;
/** A reply as node-redis returns it for a raw command (RESP2). */
export type Reply = string | number | null | Reply[];

/** Where Redis is, and how long to wait for it. */
export interface ConnectionOptions {
  url?: string;
  cluster?: readonly string[];
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
}

/** `pending`, or a rejection after `ms` (see the file comment). */
export function withTimeout<T>(pending: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms (commandTimeoutMs)`)), ms);
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** retries, 2000);

/** node-redis's defaults for every node of a Cluster: the credentials and TLS of the first URL (root nodes only discover the topology). */
function clusterDefaults(first: string, socket: object): Record<string, unknown> {
  const u = new URL(first);
  const defaults: Record<string, unknown> = { socket: { ...socket, ...(u.protocol === 'rediss:' ? { tls: true } : {}) } };
  if (u.username) defaults.username = decodeURIComponent(u.username);
  if (u.password) defaults.password = decodeURIComponent(u.password);
  return defaults;
}

/** A blocking reader (XREAD BLOCK holds its connection): one connection of its own. */
export interface BlockingReader {
  command(args: string[]): Promise<Reply>;
  destroy(): void;
}

export class RedisConnection {
  readonly commandTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** True once connected to a server with sharded pub/sub (Redis 7 or later). */
  sharded = false;
  private readonly client?: Client;
  private readonly cluster?: Cluster;
  /** The standalone client's subscriber (a client in subscribe mode runs nothing else); a Cluster subscribes itself. */
  private readonly subscriber?: Client;
  private connecting?: Promise<void>;
  private lastError?: string;
  private closed = false;

  constructor(options: ConnectionOptions) {
    this.commandTimeoutMs = options.commandTimeoutMs ?? 1000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 2000;
    const socket = { connectTimeout: this.connectTimeoutMs, reconnectStrategy };
    const common = { disableOfflineQueue: true, commandOptions: { timeout: this.commandTimeoutMs } };
    if (options.cluster?.length) {
      this.cluster = createCluster({
        rootNodes: options.cluster.map((url) => ({ url, socket })),
        defaults: { ...common, ...clusterDefaults(options.cluster[0], socket) },
      });
      this.cluster.on('error', (error: unknown) => this.noteError(error));
    } else {
      this.client = createClient({ url: options.url ?? 'redis://127.0.0.1:6379', ...common, socket });
      this.subscriber = this.client.duplicate();
      for (const c of [this.client, this.subscriber]) {
        c.on('error', (error: unknown) => this.noteError(error));
        c.on('ready', () => (this.lastError = undefined));
      }
    }
  }

  // node-redis errors carry no credentials; keep the message only.
  private noteError(error: unknown): void {
    this.lastError = error instanceof Error ? error.message : String(error);
  }

  get isCluster(): boolean {
    return this.cluster !== undefined;
  }

  get isReady(): boolean {
    if (this.cluster) return this.cluster.isReady;
    return this.client!.isReady && this.subscriber!.isReady;
  }

  /** Why the last attempt failed, if it did (for health and errors; never a secret). */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Connects (once; concurrent callers share it), waiting at most connectTimeoutMs; then learns whether pub/sub can be sharded. */
  async connect(): Promise<void> {
    if (this.closed) throw new Error('The Redis connection is closed');
    this.connecting ??= (async () => {
      if (this.cluster) await this.cluster.connect();
      else await Promise.all([this.client!.connect(), this.subscriber!.connect()]);
      const info = String(await this.send(undefined, ['INFO', 'server']));
      this.sharded = Number(/redis_version:(\d+)/.exec(info)?.[1] ?? 0) >= 7;
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.connecting,
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`Redis is not reachable after ${this.connectTimeoutMs} ms`)), this.connectTimeoutMs)),
      ),
    ]).finally(() => clearTimeout(timer));
  }

  private send(key: string | undefined, args: string[]): Promise<Reply> {
    if (this.cluster) return this.cluster.sendCommand(key, false, args) as Promise<Reply>;
    return this.client!.sendCommand(args) as Promise<Reply>;
  }

  private unreachable(): Error {
    return new Error(`Redis is not reachable${this.lastError ? `: ${this.lastError}` : ''}`);
  }

  /** One command; `key` is its first key (a Cluster routes by it; undefined: any node). Refused at once while Redis is away. */
  command(key: string | undefined, args: string[]): Promise<Reply> {
    if (!this.isReady) return Promise.reject(this.unreachable());
    return withTimeout(this.send(key, args), this.commandTimeoutMs);
  }

  /** Runs a script by its SHA1, sent again when the node does not have it (NOSCRIPT). Every key must share one slot. */
  script(script: Script, keys: readonly string[], args: readonly string[]): Promise<Reply> {
    if (!this.isReady) return Promise.reject(this.unreachable());
    return withTimeout(
      script.run((a) => this.send(keys[0], a), keys, args),
      this.commandTimeoutMs,
    );
  }

  /** The publishing command scripts call: SPUBLISH on a server that has it. */
  get publishCommand(): 'SPUBLISH' | 'PUBLISH' {
    return this.sharded ? 'SPUBLISH' : 'PUBLISH';
  }

  publish(channel: string, message: string): Promise<void> {
    return this.command(channel, [this.publishCommand, channel, message]).then(() => undefined);
  }

  /** Listens to a channel (sharded where the server has it); node-redis resubscribes after a reconnect. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const target = this.cluster ?? this.subscriber!;
    await withTimeout(this.sharded ? target.sSubscribe(channel, listener) : target.subscribe(channel, listener), this.commandTimeoutMs);
  }

  async unsubscribe(channel: string, listener: (message: string) => void): Promise<void> {
    const target = this.cluster ?? this.subscriber!;
    if (!this.isReady) return;
    await withTimeout(this.sharded ? target.sUnsubscribe(channel, listener) : target.unsubscribe(channel, listener), this.commandTimeoutMs);
  }

  /** A connection of its own to the node holding `key` (for XREAD BLOCK); the caller destroys it. */
  async reader(key: string): Promise<BlockingReader> {
    if (!this.isReady) throw this.unreachable();
    const base = this.cluster ? await this.cluster.getNodeClientForKey(key) : this.client!;
    const reader = base.duplicate({ commandOptions: { timeout: 0 } } as never) as Client;
    reader.on('error', () => {});
    await reader.connect();
    return { command: (args) => reader.sendCommand(args) as Promise<Reply>, destroy: () => (reader.isOpen ? reader.destroy() : undefined) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A Redis not answering is not waited for.
    for (const c of this.cluster ? [this.cluster] : [this.subscriber!, this.client!]) {
      if (c.isReady) await c.close().catch(() => c.destroy());
      else if (c.isOpen) c.destroy();
    }
  }
}
