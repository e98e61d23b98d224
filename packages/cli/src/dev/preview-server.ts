/**
 * The MCP Apps preview of `typemcp dev`: a local page (packages/cli/preview, bundled with
 * @typemcp/apps' bundleApp the first time it is asked for) that is an MCP Apps host with the
 * official `AppBridge` and SDK client, on its own port of 127.0.0.1. Its routes:
 *
 * - `/`: the page; `/events`: server-sent events telling the page to reload (`reload`: the
 *   server restarted or a view was bundled again) or what went wrong (`problem`);
 * - `/mcp`: the page's MCP endpoint. For a server that listens over HTTP, it is the server's own
 *   endpoint through the HTTP relay (http-proxy.ts: same process, same state, the session kept
 *   across restarts); for a stdio server, the preview's own server process (preview-stdio.ts).
 *
 * Every request must name this listener in `Host` (127.0.0.1, localhost or [::1] with its port)
 * and, when it has an `Origin`, come from this page's origin: a web page elsewhere, or one
 * reached through DNS rebinding, gets a 403 before anything reaches the server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { forward, readBody } from './http-proxy.js';
import { url, type HttpRelay } from './http-relay.js';
import { StdioPreview, type PreviewSpawner } from './preview-stdio.js';

/** The preview's port when none is given (the next free one when it is taken). */
export const PREVIEW_PORT = 6280;
/** The page's sources (shipped in the package beside dist/). */
const PAGE_ENTRY = path.resolve(__dirname, '..', '..', 'preview', 'preview.html');
/**
 * How long a server is given to listen over HTTP, after the first start, before the preview
 * treats it as a stdio server (decided once; a server that listens later is switched to).
 */
const HTTP_GRACE_MS = 10_000;
const MAX_BODY = 4 * 1024 * 1024;
/** Pages listening to `/events` at most. */
const MAX_WATCHERS = 32;
const KEEP_ALIVE_MS = 15_000;
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Options of {@link PreviewServer}. */
export interface PreviewOptions {
  /** The port (0: any free one); {@link PREVIEW_PORT} by default, then any free one when it is taken. */
  port?: number;
  /** The project folder: the page's bundle is cached in its node_modules/.cache. */
  root: string;
  /** The server's MCP endpoint path, for a server that listens over HTTP. */
  mcpPath: string;
  http: HttpRelay;
  /** Starts a server process for the preview of a stdio server. */
  spawn: PreviewSpawner;
  /** When the current server process started (undefined while none runs). */
  startedAt: () => number | undefined;
  log: (message: string) => void;
}

