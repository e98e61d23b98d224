/**
 * The Next.js recipe of docs/guide/runtimes.md, run for real: a Next.js application
 * (test/fixtures/next-app: `app/mcp/route.ts` exporting createFetchHandler for GET, POST and
 * DELETE, a TypeMCP service with a class-validator DTO beside it) is installed in a scratch folder
 * with this checkout's packages packed as tarballs (as `create-typemcp --from` does) and the
 * Next.js, React and TypeScript of this repository's lock, built by `next build` (Turbopack, its
 * SWC compiling the decorators with their metadata, its TypeScript check of the route's exports),
 * then started by `next start` on loopback and driven by the official SDK 2.x client.
 * Needs `npm run build` first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { rawRequest } from '../../../test/support/raw-http';
import { packCheckout } from '../../create-typemcp/src/vendor';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(__dirname, 'fixtures/next-app');
const TIMEOUT = { timeout: 10_000 };
/** Next.js telemetry off (no outbound call); npm installs from its cache first (what the lock installed is there). */
const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', npm_config_prefer_offline: 'true' };

/** The version this repository's lock installed, so the scratch install is served from npm's cache. */
const locked = (name: string): string =>
  (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
}

/** A POST of JSON-RPC with the headers as given (Host included). */
const rawPost = (url: string, headers: Record<string, string>, body: string) =>
  rawRequest(url, 'POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body);

describe('Next.js route handler (app/mcp/route.ts): next build, next start, the SDK 2.x client', () => {
  let dir: string;
  let next: ChildProcess | undefined;
  let url: string;
  let logs = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'typemcp-next-'));
    cpSync(FIXTURE, dir, { recursive: true });
    const sources = await packCheckout(ROOT, dir);
    const pkg = {
      name: 'next-forecast',
      private: true,
      dependencies: {
        '@typemcp/core': sources.core,
        '@typemcp/http': sources.http,
        'class-transformer': locked('class-transformer'),
        'class-validator': locked('class-validator'),
        next: locked('next'),
        react: locked('react'),
        'react-dom': locked('react-dom'),
      },
      devDependencies: { '@types/node': locked('@types/node'), '@types/react': locked('@types/react'), typescript: locked('typescript') },
      // The packages' own dependencies on each other take the same tarballs.
      overrides: { '@typemcp/protocol': sources.protocol, '@typemcp/core': sources.core, '@typemcp/http': sources.http },
    };
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
    const bin = path.join(dir, 'node_modules/next/dist/bin/next');
    run(process.execPath, [bin, 'build'], dir);
    const port = await freePort();
    // A process group of its own: `next start` runs its server in a child process, stopped with it.
    next = spawn(process.execPath, [bin, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
      cwd: dir,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    next.stdout!.setEncoding('utf8').on('data', (chunk: string) => (logs += chunk));
    next.stderr!.setEncoding('utf8').on('data', (chunk: string) => (logs += chunk));
    url = `http://127.0.0.1:${port}/mcp`;
    for (const started = Date.now(); !/Ready in/.test(logs);) {
      if (next.exitCode !== null || Date.now() - started > 30_000) throw new Error(`next start did not get ready:\n${logs}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 300_000);

  afterAll(async () => {
    if (next?.pid !== undefined) {
      const closed = new Promise((resolve) => next!.once('close', resolve));
      try {
        process.kill(-next.pid, 'SIGTERM');
      } catch {
        // the group is gone already
      }
      // 'close': the pipes too, which the server's own child process held.
      await closed;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('2026-07-28: discovers, lists the DTO tool with its derived schema, calls it with progress', async () => {
    const client = new Client({ name: 'typemcp-next-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), TIMEOUT);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getServerVersion()).toMatchObject({ name: 'next-forecast' });
      const { tools } = await client.listTools(undefined, { ...TIMEOUT, cacheMode: 'refresh' });
      // The schema comes from the DTO's decorators and their design:type metadata, as Next.js's SWC emitted them.
      expect(tools.find((t) => t.name === 'forecast')?.inputSchema).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
        required: ['city', 'days'],
      });
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'forecast', arguments: { city: 'Oslo', days: 3 } },
        { ...TIMEOUT, onprogress: (p) => progress.push(p.progress) },
      );
      expect(progress).toEqual([1, 2, 3]);
      expect(result.content).toEqual([{ type: 'text', text: 'Oslo: sunny for 3 days' }]);
    } finally {
      await client.close();
    }
  });

  it('2025-11-25: initializes without a session (serverless instances share no memory) and refuses a bad input precisely', async () => {
    const client = new Client({ name: 'typemcp-next-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport, TIMEOUT);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(transport.sessionId).toBeUndefined();
      const refused = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 9 } }, TIMEOUT);
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: `days` must be at most 7' }] });
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} }, TIMEOUT)).rejects.toThrow(/no_such_tool/);
    } finally {
      await client.close();
    }
  });

  it('keeps the transport security behind Next.js: a foreign Host or Origin is refused with 403', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const host = await rawPost(url, { host: 'evil.example' }, ping);
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_FORBIDDEN_HOST' } } });
    const origin = await rawPost(url, { origin: 'https://evil.example' }, ping);
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_FORBIDDEN_ORIGIN' } } });
  });
});
