/**
 * Loaded into the server process by `typemcp dev` (`node --require`), beside the TypeScript hook:
 * a TCP `listen()` of the server's code (`listen({ port: 3000 })`, express, `serveHttp`) asks
 * `typemcp dev` over its IPC channel to listen on that port instead, then listens itself on a
 * private loopback port that `typemcp dev` forwards to. So the port stays open while the server
 * restarts, and `typemcp dev` can keep its HTTP sessions (see http-relay.ts). As Node's cluster
 * module does for its workers, `server.address()` reports the port clients use.
 *
 * Only with the IPC channel and `TYPEMCP_DEV_LISTEN=1` (both set by `typemcp dev`); the variable
 * is removed at once, so processes this server starts listen as usual.
 */
import * as net from 'node:net';
import type { DevListenReply, DevListenRequest } from './listen-messages.js';

type Listen = (this: net.Server, ...args: unknown[]) => net.Server;

/** Why `typemcp dev` could not listen for the server: Node's own `listen` error code (EADDRINUSE...) and port. */
class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly port: number,
  ) {
    super(`listen ${code}: ${message}`);
  }
}

/** The port and host of a TCP listen() call, or undefined for a pipe, a handle or a file descriptor. */
export function tcpTarget(args: unknown[]): { port: number; host?: string; callback?: () => void } | undefined {
  const callback = typeof args[args.length - 1] === 'function' ? (args[args.length - 1] as () => void) : undefined;
  const [first, second] = args;
  const host = typeof second === 'string' ? second : undefined;
  if (first === undefined || typeof first === 'function') return { port: 0, callback };
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) return { port: Number(first), host, callback };
  if (typeof first !== 'object' || first === null) return undefined;
  const options = first as net.ListenOptions & { handle?: unknown; fd?: unknown };
  if (options.path !== undefined || options.handle !== undefined || options.fd !== undefined) return undefined;
  return { port: Number(options.port ?? 0), host: options.host, callback };
}

function install(send: (message: DevListenRequest) => void): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .apply/.call on the server
  const listen = net.Server.prototype.listen as Listen;
  const waiting = new Map<string, (reply: DevListenReply) => void>();
  let count = 0;
  process.on('message', (reply: DevListenReply) => {
    if (reply?.typemcpDev !== 'listen') return;
    waiting.get(reply.key)?.(reply);
    waiting.delete(reply.key);
    if (!waiting.size) process.channel?.unref();
  });
  process.channel?.unref();

  net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]): net.Server {
    const target = tcpTarget(args);
    if (!target) return listen.apply(this, args);
    const key = `${target.host ?? ''}:${target.port}#${++count}`;
    if (target.callback) this.once('listening', target.callback);
    // The reply keeps this process alive until the server listens.
    process.channel?.ref();
    waiting.set(key, (reply) => {
      if (reply.error) {
        return void this.emit('error', new ListenError(reply.error.code, reply.error.message, target.port));
      }
      const host = target.host ?? '::';
      const address = { address: host, family: net.isIPv6(host) ? 'IPv6' : 'IPv4', port: reply.port! };
      this.address = () => address;
      listen.call(this, 0, '127.0.0.1', () => {
        const { port } = net.Server.prototype.address.call(this) as net.AddressInfo;
        send({ typemcpDev: 'bound', key, port });
      });
    });
    send({ typemcpDev: 'listen', key, port: target.port, host: target.host });
    return this;
  };
}

if (process.send && process.env.TYPEMCP_DEV_LISTEN === '1') {
  delete process.env.TYPEMCP_DEV_LISTEN;
  const send = process.send.bind(process);
  install((message) => void send(message));
}
