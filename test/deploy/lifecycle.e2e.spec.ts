/**
 * Lifecycle hooks of a deployed server holding a real resource (a PostgreSQL pool on the
 * machine's PostgreSQL), in a child process, driven by the official SDK client: the start hook
 * runs before the first answer, the stop hook on every way the process ends (stdin closing and
 * SIGTERM on stdio; SIGTERM and SIGINT over HTTP), after which the database holds no connection of
 * the app; a failing start hook stops start-up with its message and exit code 1.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { applicationName, connectionsOf, DATABASE_URL } from '../support/postgres';
import { ChildLog, DEPLOY_APP_ARGS, runApp, startHttpApp } from '../support/deploy-app';

jest.setTimeout(60_000);

const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content[0]?.text ?? '') as string;

async function stdioClient(env: Record<string, string>): Promise<{ client: Client; transport: StdioClientTransport; log: ChildLog }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: DEPLOY_APP_ARGS,
    env: { ...(process.env as Record<string, string>), TRANSPORT: 'stdio', ...env },
    stderr: 'pipe',
  });
  const log = new ChildLog();
  log.follow(transport.stderr as never);
  const client = new Client({ name: 'lifecycle-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, log };
}

describe('over stdio', () => {
  it('answers only once onInit() finished, and on stdin closing runs onDestroy(), closing the pool', async () => {
    const appName = applicationName('stdio-eof');
    const { client, log } = await stdioClient({ DATABASE_URL, APP_NAME: appName });
    expect(JSON.parse(textOf(await client.callTool({ name: 'status', arguments: {} })))).toMatchObject({ ready: true, one: 1 });
    expect(await connectionsOf(appName)).toBeGreaterThan(0);
    const started = Date.now();
    await client.close(); // ends the child's stdin; the SDK would send SIGTERM only after 2 s
    await log.event('closed');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(log.events).toEqual(['init', 'destroy', 'closed']);
    expect(await connectionsOf(appName)).toBe(0);
  });

  it('on SIGTERM runs onDestroy() and exits', async () => {
    const appName = applicationName('stdio-term');
    const { client, transport, log } = await stdioClient({ DATABASE_URL, APP_NAME: appName });
    await client.callTool({ name: 'status', arguments: {} });
    process.kill(transport.pid!, 'SIGTERM');
    await log.event('closed');
    expect(log.events).toEqual(['init', 'destroy', 'closed']);
    expect(await connectionsOf(appName)).toBe(0);
    await client.close();
  });

  it('stops start-up when onInit() throws: its message, exit code 1, no connection left', async () => {
    const appName = applicationName('stdio-fail');
    const { code, stderr, stdout } = await runApp({ DATABASE_URL, APP_NAME: appName, TRANSPORT: 'stdio', FAIL_START: 'true' });
    expect(code).toBe(1);
    expect(stderr).toContain('the notes table is missing: run the migrations first');
    expect(stdout).toBe('');
    expect(await connectionsOf(appName)).toBe(0);
  });
});

describe('over HTTP', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('answers after onInit(), and on %s drains, runs onDestroy() and exits 0', async (signal) => {
    const appName = applicationName(`http-${signal}`);
    const app = await startHttpApp({ DATABASE_URL, APP_NAME: appName, DRAIN_MS: '100' });
    const client = new Client({ name: 'lifecycle-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`)));
    expect(JSON.parse(textOf(await client.callTool({ name: 'status', arguments: {} })))).toMatchObject({ ready: true, one: 1 });
    expect(await connectionsOf(appName)).toBeGreaterThan(0);
    app.child.kill(signal);
    expect(await app.exited).toBe(0);
    expect(app.log.events).toEqual(['init', 'destroy']);
    expect(await connectionsOf(appName)).toBe(0);
    await client.close();
  });

  it('stops start-up when onInit() throws, before listening', async () => {
    const { code, stderr, stdout } = await runApp({ DATABASE_URL, APP_NAME: applicationName('http-fail'), TRANSPORT: 'http', FAIL_START: '1' });
    expect(code).toBe(1);
    expect(stderr).toContain('the notes table is missing: run the migrations first');
    expect(stdout).toBe('');
  });
});
