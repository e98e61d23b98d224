/**
 * `typemcp list` and `typemcp call`, run as the built command against the built everything
 * server: over stdio (the server command after `--`) and over Streamable HTTP (`--url`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { assertBuilt, ROOT, typemcp } from './support/project';

const EVERYTHING = path.join(ROOT, 'apps/everything/dist/main.js');
const SERVER = ['--', 'node', EVERYTHING, '--transport', 'stdio'];

beforeAll(() => assertBuilt(EVERYTHING));

describe('typemcp list', () => {
  it('prints tools with their arguments, resources, templates and prompts', async () => {
    const { code, stdout, stderr } = await typemcp(['list', ...SERVER]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Tools\n/);
    expect(stdout).toContain('\n  add(a: number, b: number)  Adds two numbers');
    expect(stdout).toContain('  test_slow_operation(durationMs?: integer)');
    // The skills' SKILL.md files first (the extension registers them before the services are bound).
    expect(stdout).toContain('\n\nResources\n  skill://acme/support/refunds/SKILL.md');
    expect(stdout).toContain('\n  test://static-text');
    expect(stdout).toContain('\n\nResource templates\n  test://template/{id}/data');
    expect(stdout).toContain('\n\nPrompts\n  test_simple_prompt()');
    expect(stdout).toContain('  test_prompt_with_arguments(arg1, arg2)');
    // The skills extension's skills/list: each skill's files (count and bytes) or "generated".
    expect(stdout).toMatch(/\n\nSkills\n {2}skill:\/\/acme\/support\/refunds\/SKILL\.md \(2 files, \d+ B\) {2}Answer a customer's refund request/);
    expect(stdout).toMatch(/\n {2}skill:\/\/everything-guide\/SKILL\.md \(4 files, \d+ B\) {2}Find your way around/);
    expect(stdout).toContain('\n  skill://live/server-status/SKILL.md (generated)  Read this server');
  });

  it('prints the raw lists with --json', async () => {
    const { code, stdout } = await typemcp(['list', '--json', ...SERVER]);
    expect(code).toBe(0);
    const listing = JSON.parse(stdout) as Record<string, { name: string }[]>;
    expect(Object.keys(listing)).toEqual(['tools', 'resources', 'resourceTemplates', 'prompts', 'skills']);
    expect(listing.skills).toContainEqual(expect.objectContaining({ uri: 'skill://live/server-status/SKILL.md', resources: 'dynamic' }));
    expect(listing.tools).toContainEqual(expect.objectContaining({ name: 'add', inputSchema: expect.objectContaining({ required: ['a', 'b'] }) }));
  });
});

describe('typemcp call', () => {
  it('prints the text of the result and exits 0', async () => {
    expect(await typemcp(['call', 'add', '--args', '{"a":2,"b":40}', ...SERVER])).toEqual({ code: 0, stdout: '42\n', stderr: '' });
  });

  it('summarises non-text blocks, and prints the whole result with --json', async () => {
    const { stdout } = await typemcp(['call', 'test_multiple_content_types', ...SERVER]);
    expect(stdout).toMatch(/^Multiple content types test:\n\[image image\/png, \d+ bytes\]\n\[resource test:\/\/mixed-content-resource\]\n/);
    const json = await typemcp(['call', 'add', '--json', '--args', '{"a":1,"b":1}', ...SERVER]);
    expect(JSON.parse(json.stdout)).toEqual({ content: [{ type: 'text', text: '2' }] });
  });

  it('exits 1 on a tool error and on a protocol error, 2 on a usage mistake', async () => {
    expect(await typemcp(['call', 'test_error_handling', ...SERVER])).toEqual({
      code: 1,
      stdout: 'This tool intentionally returns an error for testing\n',
      stderr: 'typemcp: test_error_handling answered with a tool error\n',
    });
    expect(await typemcp(['call', 'no_such_tool', ...SERVER])).toMatchObject({ code: 1, stderr: expect.stringContaining('-32602') });
    expect(await typemcp(['call', 'add', '--args', '{"a":', ...SERVER])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--args is not valid JSON'),
    });
    expect(await typemcp(['call', 'add', '--args', '[1,2]', ...SERVER])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--args must be a JSON object'),
    });
  });

  it('explains what to do when there is no built server, or the server does not start', async () => {
    expect(await typemcp(['call', 'add'], __dirname)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('dist/main.js not found: build the project first'),
    });
    const crashed = await typemcp(['list', '--', 'node', '-e', 'console.error("boom: no config"); process.exit(3)']);
    expect(crashed).toMatchObject({ code: 2, stderr: expect.stringContaining('boom: no config') });
  });
});

describe('typemcp start', () => {
  it('runs a built entry point in its own process, with the arguments that follow it', async () => {
    const { code, stdout } = await typemcp([
      'call',
      'add',
      '--args',
      '{"a":1,"b":2}',
      '--',
      'node',
      path.join(ROOT, 'packages/cli/dist/bin.js'),
      'start',
      EVERYTHING,
      '--transport',
      'stdio',
    ]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: '3\n' });
  });
});

describe('over Streamable HTTP (--url)', () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    server = spawn(process.execPath, [EVERYTHING, '--transport', 'http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let err = '';
      server.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const found = /(http:\/\/\S+\/mcp)\b/.exec(err);
        if (found) resolve(found[1]!);
      });
      server.once('exit', () => reject(new Error(`server exited: ${err}`)));
    });
  });
  afterAll(async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill();
    const force = setTimeout(() => server.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
  });

  it('lists and calls', async () => {
    expect((await typemcp(['list', '--url', url])).stdout).toContain('add(a: number, b: number)');
    expect(await typemcp(['call', 'add', '--url', url, '--args', '{"a":20,"b":22}'])).toEqual({ code: 0, stdout: '42\n', stderr: '' });
    expect(await typemcp(['call', 'add', '--url', url, '--', 'node', 'x.js'])).toMatchObject({
      code: 2,
      stderr: 'typemcp: give either --url or a server command, not both\n',
    });
  });
});
