/**
 * The commands the start-up lines suggest, run as printed (`sh -c`, `typemcp` on PATH as an
 * installed @typemcp/cli puts it): the Quick start's everything server's line, the stdio server's
 * line under `typemcp dev` (a TypeScript entry: `node src/main.ts` fails on every Node), the
 * built server's line, and `typemcp dev`'s
 * line for a stdio client of an HTTP-only server, on this Node and on Node 22 (where Node strips
 * types itself and `node src/main.ts` failed differently).
 */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { node22 } from '../../../test/support/node22';
import { exitOf, launch, text, until } from './support/processes';
import { CLI, makeProject, pathWithTypemcp, removeProject, ROOT, shell } from './support/project';

/** The command after "try it with: " in a stdio server's start-up line. */
function suggested(stderr: string): string | undefined {
  return /try it with: (.+) \(Ctrl\+D stops\)/.exec(stderr)?.[1];
}

const nodes: [string, string | undefined][] = [[`Node ${process.versions.node}`, process.execPath]];
if (node22.bin) nodes.push(['Node 22', node22.bin]);
else it.skip(`on Node 22: ${node22.reason}`, () => undefined);

it("the Quick start's npm start: the everything server's line suggests typemcp list from the repository root, and it lists", async () => {
  const bin = pathWithTypemcp();
  const env = { ...(process.env as Record<string, string>), PATH: bin.PATH };
  try {
    // What `npm start` runs after its build (the build is this test's precondition).
    const started = await shell('node apps/everything/dist/main.js --transport stdio', ROOT, env);
    const command = suggested(started.stderr);
    expect(command).toBe('npx typemcp list -- node apps/everything/dist/main.js --transport stdio');
    const listed = await shell(command!, ROOT, env);
    expect(listed.stdout).toContain('test_simple_text');
    expect(listed.code).toBe(0);
  } finally {
    rmSync(bin.dir, { recursive: true, force: true });
  }
}, 60_000);

describe.each(nodes)('the commands the start-up lines suggest, on %s', (_name, node) => {
  let dir: string;
  let bin: { dir: string; PATH: string };
  let env: Record<string, string>;
  beforeAll(() => {
    dir = makeProject('example', 'both');
    bin = pathWithTypemcp(node);
    env = { ...(process.env as Record<string, string>), PATH: bin.PATH };
  });
  afterAll(() => {
    removeProject(dir);
    rmSync(bin.dir, { recursive: true, force: true });
  });

  it('typemcp dev: the stdio line suggests typemcp list on typemcp dev, and it lists the TypeScript server', async () => {
    // In a terminal (no relay) the server's own line reaches the person who ran typemcp dev.
    const dev = launch(dir, node!, [CLI, 'dev', '--no-relay', 'src/main.ts', '--transport', 'stdio'], env);
    const command = await until('the start-up line', () => suggested(dev.stderr()), 30_000);
    dev.child.kill('SIGTERM');
    await exitOf(dev.child);
    expect(command).toBe('npx typemcp list -- npx typemcp dev src/main.ts --transport stdio');
    const listed = await shell(command, dir, env);
    expect(listed.stdout).toContain('greet');
    expect(listed.code).toBe(0);
  }, 60_000);

  it('the built server: its line suggests typemcp list on node dist/main.js, and it lists', async () => {
    expect(await shell('npx tsc -p tsconfig.build.json', dir, env)).toMatchObject({ code: 0 });
    const started = await shell('node dist/main.js', dir, env);
    const command = suggested(started.stderr);
    expect(command).toBe('npx typemcp list -- node dist/main.js');
    const listed = await shell(command!, dir, env);
    expect(listed.stdout).toContain('greet');
    expect(listed.code).toBe(0);
  }, 60_000);

  it('typemcp dev for a stdio client of an HTTP server: the line it prints names the --bridge command, and a client runs it', async () => {
    const transport = new StdioClientTransport({
      command: node!,
      args: [CLI, 'dev', 'src/main.ts', '--transport', 'http'],
      cwd: dir,
      env: { ...env, PORT: '0' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void transport.start();
    const command = await until('the hint', () => /a stdio client runs (.+)$/m.exec(stderr)?.[1], 30_000);
    await transport.close();
    expect(command).toBe('npx typemcp dev --bridge src/main.ts --transport http');
    const [executable, ...args] = command.split(' ');
    const client = new Client({ name: 'suggested', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: executable!, args, cwd: dir, env: { ...env, PORT: '0' }, stderr: 'ignore' }));
    try {
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
    } finally {
      await client.close();
    }
  }, 60_000);
});