/** The preview's listener (see the header). */
export class PreviewServer {
  private readonly server: Server;
  private readonly watchers = new Set<ServerResponse>();
  private readonly stdio: StdioPreview;
  private page?: Promise<string>;
  private port = 0;
  /** The server was found to serve stdio only (it had not listened within the grace period). */
  private stdioServer = false;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(private readonly options: PreviewOptions) {
    this.stdio = new StdioPreview(options.spawn);
    this.server = createServer((req, res) => void this.route(req, res));
    this.keepAlive = setInterval(() => {
      for (const watcher of this.watchers) watcher.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS).unref();
  }

  /** Listens on 127.0.0.1; resolves with the page's URL. */
  async listen(): Promise<string> {
    const wanted = this.options.port ?? PREVIEW_PORT;
    try {
      this.port = await this.bind(wanted);
    } catch (error) {
      if (this.options.port !== undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      this.port = await this.bind(0);
    }
    return `http://127.0.0.1:${this.port}/`;
  }

  /** The server restarted, or a view changed: open pages connect again and run their last call again. */
  changed(reason: string): void {
    this.stdio.stop();
    this.send('reload', { reason });
  }

  /** The server listens over HTTP (its first listener): a page on the preview's own stdio process starts over on the server's endpoint. */
  serverListens(): void {
    if (!this.stdioServer) return;
    this.stdioServer = false;
    this.changed('the server listens over HTTP');
  }

  /** Something the page should show (a view that does not bundle). */
  problem(message: string): void {
    this.send('problem', { message });
  }

  close(): void {
    clearInterval(this.keepAlive);
    this.stdio.stop();
    for (const watcher of this.watchers) watcher.end();
    this.server.close();
    this.server.closeAllConnections();
  }

  private bind(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  private send(event: string, data: object): void {
    for (const watcher of this.watchers) watcher.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Whether the request names this listener (Host) and, when it says where it comes from, comes from its page (Origin). */
  private allowed(req: IncomingMessage): string | undefined {
    const hosts = LOOPBACK.map((name) => `${name}:${this.port}`);
    if (!hosts.includes(req.headers.host ?? '')) return `Host ${req.headers.host ?? '(none)'} is not this preview`;
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((host) => origin === `http://${host}`)) return `Origin ${origin} is not this preview`;
    return undefined;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = this.allowed(req);
    if (refused) return void res.writeHead(403, { 'content-type': 'text/plain' }).end(`typemcp dev preview: ${refused}\n`);
    const { pathname } = new URL(req.url ?? '/', 'http://preview');
    try {
      if (pathname === '/mcp') return await this.mcp(req, res);
      if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
      if (pathname === '/' || pathname === '/index.html') return void res.writeHead(200, PAGE_HEADERS).end(await this.pageHtml());
      if (pathname === '/events') return this.watch(res);
      if (pathname === '/favicon.ico') return void res.writeHead(204).end();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log(`preview: ${message}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(`typemcp dev preview: ${message}\n`);
      else res.end();
    }
  }

  private watch(res: ServerResponse): void {
    if (this.watchers.size >= MAX_WATCHERS) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('Too many preview pages\n');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(': typemcp dev preview\n\n');
    this.watchers.add(res);
    res.on('close', () => this.watchers.delete(res));
  }

  /** The page, bundled once (esbuild, through @typemcp/apps, cached by its inputs' digest). */
  private pageHtml(): Promise<string> {
    return (this.page ??= (async () => {
      let bundleApp: typeof import('@typemcp/apps').bundleApp;
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded only for the preview
        ({ bundleApp } = require('@typemcp/apps') as typeof import('@typemcp/apps'));
      } catch {
        throw new Error('the preview is bundled with @typemcp/apps: npm install @typemcp/apps');
      }
      const cacheDir = path.join(this.options.root, 'node_modules', '.cache', 'typemcp-apps');
      return (await bundleApp({ entry: PAGE_ENTRY, cacheDir })).html;
    })().catch((error: unknown) => {
      this.page = undefined;
      const message = error instanceof Error ? error.message : String(error);
      // The page's own imports: what a project with views has (ext-apps, and the client it needs).
      if (/Could not resolve "@modelcontextprotocol\//.test(message)) {
        throw new Error(
          `the preview page is bundled from @modelcontextprotocol/ext-apps and @modelcontextprotocol/client: npm install -D @modelcontextprotocol/ext-apps @modelcontextprotocol/client\n${message}`,
        );
      }
      throw error;
    }));
  }

  /** The page's MCP endpoint: the server's own when it listens over HTTP, else the preview's stdio server. */
  private async mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const listener = await this.httpListener();
    if (listener) {
      // To the server, the request comes from a client on its own port (its Host and Origin checks are its own).
      const { search } = new URL(req.url ?? '/', 'http://preview');
      req.headers.host = new URL(url(listener)).host;
      delete req.headers.origin;
      req.url = `${this.options.mcpPath}${search}`;
      return forward(this.options.http, listener, req, res);
    }
    const body = req.method === 'POST' ? (await readBody(req, MAX_BODY))?.toString() : '';
    if (body === undefined) return void res.writeHead(413, { 'content-type': 'text/plain' }).end('Payload too large\n');
    this.stdio.handle(req, res, body);
  }

  /** The server's first HTTP listener; undefined for a stdio server (one that has not listened within a grace period of its start). */
  private async httpListener() {
    for (;;) {
      const listener = this.options.http.primary();
      const started = this.options.startedAt();
      if (listener) return listener;
      if (this.stdioServer || started === undefined || Date.now() - started > HTTP_GRACE_MS) {
        this.stdioServer = true;
        return undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
