/** Options shared by the commands that talk to a server (`list`, `call`) and their error handling. */
import { Command } from 'commander';
import type { ServerTarget } from '../client/connect.js';
import { UsageError } from '../usage.error.js';

/** `--url` and `--json`. */
export interface ServerFlags {
  url?: string;
  json?: boolean;
}

/** Adds `--url` and `--json` to a command. */
export function serverOptions(command: Command): Command {
  return command
    .option('-u, --url <url>', 'a Streamable HTTP endpoint instead of a command, e.g. http://127.0.0.1:3000/mcp')
    .option('--json', 'print the raw result as JSON');
}

/**
 * Runs `task` against the server described by the flags and turns failures into exit codes: 2 for
 * a usage mistake or a server that cannot be reached, 1 for an error the server reported. The
 * server's stderr is shown when it failed.
 */
export async function withServer(command: string[], flags: ServerFlags, task: (target: ServerTarget) => Promise<number>): Promise<number> {
  if (flags.url && command.length) {
    process.stderr.write('typemcp: give either --url or a server command, not both\n');
    return 2;
  }
  const target: ServerTarget = { url: flags.url, command, cwd: process.cwd() };
  try {
    return await task(target);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`typemcp: ${message}\n`);
    if (error instanceof UsageError) return 2;
    // The SDK's McpError carries the JSON-RPC code: the server answered with an error, unless the
    // code is one of the SDK's own for a closed connection (-32000) or a timeout (-32001).
    const code = (error as { code?: unknown }).code;
    return typeof code === 'number' && code !== -32000 && code !== -32001 ? 1 : 2;
  }
}
