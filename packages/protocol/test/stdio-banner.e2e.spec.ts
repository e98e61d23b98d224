/**
 * The stdio start-up line, in a real process over real pipes (needs `npx tsc -b`): one line on
 * stderr naming the server, the transport, the revisions and what to do next; stdout carries
 * only JSON-RPC; `banner: false` keeps stderr silent.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_REVISIONS } from '@typemcp/protocol';
import { thisCommand } from '../src/transport/stdio-banner';

const DIST = join(__dirname, '../dist/index.js');

function run(options: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run "npx tsc -b" first`);
  const script = `const p = require(${JSON.stringify(DIST)});
p.serveStdio(new p.ProtocolServer({ serverInfo: { name: 'banner-test', version: '2.3.4' } }), ${options}).closed.then(() => process.exit(0));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('stdio start-up line', () => {
  it('prints one line on stderr when serving the process streams, and nothing but JSON-RPC on stdout', async () => {
    const { code, stdout, stderr } = await run('{}');
    expect(code).toBe(0);
    expect(stdout).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    expect(stderr.split('\n')).toHaveLength(2);
    const oldest = SUPPORTED_REVISIONS[SUPPORTED_REVISIONS.length - 1];
    const newest = SUPPORTED_REVISIONS[0];
    expect(stderr).toMatch(
      new RegExp(`^banner-test 2\\.3\\.4: serving MCP over stdio \\(revisions ${oldest} to ${newest}\\); waiting for a client on stdin\\.`),
    );
    expect(stderr).toContain('npx typemcp list -- node');
  });

  it('prints nothing with banner: false', async () => {
    const { code, stdout, stderr } = await run('{ banner: false }');
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '{"jsonrpc":"2.0","id":1,"result":{}}\n', stderr: '' });
  });
});

describe('the command the start-up line suggests', () => {
  it('is node with the script relative to the folder, arguments quoted where a shell needs it', () => {
    expect(thisCommand(['/usr/bin/node', '/srv/app/dist/main.js', '--transport', 'stdio', 'a b'], '/srv/app')).toBe(
      'node dist/main.js --transport stdio "a b"',
    );
    expect(thisCommand(['/usr/bin/node', '/elsewhere/main.js'], '/srv/app')).toBe('node /elsewhere/main.js');
  });

  it('is typemcp dev for a TypeScript entry point: node alone cannot run it (no loader, no decorator metadata)', () => {
    // What `typemcp dev` runs: `node --require <its hook> /srv/app/src/main.ts --transport stdio`.
    expect(thisCommand(['/usr/bin/node', '/srv/app/src/main.ts', '--transport', 'stdio'], '/srv/app')).toBe('npx typemcp dev src/main.ts --transport stdio');
    expect(thisCommand(['/usr/bin/node', '/srv/app/src/main.cts'], '/srv/app')).toBe('npx typemcp dev src/main.cts');
  });
});
