/** Command-line flags of create-typemcp (commander). */
import { Command, CommanderError, Option } from 'commander';
import { AUTHS, TEMPLATES, TRANSPORTS, type Auth, type Template, type Transport } from './options.js';

/** The flags as given: anything absent is asked for (or defaulted with `--yes` or without a terminal). */
export interface Flags {
  directory?: string;
  name?: string;
  transport?: Transport;
  template?: Template;
  auth?: Auth;
  install?: boolean;
  git?: boolean;
  from?: string;
  redis?: boolean;
  /** Accept the default answer to every question not answered by a flag. */
  yes: boolean;
}

/** What {@link parseFlags} found: flags to act on, or text to print and an exit code (`--help`, `--version`, a bad flag). */
export type ParsedArgs = { kind: 'run'; flags: Flags } | { kind: 'exit'; code: number; output: string };

/** The commander program of create-typemcp (exposed for its help text). */
export function createProgram(version: string): Command {
  return new Command('create-typemcp')
    .description('Create a TypeMCP server project: a service with DTOs, tests, and scripts to develop, build and run it.')
    .argument('[directory]', 'where to create the project (also its package and server name)')
    .addOption(new Option('--transport <transport>', 'how clients connect: stdio, http, or both (stdio unless --transport http)').choices(TRANSPORTS))
    .addOption(new Option('--auth <auth>', 'protect the HTTP server: none, or proxy (an OAuth proxy in front of your identity provider)').choices(AUTHS))
    .addOption(
      new Option(
        '--template <template>',
        'example (a tool, a resource and a prompt), blank (one tool) or app (an MCP App: a tool with an interactive view)',
      ).choices(TEMPLATES),
    )
    .option('--name <name>', 'package and server name (default: the directory name)')
    .option('--install', 'run npm install (default)')
    .option('--no-install', 'do not run npm install')
    .option('--git', 'initialise a git repository with a first commit (default)')
    .option('--no-git', 'do not initialise a git repository')
    .option('--redis', 'run several instances on Redis shared state (HTTP only): REDIS_URL, and a compose.yaml with three instances and Redis')
    .option('--from <checkout>', 'use the @typemcp/* packages of a local, built TypeMCP checkout (packed into vendor/)')
    .option('-y, --yes', 'use the default for everything not given as a flag; never ask', false)
    .version(version, '-v, --version')
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      '\nWithout a terminal (CI, pipes), nothing is asked: missing answers take their defaults\n' +
        '(my-mcp-server, --transport stdio, --template example, --auth none, --install, --git).\n\n' +
        'Examples:\n  npm create typemcp@latest my-server\n  npx create-typemcp my-server --transport http --template blank --no-git --yes',
    );
}

/** Parses `argv` (without the node and script paths). Never exits the process. */
export function parseFlags(argv: string[], version: string): ParsedArgs {
  let output = '';
  const program = createProgram(version)
    .exitOverride()
    .configureOutput({ writeOut: (s) => (output += s), writeErr: (s) => (output += s) });
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return { kind: 'exit', code: error.exitCode, output };
    throw error;
  }
  const o = program.opts<Omit<Flags, 'directory'>>();
  const flags: Flags = { directory: program.args[0], yes: Boolean(o.yes) };
  for (const key of ['name', 'transport', 'template', 'auth', 'install', 'git', 'from', 'redis'] as const) {
    if (o[key] !== undefined) Object.assign(flags, { [key]: o[key] });
  }
  return { kind: 'run', flags };
}
