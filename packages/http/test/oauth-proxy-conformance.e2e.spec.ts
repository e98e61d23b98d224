/**
 * The official conformance suite's authorization-server scenarios (0.2.0-alpha.12,
 * `conformance authorization`, under Node 22: test/support/node22.ts) against the OAuth proxy in
 * front of a real oidc-provider: `authorization-server-metadata-endpoint` (RFC 8414 metadata) and
 * `authorization-code-grant`, whose browser part this test plays (the proxy's consent, the
 * upstream's login) from the authorization URL the suite prints to the callback it listens on.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { node22 } from '../../../test/support/node22';
import { Browser } from '../../../test/support/oidc-provider';
import { approve, startProxyWorld, type ProxyWorld } from './support/proxy-world';

const packageJson = require.resolve('conformance-next/package.json');
const CLI = path.resolve(path.dirname(packageJson), (JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: { conformance: string } }).bin.conformance);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let w: ProxyWorld;
beforeAll(async () => {
  w = await startProxyWorld();
}, 30_000);
afterAll(() => w?.close());

it('passes the conformance suite 0.2.0-alpha.12 authorization-server scenarios (metadata endpoint, authorization code grant)', async () => {
  if (!node22.bin) throw new Error(`no Node 22 to run the conformance suite: ${node22.reason}`);
  const port = await freePort();
  const redirect = `http://127.0.0.1:${port}/callback`;
  const registered = (await (
    await fetch(`${w.base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'conformance', redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
    })
  ).json()) as { client_id: string };

  const child = spawn(
    node22.bin,
    [CLI, 'authorization', '--url', w.base, '--client-id', registered.client_id, '--resource', w.mcpUrl, '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  // The suite prints the authorization URL and waits for the browser to come back to its callback.
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    output += `${line}\n`;
    if (line.startsWith(`${w.base}/oauth/authorize?`)) {
      const back = await approve(w, new Browser(), line, redirect);
      await (await fetch(back)).text();
    }
  }
  const code = await exited;
  if (code !== 0) throw new Error(`conformance authorization exited ${code}:\n${output}`);
  // Every scenario the suite ran, from its summary: exactly these two, each with no failed check.
  const summary = [...output.matchAll(/^([✓✗]) ([\w-]+): (\d+) passed, (\d+) failed$/gm)].map((m) => ({
    scenario: m[2],
    ok: m[1] === '✓',
    failed: Number(m[4]),
  }));
  expect(summary).toEqual([
    { scenario: 'authorization-server-metadata-endpoint', ok: true, failed: 0 },
    { scenario: 'authorization-code-grant', ok: true, failed: 0 },
  ]);
  expect(output).toMatch(/^Total: 2 passed, 0 failed$/m);
}, 60_000);
