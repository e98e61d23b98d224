/**
 * `typemcp inspect`, run as the built command: it starts the MCP Inspector the project has (its
 * dev dependency, or `mcp-inspector` on PATH) with the server command, and never downloads one.
 * The Inspectors here are small scripts that record how they were started.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { typemcp } from './support/project';

/** A script that writes its arguments and working folder to $RECORD, then exits with $EXIT_CODE. */
const RECORDER = `#!/usr/bin/env node
require('node:fs').writeFileSync(process.env.RECORD, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));
process.exitCode = Number(process.env.EXIT_CODE ?? 0);
`;

describe('typemcp inspect', () => {
  let root: string;
  let project: string;
  let record: string;
  /** Only node's own folder on PATH: no mcp-inspector anywhere. */
  const bare = { ...process.env, PATH: path.dirname(process.execPath) };
  const recorded = () => JSON.parse(readFileSync(record, 'utf8')) as { argv: string[]; cwd: string };

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'typemcp-inspect-'));
    project = path.join(root, 'project');
    record = path.join(root, 'record.json');
    mkdirSync(path.join(project, 'dist'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), '{ "name": "project", "private": true }\n');
    writeFileSync(path.join(project, 'dist', 'main.js'), '');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('says how to install the Inspector when it is not installed, and exits 2 without downloading anything', async () => {
    const ran = await typemcp(['inspect'], project, bare);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toContain('typemcp: the MCP Inspector is not installed (no @modelcontextprotocol/inspector in node_modules, no mcp-inspector on PATH)');
    expect(ran.stderr).toContain('\n  npm install -D @modelcontextprotocol/inspector\n');
    expect(ran.stderr).toContain('Inspector 2.x needs Node.js >= 22.19');
    expect(ran.stderr).toContain(`(this is ${process.versions.node})`);
  });

  it('starts mcp-inspector from PATH with the built server, and exits with its code', async () => {
    const bin = path.join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'mcp-inspector'), RECORDER);
    chmodSync(path.join(bin, 'mcp-inspector'), 0o755);
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, RECORD: record, EXIT_CODE: '3' };

    expect(await typemcp(['inspect'], project, env)).toMatchObject({ code: 3 });
    expect(recorded()).toEqual({ argv: ['--', 'node', 'dist/main.js'], cwd: project });

    expect(await typemcp(['inspect', '--', 'node', 'dist/main.js', '--transport', 'stdio'], project, { ...env, EXIT_CODE: '0' })).toMatchObject({ code: 0 });
    expect(recorded().argv).toEqual(['--', 'node', 'dist/main.js', '--transport', 'stdio']);
    rmSync(bin, { recursive: true });
  });

  it("prefers the project's @modelcontextprotocol/inspector to one on PATH", async () => {
    const pkg = path.join(project, 'node_modules', '@modelcontextprotocol', 'inspector');
    mkdirSync(path.join(pkg, 'cli', 'build'), { recursive: true });
    writeFileSync(
      path.join(pkg, 'package.json'),
      '{ "name": "@modelcontextprotocol/inspector", "version": "0.15.0", "bin": { "mcp-inspector": "cli/build/cli.js" } }\n',
    );
    writeFileSync(path.join(pkg, 'cli', 'build', 'cli.js'), RECORDER);
    try {
      expect(await typemcp(['inspect'], project, { ...bare, RECORD: record })).toMatchObject({ code: 0 });
      expect(recorded()).toEqual({ argv: ['--', 'node', 'dist/main.js'], cwd: project });
    } finally {
      rmSync(path.join(project, 'node_modules'), { recursive: true });
    }
  });

  it('asks for a build when there is no dist/main.js and no server command', async () => {
    const empty = path.join(root, 'empty');
    mkdirSync(path.join(empty, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(path.join(empty, 'node_modules', '.bin', 'mcp-inspector'), RECORDER);
    chmodSync(path.join(empty, 'node_modules', '.bin', 'mcp-inspector'), 0o755);
    expect(await typemcp(['inspect'], empty, { ...bare, PATH: `${path.join(empty, 'node_modules', '.bin')}${path.delimiter}${bare.PATH}` })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('dist/main.js not found: build the project first (npm run build)'),
    });
  });
});
