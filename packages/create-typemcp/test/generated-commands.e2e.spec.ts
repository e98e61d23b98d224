/**
 * Every command a generated project suggests (its README: code spans, bash blocks and client
 * configurations; the next steps the generator prints) is found, and run as written in the
 * project (`sh -c`, `typemcp` on PATH as the installed @typemcp/cli puts it): for an HTTP-only
 * project and one served over both (whose commands include every one of a stdio project's).
 * The list found must be the list this test runs: a new suggestion fails here until it is run.
 * Left to other tests: `npm install` (generate.e2e.spec.ts: the generator runs it, from a
 * checkout), `npx typemcp inspect` (needs the Inspector installed from the registry;
 * packages/cli/test/inspect.e2e.spec.ts runs the command against recorded Inspectors).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { text, until } from '../../cli/test/support/processes';
import { makeProject, pathWithTypemcp, removeProject, shell } from '../../cli/test/support/project';
import { nextSteps } from '../src/next-steps';

type Transport = 'stdio' | 'http' | 'both';

/** Commands a project of `transport` suggests: README code spans and bash lines starting with a command, client configurations, next steps. */
function suggestedCommands(dir: string, transport: Transport): string[] {
  const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
  const bash = [...readme.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
  const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const configs = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].flatMap((m) => {
    type Entry = { command?: string; args?: string[] };
    const config = JSON.parse(m[1]!) as { servers?: Record<string, Entry>; mcpServers?: Record<string, Entry> };
    const entries = Object.values(config.servers ?? config.mcpServers ?? {});
    return entries.filter((e) => e.command).map((e) => [e.command, ...(e.args ?? [])].join(' '));
  });
  const options = { name: 'app', directory: 'app', transport, template: 'example', auth: 'none', install: false, git: false } as const;
  const steps = nextSteps(options, path.dirname(dir))
    .split('\n')
    .filter((l) => l.startsWith('  ') && !l.trimStart().startsWith('"') && /^\s+(npm|npx|cd) /.test(l))
    .map((l) => l.trim());
  const commands = [...bash, ...spans, ...configs, ...steps]
    .map((c) => c.replace(/\s+#.*$/, '').trim())
    .filter((c) => /^(npm|npx|node|PORT=\S+ npm|cd) /.test(c) || c === 'npm test' || c === 'npm start');
  return [...new Set(commands)].sort();
}

/** A command left running (a server, a dev loop), with what it printed; `stop()` ends its whole process group. */
function background(command: string, cwd: string, env: Record<string, string>): { child: ChildProcess; out: () => string; stop: () => Promise<void> } {
  const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await exited;
  };
  return { child, out: () => out, stop };
}

/** Connects the official SDK client over stdio to `command` (as a client configuration runs it) and greets. */
async function greetOverStdio(command: string, cwd: string, env: Record<string, string>): Promise<string> {
  const [executable, ...args] = command.split(' ');
  const client = new Client({ name: 'generated-commands', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: executable!, args, cwd, env, stderr: 'ignore' }));
  try {
    return text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
  } finally {
    await client.close();
  }
}

