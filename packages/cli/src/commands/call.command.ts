/** `typemcp call <tool> --args '<json>'`: calls one tool and prints the result. */
import { Command } from 'commander';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, type ServerTarget } from '../client/connect.js';
import { formatToolResult } from '../client/format.js';
import { UsageError } from '../usage.error.js';
import type { CommandResult } from './command-result.js';
import { serverOptions, withServer, type ServerFlags } from './server-options.js';

/** The `--args` JSON, which must be an object. */
export function parseToolArgs(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON (${(error as Error).message}): ${json}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`--args must be a JSON object, e.g. '{"name":"Ada"}'`);
  return value as Record<string, unknown>;
}

/** Calls `tool` with `args` on the server. */
export async function callTool(target: ServerTarget, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const connection = await connect(target);
  try {
    return (await connection.client.callTool({ name: tool, arguments: args })) as CallToolResult;
  } finally {
    await connection.close();
  }
}

/** Defines `call` on `program`. */
export function callCommand(program: Command, done: CommandResult): void {
  serverOptions(
    program
      .command('call')
      .description('Call a tool and print its result (exit code 1 when the result is a tool error)')
      .argument('<tool>', 'the tool name')
      .argument('[command...]', 'the server command after --, e.g. -- node dist/main.js --transport stdio (default: node dist/main.js)')
      .option('-a, --args <json>', 'the arguments, a JSON object', '{}'),
  ).action(async (tool: string, command: string[], flags: ServerFlags & { args: string }) => {
    done.code = await withServer(command, flags, async (target) => {
      const result = await callTool(target, tool, parseToolArgs(flags.args));
      process.stdout.write(`${flags.json ? JSON.stringify(result, null, 2) : formatToolResult(result)}\n`);
      if (result.isError && !flags.json) process.stderr.write(`typemcp: ${tool} answered with a tool error\n`);
      return result.isError ? 1 : 0;
    });
  });
}
