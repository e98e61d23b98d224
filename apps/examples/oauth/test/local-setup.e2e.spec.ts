/**
 * The "try it locally" commands of the authorization guide (docs/guide/authorization.md) and of this example's README, run as written
 * (the same block in both): the development identity provider and the BUILT notes server, each
 * its own process on real sockets, with only their two port numbers swapped for free ones so the
 * test never collides with anything. Then the official SDK client signs in the way an MCP client
 * does: 401, Protected Resource Metadata, the provider's metadata, dynamic registration,
 * authorization code with PKCE and `resource`, the provider's login page filled in as a person
 * would, the token, and calls that each need their scopes.
 *
 * The block's first line (`npm install && npm run build`) is what `npm test` has already done;
 * the test checks its result (the built entry point) instead of reinstalling mid-run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Browser, formOf } from '../../../../test/support/oidc-provider';
import { InMemoryOAuthClient } from '../../../../test/support/sdk-oauth-client';
import { assertServerBuilt } from '../../../../test/support/stdio-session';

const ROOT = path.resolve(__dirname, '../../../..');
const MARKER = '<!-- commands: run by apps/examples/oauth/test/local-setup.e2e.spec.ts -->';
const REDIRECT = 'http://127.0.0.1:1/callback';

/** The bash block after the marker in `readme`. */
function commandsIn(readme: string): string {
  const text = readFileSync(path.join(ROOT, readme), 'utf8');
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`${readme} has no block marked ${MARKER}`);
  const block = /```bash\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error(`${readme}: no bash block after the marker`);
  return block[1];
}

/** One command line: `NAME=value ... node <script> [args]`, its comment dropped. */
function parse(line: string): { env: Record<string, string>; args: string[] } {
  const words = line
    .replace(/\s+#.*$/, '')
    .trim()
    .split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error(`not a node command: ${line}`);
  return { env, args: words };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once `url` answers (any status); rejects with the process's output if it exits first or takes too long. */
async function answering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}):\n${output()}`);
    try {
      await (await fetch(url)).body?.cancel();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer in 20 s:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A person at the provider: signs in as `login` (the development login takes any password) and allows what is asked. */
async function signIn(url: URL, issuer: string, login: string): Promise<URL> {
  const browser = new Browser();
  const outside = (u: URL) => u.origin !== issuer;
  let at = await browser.follow(url.toString(), outside);
  for (let step = 0; step < 4 && at.page; step++) {
    const html = await at.page.text();
    if (at.page.status !== 200) throw new Error(`the provider answered ${at.page.status} at ${at.url}: ${html.slice(0, 300)}`);
    const { action, fields } = formOf(html, at.url);
    at = await browser.follow(action, outside, { form: html.includes('name="login"') ? { ...fields, login, password: 'any password' } : fields });
  }
  if (at.page) throw new Error(`the provider kept asking at ${at.url}`);
  return new URL(at.url);
}

const processes: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(
    processes.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
});

it('is the same block in the authorization guide and in the example README', () => {
  expect(commandsIn('apps/examples/oauth/README.md')).toBe(commandsIn('docs/guide/authorization.md'));
});

it('runs: the provider, the server, and an SDK client that registers, signs in and calls what its scopes allow', async () => {
  const lines = commandsIn('docs/guide/authorization.md')
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'));
  expect(lines[0].replace(/\s+#.*$/, '')).toBe('npm install && npm run build');
  const [idpPort, mcpPort] = [await freePort(), await freePort()];
  const commands = lines.slice(1).map((line) => parse(line.replace(/\b9000\b/g, String(idpPort)).replace(/\b3000\b/g, String(mcpPort))));
  expect(commands).toHaveLength(2);
  for (const { args } of commands) assertServerBuilt({ main: path.join(ROOT, args[0]) });

  const started = commands.map(({ env, args }) => {
    // The node running the tests, never another one on PATH.
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    processes.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    return { child, output: () => output };
  });
  const issuer = `http://127.0.0.1:${idpPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  await answering(`${issuer}/.well-known/openid-configuration`, started[0].child, started[0].output);
  await answering(`http://127.0.0.1:${mcpPort}/health`, started[1].child, started[1].output);
  expect(started[1].output()).toContain(`Notes at ${mcpUrl}, accepting tokens of ${issuer}`);

  const provider = new InMemoryOAuthClient(REDIRECT, 'local setup test');
  const client = new Client({ name: 'local-setup', version: '1.0.0' });
  await expect(client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  // Registered at the provider itself (RFC 7591), sent there with PKCE, this server as the resource, and every declared scope.
  expect(provider.info?.client_id).toEqual(expect.any(String));
  const asked = provider.pending!;
  expect(asked.origin).toBe(issuer);
  expect(Object.fromEntries(['code_challenge_method', 'resource', 'scope'].map((k) => [k, asked.searchParams.get(k)]))).toEqual({
    code_challenge_method: 'S256',
    resource: mcpUrl,
    scope: 'notes:read notes:write',
  });
  const back = await signIn(asked, issuer, 'ada');
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  await transport.finishAuth(back.searchParams.get('code')!);
  await client.connect(transport);

  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'whoami']);
  const who = JSON.parse(((await client.callTool({ name: 'whoami' })).content as { text: string }[])[0].text) as Record<string, unknown>;
  expect(who).toMatchObject({ issuer, subject: 'ada', scopes: expect.arrayContaining(['notes:read', 'notes:write']) });
  expect(await client.callTool({ name: 'add_note', arguments: { text: 'Buy milk' } })).toEqual({ content: [{ type: 'text', text: 'Added note 1.' }] });
  expect(await client.callTool({ name: 'list_notes' })).toEqual({ content: [{ type: 'text', text: '1. Buy milk' }] });
  expect(await client.readResource({ uri: 'notes://1' })).toEqual({ contents: [{ uri: 'notes://1', mimeType: 'text/plain', text: 'Buy milk' }] });
  expect((await client.getPrompt({ name: 'draft_note', arguments: { topic: 'groceries' } })).messages[0].content).toEqual({
    type: 'text',
    text: 'Draft a short note about groceries, then add it with the add_note tool.',
  });
  // Without a token the server still refuses, pointing at its metadata.
  const anonymous = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([
    401,
    `Bearer resource_metadata="http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource"`,
  ]);
  await client.close();
}, 60_000);
