/**
 * Abandoned sessions: clients that initialize and never come back. 10,000 Streamable HTTP sessions
 * are opened over a keep-alive agent and left idle; the idle timeout must close every one and
 * give its memory back. Then the heap cost of an idle legacy HTTP+SSE session (an open stream).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryEventStore, MemorySessionStore, serveHttp } from '@typemcp/http';
import { buildEngine } from './support/http-fixture';

/** A gc function: the global one when node runs with --expose-gc, otherwise one obtained at runtime. */
function gcFunction(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
const gc = gcFunction();

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

const waitFor = async (done: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const MB = 1024 * 1024;

/** A store whose idle sweep can be held back while the sessions are being created. */
class HeldSweepStore extends MemorySessionStore {
  held = true;
  override sweep(now?: number): void {
    if (!this.held) super.sweep(now);
  }
}

it('closes 10,000 abandoned Streamable HTTP sessions on idle timeout and frees their memory', async () => {
  const evicted = { idle: 0, capacity: 0 };
  const sessionStore = new HeldSweepStore({ idleTimeoutMs: 200, sweepIntervalMs: 50, onEvict: (_s, reason) => void evicted[reason]++ });
  const eventStore = new MemoryEventStore();
  const listener = await serveHttp(buildEngine(), { port: 0, keepAliveMs: 0, sessionStore, eventStore });
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const ids = new Set<string>();
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abandon', version: '1' } },
  });
  const initialize = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        listener.url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`initialize: ${res.statusCode}`));
          ids.add(res.headers['mcp-session-id'] as string);
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const open = async (count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next++ < count) await initialize();
      }),
    );
  };
  try {
    // Warm up (code paths, JIT, agent sockets), so the baseline holds everything but the sessions.
    await open(500);
    sessionStore.held = false;
    await waitFor(() => sessionStore.size === 0, 5000);
    ids.clear();
    evicted.idle = 0;
    sessionStore.held = true;
    const baseline = await settledHeap();

    await open(10_000);
    expect(ids.size).toBe(10_000);
    // All 10,000 are alive at once (the default cap), none evicted for room.
    expect(sessionStore.size).toBe(10_000);
    sessionStore.held = false;

    await waitFor(() => sessionStore.size === 0, 5000);
    expect(evicted).toEqual({ idle: 10_000, capacity: 0 });
    expect(eventStore.sessionCount).toBe(0);
    // An evicted session's id is gone for good.
    const gone = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': [...ids][0] },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(gone.status).toBe(404);
    ids.clear();
    const after = await settledHeap();
    expect(after - baseline).toBeLessThan(10 * MB);
  } finally {
    agent.destroy();
    await listener.close(0);
  }
}, 30_000);

// Opens N raw /sse streams from a child process (so only the server's share is on this heap),
// prints "ready" once every stream announced its endpoint, and exits when its stdin closes.
const SSE_CLIENT = `
const net = require('node:net');
const [port, n] = process.argv.slice(1).map(Number);
let ready = 0;
for (let i = 0; i < n; i++) {
  const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /sse HTTP/1.1\\r\\nHost: 127.0.0.1:' + port + '\\r\\nAccept: text/event-stream\\r\\n\\r\\n'));
  let seen = '', counted = false;
  socket.on('data', (c) => {
    if (counted) return;
    seen += c.toString('latin1');
    if (seen.includes('event: endpoint')) { counted = true; if (++ready === n) process.stdout.write('ready\\n'); }
  });
  socket.on('error', (e) => { process.stderr.write(String(e)); process.exit(1); });
}
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
`;

async function openSseFromChild(port: number, n: number) {
  const child = spawn(process.execPath, ['-e', SSE_CLIENT, String(port), String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: string) => (out += c).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`SSE client exited (${code}) before ready`)));
  });
  return { close: async () => (child.stdin.end(), child.exitCode === null && (await once(child, 'exit'))) };
}

it('keeps an idle legacy HTTP+SSE session small (server heap per open /sse stream)', async () => {
  // The server runs in a process of its own (the built package: needs `npm run build`), so the
  // figure is the sessions' alone, not also what earlier suites left on the runner's heap.
  const server = await startHeapServer();
  try {
    // Warm up the /sse path.
    await (await openSseFromChild(server.port, 20)).close();
    await waitFor(async () => (await server.ask('sessions')).sessions === 0, 3000);
    const N = 500;
    const baseline = (await server.ask('heap')).heap;
    const clients = await openSseFromChild(server.port, N);
    expect((await server.ask('sessions')).sessions).toBe(N);
    const perSession = ((await server.ask('heap')).heap - baseline) / N;
    process.stdout.write(`heap per idle legacy HTTP+SSE session: ${(perSession / 1024).toFixed(1)} KB\n`);
    // A generous bound; bench/http.mjs reports the measured figure.
    expect(perSession).toBeLessThan(16 * 1024);
    await clients.close();
    await waitFor(async () => (await server.ask('sessions')).sessions === 0, 3000);
  } finally {
    await server.close();
  }
});

/** support/legacy-heap-server.cjs under --expose-gc: its port, and a line protocol to ask it for its heap and session count. */
async function startHeapServer() {
  const child = spawn(process.execPath, ['--expose-gc', path.join(__dirname, 'support/legacy-heap-server.cjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, number>> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`heap server exited (${child.exitCode})`);
    return JSON.parse(value as string) as Record<string, number>;
  };
  const { port } = await next();
  return {
    port,
    ask: async (what: 'heap' | 'sessions') => (child.stdin.write(`${what}\n`), next()),
    close: async () => (child.stdin.end(), child.exitCode === null && (await once(child, 'exit'))),
  };
}
