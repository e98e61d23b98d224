/** `typemcp dev [entry] [args...]`. */
import { Command } from 'commander';
import { runDev } from '../dev/dev-server.js';
import type { CommandResult } from './command-result.js';

/** Defines `dev` on `program`; the exit code goes to `done`. */
export function devCommand(program: Command, done: CommandResult): void {
  program
    .command('dev')
    .description('Run a TypeScript entry point (SWC, with decorator metadata) and restart it when a file changes')
    .argument('[entry]', 'the entry point', 'src/main.ts')
    .argument('[args...]', 'arguments for the entry point, e.g. --transport http')
    .option('-w, --watch <path...>', "what to watch (default: the entry's folder, and skills/ when there is one)")
    .option('--no-relay', 'do not keep stdio clients connected across restarts (pass stdin/stdout straight through)')
    .option('--bridge', "relay a stdio client to the server's Streamable HTTP endpoint (a server that serves HTTP only)")
    .option('--mcp-path <path>', 'the endpoint --bridge talks to', '/mcp')
    .passThroughOptions()
    .addHelpText(
      'after',
      '\nOptions after the entry point go to it: typemcp dev src/main.ts --transport http\n\n' +
        'An MCP client (stdio) should run `npx typemcp dev` in the project folder, not `npm run dev`:\n' +
        "npm prints a banner on stdout, which belongs to the protocol. The client's connection survives\n" +
        'restarts: the handshake is replayed to the new process and the client is told that the lists\n' +
        'changed; while the server is down (e.g. a syntax error), requests are answered with an error\n' +
        'that says why. typemcp dev stops, with its server, on SIGINT, SIGTERM or SIGHUP, when the\n' +
        'process that started it exits, and once stdin has ended and the server has exited.\n\n' +
        'A server that listens over HTTP: typemcp dev listens on the port the server asks for and keeps it\n' +
        'open across restarts, and MCP sessions survive them (the handshake is replayed to the new process).\n' +
        'For a stdio client of such a server, the client runs `npx typemcp dev --bridge`.',
    )
    .action(async (entry: string, args: string[], options: { watch?: string[]; relay: boolean; bridge?: boolean; mcpPath: string }) => {
      // `typemcp dev --transport http` has no entry: the default one gets those arguments.
      const [file, rest] = entry.startsWith('-') ? ['src/main.ts', [entry, ...args]] : [entry, args];
      done.code = await runDev({
        entry: file,
        args: rest,
        watch: options.watch ?? [],
        cwd: process.cwd(),
        relay: options.relay ? undefined : false,
        bridge: options.bridge,
        mcpPath: options.mcpPath,
      });
    });
}
