/**
 * `typemcp proxy`, run as the built command in front of the built everything server over stdio:
 * what TypeMCP puts in front of it (the rate limit, the request log, Origin checks, /health), its
 * usage errors, its readiness (not ready until the upstream is connected, nor while draining)
 * and its drain on SIGTERM: an in-flight call ends with its result before the process exits 0. The conformance suites through it are in
 * apps/everything/test/conformance-proxy.e2e.spec.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI, ROOT, typemcp } from './support/project';

const EVERYTHING = path.join(ROOT, 'apps/everything/dist/main.js');

function startProxy(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'proxy', '--port', '0', ...args, '--', process.execPath, EVERYTHING, '--transport', 'stdio'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /on Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    void exited.then((code) => reject(new Error(`the proxy exited (${code}):\n${stderr}`)));
  });
  return { url, stderr: () => stderr, stop: () => (child.kill('SIGTERM'), exited) };
}

it('serves the upstream with a rate limit, a request log, Origin checks and /health, and exits 0 on SIGTERM', async () => {
  // The SDK client's own start (initialize, initialized, the GET stream) and one call take 4 tokens
  // within a few ms: the bucket holds 5, so the client gets through and the burst below does not.
  const proxy = startProxy(['--rate-limit', '5', '--log']);
  try {
    const url = await proxy.url;
    expect(proxy.stderr()).toContain('typemcp proxy: serving typemcp-everything (modern) on Streamable HTTP at');
    expect((await fetch(new URL('/health', url))).status).toBe(200);
    const client = new Client({ name: 'proxy-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: '4' }]);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toContain(429);
    const foreign = await fetch(url, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{}' });
    expect(foreign.status).toBe(403);
    await client.close();
    expect(await proxy.stop()).toBe(0);
    expect(proxy.stderr()).toMatch(/"status":429/);
  } finally {
    await proxy.stop(); // a failed expectation must not leave the proxy (and jest) running
  }
}, 60_000);

it('refuses a command line without an upstream, or with two', async () => {
  expect(await typemcp(['proxy'])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('give the upstream: typemcp proxy -- <command> [args...], or --url <url>'),
  });
  expect(await typemcp(['proxy', '--url', 'http://127.0.0.1:1/mcp', '--', 'node'])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('give either --url or a command after --, not both'),
  });
  const dead = await typemcp(['proxy', '--port', '0', '--', process.execPath, '-e', 'process.exit(3)']);
  expect(dead.code).toBe(1);
  expect(dead.stderr).toContain('Could not connect to the server mounted as upstream');
});

/** Reads until `done` (or 20 s). */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (const end = Date.now() + 20_000; ;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A TCP port free right now (the proxy listens before it knows its upstream, so the test names the port). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

it('is not ready until the upstream is connected, while it reconnects, nor while draining; SIGTERM lets an in-flight call finish, then exits 0', async () => {
  const port = await freePort();
  // The upstream takes 1.5 s to start serving: the proxy listens meanwhile.
  const slowStart = `setTimeout(() => { process.argv = [process.argv[0], ${JSON.stringify(EVERYTHING)}, '--transport', 'stdio']; require(process.argv[1]); }, 1500)`;
  const child = spawn(
    process.execPath,
    [CLI, 'proxy', '--port', String(port), '--drain-ms', '1500', '--grace-ms', '5000', '--', process.execPath, '-e', slowStart],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const readyz = async () => {
    const res = await fetch(`${base}/readyz`);
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
  };
  const client = new Client({ name: 'proxy-drain', version: '1.0.0' });
  const late = new Client({ name: 'late', version: '1.0.0' });
  try {
    // Listening, the upstream not connected yet: not ready, naming the check.
    const seen: number[] = [];
    let first: Awaited<ReturnType<typeof readyz>> | undefined;
    let live: number | undefined;
    for (const end = Date.now() + 20_000; Date.now() < end;) {
      const answer = await readyz().catch(() => undefined);
      if (answer) {
        // Alive meanwhile: only readiness waits for the upstream.
        if (!first) live = (await fetch(`${base}/livez`)).status;
        first ??= answer;
        seen.push(answer.status);
        if (answer.status === 200) break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(first).toEqual({ status: 503, body: { status: 'not ready', checks: { upstream: 'failed' } } });
    expect(live).toBe(200);
    expect(seen[seen.length - 1]).toBe(200);
    expect((await readyz()).body).toEqual({ status: 'ready', checks: { upstream: 'ok' } });

    // The upstream dies: not ready while the mount reconnects, ready again once it is back.
    const upstreamPid = Number(
      execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')[0],
    );
    expect(upstreamPid).toBeGreaterThan(0);
    process.kill(upstreamPid, 'SIGKILL');
    const down = await waitFor(readyz, (a) => a.status === 503);
    expect(down).toEqual({ status: 503, body: { status: 'not ready', checks: { upstream: 'failed' } } });
    expect((await waitFor(readyz, (a) => a.status === 200)).body.status).toBe('ready');

    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const call = client.callTool({ name: 'slow_compute', arguments: { seconds: 3 } }, undefined, { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // Draining: not ready, new clients refused, the call in flight goes on.
    expect(await readyz()).toMatchObject({ status: 503, body: { status: 'draining' } });
    await expect(late.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)))).rejects.toThrow();
    expect((await call).content).toEqual([{ type: 'text', text: 'Computed job in 3 s' }]);
    expect(await exited).toBe(0);
  } finally {
    await client.close().catch(() => undefined);
    await late.close().catch(() => undefined);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  // Not ready is said once per outage, with the reason.
  expect(stderr.match(/readiness upstream/g)).toHaveLength(2);
  expect(stderr).toContain('the upstream is not connected (connecting)');
  expect(stderr).toContain('typemcp proxy: serving typemcp-everything (modern) on Streamable HTTP at');
}, 60_000);
