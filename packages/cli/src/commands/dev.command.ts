/** `typemcp dev [entry] [args...]`. */
import { Command, InvalidArgumentError } from 'commander';
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
    .option('--mcp-path <path>', 'the endpoint --bridge and the preview talk to', '/mcp')
    .option('--preview', 'serve the MCP Apps preview (default: when the project has views, src/**/*.app.html)')
    .option('--no-preview', 'do not serve the MCP Apps preview')
    .option('--preview-port <port>', "the preview's port on 127.0.0.1 (default 6280, or a free one when taken; 0: any free one)", port)
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
        'For a stdio client of such a server, the client runs `npx typemcp dev --bridge`.\n\n' +
        'MCP Apps: the views (src/**/*.app.html) are bundled into dist/ before each start, and the preview\n' +
        '(http://127.0.0.1:6280/) lists the tools that have a view, calls them and renders their views with\n' +
        'the official AppBridge; it reloads the open view when the server or a view changes. It reaches an\n' +
        "HTTP server through the server's own endpoint, and a stdio server through a process of its own.",
    )
    .action(
      async (
        entry: string,
        args: string[],
        options: { watch?: string[]; relay: boolean; bridge?: boolean; mcpPath: string; preview?: boolean; previewPort?: number },
      ) => {
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
          preview: options.preview,
          previewPort: options.previewPort,
        });
      },
    );
}

/** A TCP port (0-65535) given on the command line. */
function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('a port number, 0 to 65535');
  return n;
}
