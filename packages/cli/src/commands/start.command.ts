/** `typemcp start [entry] [args...]`: runs the built server in this process. */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import { UsageError } from '../usage.error.js';

/** Loads the compiled entry point as `node <entry> <args...>` would: same `process.argv`, same process. */
export function startServer(entry: string, args: string[], cwd: string = process.cwd()): void {
  const file = path.resolve(cwd, entry);
  if (!existsSync(file)) {
    throw new UsageError(`${entry} not found: build the project first (npm run build), or give the compiled entry point: typemcp start <file.js>`);
  }
  process.argv = [process.argv[0]!, file, ...args];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- runs the user's compiled entry point in this process
  require(file);
}

/** Defines `start` on `program`. */
export function startCommand(program: Command): void {
  program
    .command('start')
    .description('Run the built server (default dist/main.js), as `node dist/main.js` would')
    .argument('[entry]', 'the compiled entry point', 'dist/main.js')
    .argument('[args...]', 'arguments for the entry point, e.g. --transport http')
    .passThroughOptions()
    .action((entry: string, args: string[]) => {
      const [file, rest] = entry.startsWith('-') ? ['dist/main.js', [entry, ...args]] : [entry, args];
      startServer(file, rest);
    });
}
