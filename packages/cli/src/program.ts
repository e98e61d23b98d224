/** The `typemcp` command line (commander). */
import { Command, CommanderError } from 'commander';
import { addCommand } from './commands/add.command.js';
import { buildCommand } from './commands/build.command.js';
import { callCommand } from './commands/call.command.js';
import type { CommandResult } from './commands/command-result.js';
import { devCommand } from './commands/dev.command.js';
import { inspectCommand } from './commands/inspect.command.js';
import { listCommand } from './commands/list.command.js';
import { proxyCommand } from './commands/proxy.command.js';
import { startCommand } from './commands/start.command.js';
import { UsageError } from './usage.error.js';
import { CLI_VERSION } from './version.js';

/** Builds the program; each command's exit code is left in `done`. */
export function createProgram(done: CommandResult): Command {
  const program = new Command('typemcp')
    .description('Develop, run and try TypeMCP servers')
    .version(CLI_VERSION, '-v, --version')
    .enablePositionalOptions()
    .showHelpAfterError("(typemcp <command> --help shows a command's usage)")
    .exitOverride(); // inherited by the commands below: errors and --help come back to run()
  devCommand(program, done);
  startCommand(program);
  buildCommand(program, done);
  addCommand(program, done);
  listCommand(program, done);
  callCommand(program, done);
  inspectCommand(program, done);
  proxyCommand(program, done);
  return program;
}

/**
 * Runs `typemcp` with `argv` (without node and script paths); resolves with the exit code
 * (`start` keeps running the server in this process after it resolves). @publicApi
 */
export async function run(argv: string[]): Promise<number> {
  const done: CommandResult = { code: 0 };
  const program = createProgram(done);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return done.code;
  } catch (error) {
    // commander has printed help (exit code 0) or what is wrong with the command line.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`typemcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