async function greetOverHttp(url: string): Promise<string> {
  const client = new Client({ name: 'generated-commands', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
  } finally {
    await client.close();
  }
}

const URL_3000 = 'http://127.0.0.1:3000/mcp';

it('a stdio project suggests nothing a project served over both does not (that one runs them)', () => {
  const stdio = makeProject('example', 'stdio');
  const both = makeProject('example', 'both');
  try {
    expect(suggestedCommands(stdio, 'stdio').filter((c) => !suggestedCommands(both, 'both').includes(c))).toEqual([]);
  } finally {
    removeProject(stdio);
    removeProject(both);
  }
});

describe.each(['http', 'both'] as const)('the commands a generated %s project suggests', (transport) => {
  let dir: string;
  let bin: { dir: string; PATH: string };
  let env: Record<string, string>;
  const ran = new Set<string>();
  /** Runs `command` to its end and expects exit code 0; resolves with what it printed. */
  const runs = async (command: string, input?: string) => {
    const result = await shell(command, dir, env, input);
    expect({ command, code: result.code, output: result.code ? result.stdout + result.stderr : '' }).toEqual({ command, code: 0, output: '' });
    ran.add(command);
    return result.stdout + result.stderr;
  };

  beforeAll(() => {
    dir = makeProject('example', transport);
    bin = pathWithTypemcp();
    env = { ...(process.env as Record<string, string>), PATH: bin.PATH };
  });
  afterAll(() => {
    removeProject(dir);
    rmSync(bin.dir, { recursive: true, force: true });
  });

  it('each one works as written', async () => {
    const skipped = ['npx typemcp inspect', 'npm install @typemcp/otel @opentelemetry/api', 'node --require ./dist/otel.js dist/main.js'];
    const suggested = suggestedCommands(dir, transport);
    ran.add('cd app'); // the project folder, where every other command runs

    expect(await runs('npm run typecheck')).not.toContain('error');
    expect(await runs('npm test')).toMatch(/Tests:\s+\d+ passed/);
    expect(await runs('npm run build')).toContain('typemcp build: wrote dist/typemcp.manifest.json');

    if (transport === 'both') {
      expect(await runs('npm start', '')).toContain('serving MCP over stdio');
      expect(await runs('npx typemcp list')).toContain('greet(name: string');
      expect(await runs(`npx typemcp call greet --args '{"name":"Ada"}'`)).toBe('Hello, Ada!\n');
      // The client configurations: node <absolute path>/dist/main.js, and VS Code's ${workspaceFolder} form.
      for (const config of suggested.filter((c) => c.startsWith('node ') && c.endsWith('/dist/main.js'))) {
        const resolved = config.replace('${workspaceFolder}', dir).replace('/absolute/path/to/app', dir);
        expect(await greetOverStdio(resolved, dir, env)).toBe('Hello, Ada!');
        ran.add(config);
      }
      // A client of the dev loop: `npx typemcp dev` (stdio relay).
      expect(await greetOverStdio('npx typemcp dev', dir, env)).toBe('Hello, Ada!');
      ran.add('npx typemcp dev');
    }

    const start = transport === 'both' ? 'npm run start:http' : 'npm start';
    const server = background(start, dir, env);
    try {
      await until('the HTTP server', () => server.out().includes(`serving MCP over Streamable HTTP at ${URL_3000}`), 30_000);
      ran.add(start);
      if (transport === 'http') {
        expect(await runs(`npx typemcp list --url ${URL_3000}`)).toContain('greet(name: string');
        expect(await runs(`npx typemcp call greet --args '{"name":"Ada"}' --url ${URL_3000}`)).toBe('Hello, Ada!\n');
      } else {
        expect(await greetOverHttp(URL_3000)).toBe('Hello, Ada!');
      }
    } finally {
      await server.stop();
    }
    const other = background(`PORT=8080 ${start}`, dir, env);
    try {
      await until('the server on 8080', () => other.out().includes('serving MCP over Streamable HTTP at http://127.0.0.1:8080/mcp'), 30_000);
      expect(await greetOverHttp('http://127.0.0.1:8080/mcp')).toBe('Hello, Ada!');
      ran.add(`PORT=8080 ${start}`);
    } finally {
      await other.stop();
    }
    // The dev loop over HTTP, with a client connected to the URL the README gives.
    const devHttp = transport === 'both' ? 'npm run dev:http' : 'npm run dev';
    const dev = background(devHttp, dir, env);
    try {
      await until('typemcp dev over HTTP', () => dev.out().includes(`serving MCP over Streamable HTTP at ${URL_3000}`), 40_000);
      expect(await greetOverHttp(URL_3000)).toBe('Hello, Ada!');
      ran.add(devHttp);
    } finally {
      await dev.stop();
    }
    if (transport === 'http') {
      expect(await greetOverStdio('npx typemcp dev --bridge', dir, env)).toBe('Hello, Ada!');
      ran.add('npx typemcp dev --bridge');
    } else {
      // `npm run dev` in a terminal: it starts the stdio server under typemcp dev and keeps running.
      const dev = background('npm run dev', dir, env);
      try {
        await until('typemcp dev', () => dev.out().includes('serving MCP over stdio'), 40_000);
        ran.add('npm run dev');
      } finally {
        await dev.stop();
      }
    }

    // Last: they add code (that it compiles and its tests pass is add.e2e.spec.ts's part).
    expect(await runs('npx typemcp add tool get_forecast')).toContain('created  test/get-forecast.service.spec.ts');
    expect(await runs('npx typemcp add prompt summarise --service GreetingService')).toContain('created  test/summarise.prompt.spec.ts');

    expect(suggested.filter((c) => !skipped.includes(c) && c !== 'npm install')).toEqual([...ran].sort());
  }, 360_000);
});
