/**
 * `typemcp proxy`, run as the built command in front of the built everything server over stdio:
 * what TypeMCP puts in front of it (the rate limit, the request log, Origin checks, /health), its
 * usage errors, and a graceful exit on SIGTERM. The conformance suites through it are in
 * apps/everything/test/conformance-proxy.e2e.spec.ts.
 */
import { spawn } from 'node:child_process';
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
