/** `typemcp inspect [-- <server command>]`: the official MCP Inspector against the project's server. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { findInspector, installAdvice } from '../inspect/find-inspector.js';
import { UsageError } from '../usage.error.js';
import type { CommandResult } from './command-result.js';

/** Starts the Inspector on `server` (default `node dist/main.js`) in `cwd`; resolves with its exit code. */
export function runInspector(server: string[], cwd: string = process.cwd()): Promise<number> {
  const inspector = findInspector(cwd);
  if (!inspector) throw new UsageError(installAdvice());
  if (!server.length && !existsSync(path.join(cwd, 'dist', 'main.js'))) {
    throw new UsageError('dist/main.js not found: build the project first (npm run build), or give the server: typemcp inspect -- <command> [args...]');
  }
  const command = server.length ? server : ['node', 'dist/main.js'];
  // `--` ends the Inspector's own options: what follows is the server and its arguments.
  const child = spawn(inspector.command, [...inspector.args, '--', ...command], { cwd, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Defines `inspect` on `program`. */
export function inspectCommand(program: Command, done: CommandResult): void {
  program
    .command('inspect')
    .description("Open the official MCP Inspector on the project's server (the Inspector must be installed in the project)")
    .argument('[command...]', 'the server command after --, e.g. -- node dist/main.js --transport stdio (default: node dist/main.js)')
    .addHelpText(
      'after',
      "\nThe Inspector is the project's @modelcontextprotocol/inspector (npm install -D @modelcontextprotocol/inspector),\n" +
        'or mcp-inspector on PATH; nothing is downloaded. On Node.js 20 npm installs Inspector 0.15; 2.x needs Node.js >= 22.19.\n\n' +
        'Examples:\n  typemcp inspect\n  typemcp inspect -- npx typemcp dev    # the TypeScript sources, restarted on change',
    )
    .action(async (command: string[]) => {
      done.code = await runInspector(command);
    });
}
