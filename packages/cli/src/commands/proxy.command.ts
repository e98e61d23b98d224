/** `typemcp proxy [options] -- <command> [args...]` or `typemcp proxy --url <url> [options]`. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { runProxy, type ProxyOptions } from '../proxy/run-proxy.js';
import type { CommandResult } from './command-result.js';

const integer = (what: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${what} must be an integer from ${min} to ${max}.`);
  return n;
};

type Flags = Omit<ProxyOptions, 'command' | 'cwd'>;

/** Defines `proxy` on `program`: the proxy keeps running after the action resolves, until SIGINT or SIGTERM. */
export function proxyCommand(program: Command, done: CommandResult): void {
  program
    .command('proxy')
    .description('Serve any MCP server (a command, or --url) over Streamable HTTP (or stdio) with TypeMCP in front')
    .argument('[command...]', 'the upstream server command and its arguments, after --')
    .option('-p, --port <port>', 'TCP port (0 picks a free one)', integer('--port', 0, 65535), 3000)
    .option('--host <host>', 'bind address', '127.0.0.1')
    .option('--stdio', 'serve over stdio instead of HTTP')
    .option('-u, --url <url>', 'a Streamable HTTP upstream instead of a command')
    .option('--bearer-env <name>', "the environment variable holding the HTTP upstream's bearer token")
    .addOption(new Option('--era <era>', 'the revision era spoken to the upstream').choices(['auto', 'legacy', 'modern']).default('auto'))
    .option('--namespace <ns>', 'serve the upstream under a namespace (ns_tool, ns+uri)')
    .option('--jwt-issuer <url>', 'require JWT bearer tokens from this issuer')
    .option('--jwks-uri <url>', "the issuer's JWKS (default: from its metadata)")
    .option('--audience <aud>', 'the audience the tokens must carry (this server)')
    .option('--rate-limit <n>', 'requests per second per caller', integer('--rate-limit', 1, 1_000_000))
    .option('--log', 'log every HTTP request on stderr (JSON lines)')
    .option('--allowed-host <host...>', 'Host headers to accept besides the loopback names')
    .option('--allowed-origin <origin...>', 'Origin headers to accept')
    .option('--drain-ms <ms>', 'on SIGTERM, keep serving in-flight calls this long with /readyz failing', integer('--drain-ms', 0, 600_000), 5000)
    .option('--grace-ms <ms>', 'then, how long in-flight calls may still run as the listener closes', integer('--grace-ms', 0, 600_000), 5000)
    .option('-c, --config <file>', 'a module exporting { http, mount, server } options for the rest')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  typemcp proxy --port 8080 -- node dist/main.js --transport stdio\n' +
        '  typemcp proxy --url https://mcp.example.com/mcp --bearer-env UPSTREAM_TOKEN --jwt-issuer https://id.example.com\n\n' +
        'The upstream command is restarted with backoff when it exits; its tools are withdrawn meanwhile.\n' +
        'GET /readyz answers 503 until the upstream is connected, while it is down, and during a drain.\n' +
        'SIGINT or SIGTERM drains (in-flight calls go on, new sessions are refused), closes, then exits; a second signal exits at once.',
    )
    .action(async (command: string[], flags: Flags & { allowedHost?: string[]; allowedOrigin?: string[] }) => {
      const proxy = await runProxy({ ...flags, allowedHosts: flags.allowedHost, allowedOrigins: flags.allowedOrigin, command, cwd: process.cwd() });
      const where = proxy.listener ? `Streamable HTTP at ${proxy.listener.url}` : 'stdio';
      process.stderr.write(`typemcp proxy: serving ${proxy.mount.upstreamInfo?.name ?? 'the upstream'} (${proxy.mount.era}) on ${where}\n`);
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
        stopping = true;
        // Past the drain and the grace (and a margin for the upstream to end), exit anyway.
        setTimeout(() => process.exit(1), (flags.drainMs ?? 5000) + (flags.graceMs ?? 5000) + 10_000).unref();
        void proxy.shutdown().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      done.code = 0;
    });
}
