/**
 * `typemcp dev` for servers that listen over HTTP: it listens on the ports the server's code asks
 * for (through listen-redirect.ts) and forwards every request to the server process's private
 * loopback port. The ports stay open across restarts: a request that arrives while the server
 * restarts waits for the new process, and while the server is down (it crashed) it is answered
 * at once with an error that says why. MCP sessions survive restarts (dev-sessions.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DevSessions } from './dev-sessions.js';
import { forward } from './http-proxy.js';
import { downMessage } from './json-rpc.js';
import type { PublicListener, Target } from './relay-types.js';

/** How long a request waits for the restarted server to listen again. */
const RESTART_WAIT_MS = 30_000;

/** The HTTP side of `typemcp dev`: its listeners, the current server process behind them, and the MCP sessions. */
export class HttpRelay {
  readonly sessions = new DevSessions((message) => this.log(message));
  private readonly listeners = new Map<string, PublicListener>();
  private downReason?: string;
  /** The listeners a server process listened on already (each is announced once). */
  private readonly announced = new Set<PublicListener>();
  /** Which server process is current: incremented at each restart. */
  generation = 1;

  constructor(
    readonly log: (message: string) => void,
    /** Called once the first listener has a server behind it. */
    private readonly onFirstListener?: (listener: PublicListener) => void,
  ) {}

  /** Listens on `port`/`host` for the server (once: a restarted server gets the same listener); resolves with the port. */
  claim(key: string, port: number, host?: string): Promise<number> {
    const existing = this.listeners.get(key);
    if (existing) return Promise.resolve(existing.port);
    const server = createServer((req, res) => void forward(this, listener, req, res));
    const listener: PublicListener = { key, server, port, host, waiting: new Set() };
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        Object.assign(listener, { port: (server.address() as AddressInfo).port });
        this.listeners.set(key, listener);
        resolve(listener.port);
      });
    });
  }

  /** The server process listens on `port` for the listener `key`: its requests go there now. */
  bound(key: string, port: number): void {
    const listener = this.listeners.get(key);
    if (!listener) return;
    listener.target = { port, generation: this.generation };
    for (const waiter of listener.waiting) waiter.resolve(listener.target);
    listener.waiting.clear();
    if (!this.announced.has(listener)) {
      this.announced.add(listener);
      this.log(`serving ${url(listener)} for the server; it stays open across restarts`);
      if (this.announced.size === 1) this.onFirstListener?.(listener);
    }
    this.sessions.revive(listener);
  }

  /** The first listener a server process listened on (the preview's way to the server), if any. */
  primary(): PublicListener | undefined {
    return this.announced.values().next().value;
  }

  /** A new server process replaces the current one: requests wait for it. */
  restarting(): void {
    this.generation++;
    this.downReason = undefined;
    for (const listener of this.listeners.values()) listener.target = undefined;
  }

  /** The server exited and waits for a change: every request is answered with `reason`. */
  down(reason: string): void {
    this.downReason = downMessage(reason);
    for (const listener of this.listeners.values()) {
      listener.target = undefined;
      for (const waiter of listener.waiting) waiter.reject(new Error(this.downReason));
      listener.waiting.clear();
    }
  }

  /** Where requests to `listener` go now, once the server listens there (rejects while it is down, or after a while). */
  target(listener: PublicListener): Promise<Target> {
    if (listener.target) return Promise.resolve(listener.target);
    if (this.downReason) return Promise.reject(new Error(this.downReason));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (target: Target) => (clearTimeout(timer), resolve(target)),
        reject: (error: Error) => (clearTimeout(timer), reject(error)),
      };
      const timer = setTimeout(() => {
        listener.waiting.delete(waiter);
        reject(new Error(`typemcp dev: the server did not listen on ${url(listener)} again after the restart`));
      }, RESTART_WAIT_MS);
      listener.waiting.add(waiter);
    });
  }

  /** Closes every listener and its connections. */
  close(): void {
    this.sessions.close();
    for (const listener of this.listeners.values()) {
      for (const waiter of listener.waiting) waiter.reject(new Error('typemcp dev stopped'));
      listener.server.close();
      listener.server.closeAllConnections();
    }
  }
}

/** The listener's base URL, as a client on this machine reaches it. */
export function url(listener: Pick<PublicListener, 'host' | 'port'>): string {
  const host = !listener.host || listener.host === '0.0.0.0' || listener.host === '::' ? '127.0.0.1' : listener.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listener.port}`;
}
