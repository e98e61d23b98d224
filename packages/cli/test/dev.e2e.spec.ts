/**
 * `typemcp dev` on a generated project, driven over stdio by the official SDK client: the
 * TypeScript source runs with decorator metadata (the DTO's schema and validation work), and an
 * edit restarts the server under the same client connection (handshake replayed, list_changed
 * sent). While the server is down, requests get an error saying why at once; `typemcp dev` and its
 * server end with a signal, with stdin, and with the `npm run dev` that started them.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { alive, descendants, exitOf, launch, text, until } from './support/processes';
import { CLI, makeProject, pathWithTypemcp, removeProject, typemcp } from './support/project';

describe('typemcp dev', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('example');
  });
  afterAll(() => removeProject(dir));

  it('runs src/main.ts with decorator metadata and restarts on change without dropping the stdio client', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'dev'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'dev-test', version: '0.0.0' });
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    await client.connect(transport);
    try {
      // The schema and the validation both come from GreetInput, found through design:paramtypes.
      const [greet] = (await client.listTools()).tools;
      expect(greet!.inputSchema).toMatchObject({ properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] });
      expect(await client.callTool({ name: 'greet', arguments: { name: '' } })).toMatchObject({ isError: true });
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');

      const file = path.join(dir, 'src/services/greeting.service.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace("en: 'Hello'", "en: 'Howdy'"));
      await listChanged;
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Howdy, Ada!');
      expect(stderr).toContain('[typemcp dev] src/services/greeting.service.ts changed: restarting');
    } finally {
      await client.close();
    }
  }, 30_000);

  it("tells, in its help, which command a client runs (npm's banner would corrupt stdout)", async () => {
    const help = await typemcp(['dev', '--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'An MCP client (stdio) should run `npx typemcp dev` in the project folder, not `npm run dev`:\nnpm prints a banner on stdout',
    );
  });

  describe('stops, with the server it runs', () => {
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
      it(`on ${signal}, while it relays stdio (stdin still open)`, async () => {
        const { child } = launch(dir, process.execPath, [CLI, 'dev']);
        const [server] = await until('the server process', () => descendants(child.pid!).length > 0 && descendants(child.pid!));
        child.kill(signal);
        expect(typeof (await exitOf(child))).toBe('number');
        await until('the server to exit', () => !alive(server!));
      });
    }

    it('when stdin ends before any message', async () => {
      const { child } = launch(dir, process.execPath, [CLI, 'dev']);
      const [server] = await until('the server process', () => descendants(child.pid!).length > 0 && descendants(child.pid!));
      child.stdin!.end();
      expect(await exitOf(child)).toBe(0);
      await until('the server to exit', () => !alive(server!));
    });

    it('when the npm run dev that started it is killed', async () => {
      const bin = pathWithTypemcp();
      const npm = launch(dir, 'npm', ['run', 'dev'], { ...process.env, PATH: bin.PATH });
      // npm, its shell and a cold swc load before the first line: slow on a loaded 2-core machine.
      await until('typemcp dev to start the server', () => npm.stderr().includes('[typemcp dev] running'), 40_000);
      const tree = await until('the server process', () => descendants(npm.child.pid!).length >= 3 && descendants(npm.child.pid!));
      npm.child.kill('SIGTERM');
      await exitOf(npm.child);
      await until(`${tree.join(', ')} to exit`, () => tree.every((pid) => !alive(pid)));
      rmSync(bin.dir, { recursive: true, force: true });
    }, 60_000);
  });

  it('answers requests at once while the server is down, with the reason, and serves again once fixed', async () => {
    const file = path.join(dir, 'src/services/greeting.service.ts');
    const original = readFileSync(file, 'utf8');
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'dev'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'dev-test', version: '0.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(transport);
    try {
      const exits = () => stderr.split('waiting for a change to restart').length - 1;
      const started = Date.now();

      // A syntax error: the file, line and message, not SWC's native backtrace.
      writeFileSync(file, original.replace('greet(input: GreetInput): string {', 'greet(input: GreetInput): string {\n    return +;'));
      await until('the server to crash', () => exits() === 1);
      const syntax = /greeting\.service\.ts:(\d+):\d+: SyntaxError: Expression expected/.exec(stderr);
      expect(syntax).not.toBeNull();
      expect(stderr).not.toContain('<unknown>');
      const down = Date.now();
      await expect(client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).rejects.toThrow(
        `typemcp dev: the server is not running (src/main.ts exited with code 1: src/services/greeting.service.ts:${syntax![1]}`,
      );
      await expect(client.listTools()).rejects.toThrow('Expression expected');
      expect(Date.now() - down).toBeLessThan(2000);

      // A definition error: the first line of what the server printed.
      writeFileSync(
        file,
        original.replace(
          "@Resource('greetings://{language}'",
          "@Tool({ name: 'greet', description: 'again' })\n  again(): string {\n    return '';\n  }\n\n  @Resource('greetings://{language}'",
        ),
      );
      await until('the server to crash again', () => exits() === 2);
      await expect(client.listTools()).rejects.toThrow(
        'the server is not running (src/main.ts exited with code 1: DefinitionError: Tool "greet" is declared by both GreetingService.greet and GreetingService.again',
      );

      writeFileSync(file, original);
      await until('list_changed', () => changes > 0);
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toMatch(/, Ada!$/);
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      writeFileSync(file, original);
      await client.close();
    }
  }, 30_000);
});
