/**
 * A small round-robin HTTP proxy for the scale-out tests: every request goes to the next
 * instance (skipping one that refuses the connection, or that its health check took out), bodies and SSE responses streamed
 * through, headers as they came. It records which instance served each request, by JSON-RPC method.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Routed {
  /** Index of the upstream that served it. */
  upstream: number;
  httpMethod: string;
  /** JSON-RPC methods of the body (`response` for a client's answer), '' for GET/DELETE. */
  rpc: string[];
  lastEventId?: string;
  /** The request's path and query. */
  path?: string;
  /**
   * Turns of the rotation this request used before it was served: instances that refused or reset
   * the connection (a kept-alive socket the instance had just closed, under load), or that the
   * health check took out. Each one shifts which instance the following requests reach.
   */
  skipped: number;
}

export class RoundRobinProxy {
  readonly routed: Routed[] = [];
  private next = 0;
  private server?: Server;
  /** Upstreams the health check took out of rotation. */
  private readonly out = new Set<number>();
  private watching?: NodeJS.Timeout;
  url = '';

  /**
   * As a load balancer's health check: every `everyMs`, GET `path` on each upstream; one that
   * does not answer 200 gets no new request until it does again.
   */
  watchHealth(path: string, everyMs = 100): void {
    const probe = () =>
      this.upstreams.forEach((upstream, index) => {
        fetch(new URL(path, upstream), { signal: AbortSignal.timeout(everyMs * 5) }).then(
          (res) => (void res.body?.cancel(), res.status === 200 ? this.out.delete(index) : this.out.add(index)),
          () => this.out.add(index),
        );
      });
    probe();
    this.watching = setInterval(probe, everyMs);
  }

  /** When set, the upstream for a request (by its path), instead of the next one; undefined: the next one. */
  route?: (path: string) => number | undefined;

  constructor(public upstreams: string[]) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.forward(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let rpc: string[];
    try {
      const parsed = body.length ? (JSON.parse(body.toString()) as unknown) : [];
      rpc = (Array.isArray(parsed) ? parsed : [parsed]).map((m: { method?: string }) => m.method ?? 'response');
    } catch {
      rpc = ['unparsable'];
    }
    const chosen = this.route?.(req.url ?? '/');
    let skipped = 0;
    for (let attempt = 0; attempt < this.upstreams.length; attempt++, skipped++) {
      const index = chosen !== undefined && attempt === 0 ? chosen % this.upstreams.length : this.next++ % this.upstreams.length;
      if (this.out.has(index) && this.out.size < this.upstreams.length) continue;
      const ok = await this.tryUpstream(index, req, res, body);
      if (ok) {
        const lastEventId = req.headers['last-event-id'] as string | undefined;
        this.routed.push({ upstream: index, httpMethod: req.method!, rpc, lastEventId, path: req.url, skipped });
        return;
      }
    }
    res.writeHead(502).end('no upstream');
  }

  /** False when the upstream refused the connection (the next one is tried). */
  private tryUpstream(index: number, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<boolean> {
    const target = new URL(req.url!, this.upstreams[index]);
    return new Promise((resolve) => {
      // The Host header goes through as the client sent it, as a load balancer passes it on (the
      // instances' DNS-rebinding check sees what the client asked for).
      const up = request(target, { method: req.method, headers: req.headers }, (upRes) => {
        resolve(true);
        res.writeHead(upRes.statusCode!, upRes.headers);
        upRes.pipe(res);
        // The instance died mid-stream: the client sees its connection cut, as it would.
        upRes.on('error', () => res.destroy());
        upRes.on('aborted', () => res.destroy());
      });
      up.on('error', (error: NodeJS.ErrnoException) => {
        if (!res.headersSent && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET')) resolve(false);
        else res.destroy();
      });
      res.on('close', () => up.destroy());
      up.end(body);
    });
  }

  close(): Promise<void> {
    clearInterval(this.watching);
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
