/**
 * Turns flags into complete options: asks for what is missing on a terminal (@clack/prompts),
 * or takes the defaults with `--yes` or without a terminal (CI, pipes).
 */
import { AUTHS, DEFAULTS, TEMPLATES, TRANSPORTS, type Auth, type ProjectOptions, type Template, type Transport } from './options.js';
import type { Flags } from './args.js';
import { invalidPackageName, packageNameFrom } from './names.js';

/** Thrown when the user cancels a question (Ctrl+C). */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled: nothing was created');
  }
}

/** True when questions can be asked: both stdin and stdout are terminals. */
export function canAsk(stdin: { isTTY?: boolean } = process.stdin, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return Boolean(stdin.isTTY && stdout.isTTY);
}

/** Completes flags with defaults, asking nothing. Throws when a given name is invalid. */
export function withDefaults(flags: Flags): ProjectOptions {
  const directory = flags.directory ?? DEFAULTS.directory;
  const name = flags.name ?? packageNameFrom(directory);
  const problem = invalidPackageName(name);
  if (problem) throw new Error(`${problem} (give one with --name)`);
  const transport = flags.transport ?? DEFAULTS.transport;
  const auth = flags.auth ?? DEFAULTS.auth;
  if (auth !== 'none' && transport === 'stdio') throw new Error(`--auth ${auth} protects an HTTP server: add --transport http (or both)`);
  if (flags.redis && transport === 'stdio') throw new Error('--redis shares state between HTTP instances: add --transport http (or both)');
  return {
    directory,
    name,
    transport,
    template: flags.template ?? DEFAULTS.template,
    auth,
    install: flags.install ?? DEFAULTS.install,
    git: flags.git ?? DEFAULTS.git,
    ...(flags.from ? { from: flags.from } : {}),
    ...(flags.redis ? { redis: true } : {}),
  };
}

const TRANSPORT_LABELS: Record<Transport, string> = {
  stdio: 'stdio: the client starts the server (Claude Desktop, VS Code, Cursor...)',
  http: 'Streamable HTTP: you run the server, clients connect to a URL',
  both: 'both: stdio by default, --transport http to switch',
};

const AUTH_LABELS: Record<Auth, string> = {
  none: 'no: anyone who reaches the URL may call it (keep it on 127.0.0.1)',
  proxy: 'OAuth: sign-in through your identity provider (GitHub, Google, Entra, any OpenID provider), with an OAuth proxy',
};

const TEMPLATE_LABELS: Record<Template, string> = {
  example: 'example: a service with a tool, a resource and a prompt, and their tests',
  blank: 'blank: one minimal tool and its test',
  app: 'app: an MCP App (a tool with an interactive view), bundled by the build, and its tests',
};

/** The answer to a question, unless it was cancelled (@clack/prompts answers a symbol then). */
function answer<T>(value: T): Exclude<T, symbol> {
  if (typeof value === 'symbol') throw new CancelledError();
  return value as Exclude<T, symbol>;
}

/** Asks for every answer the flags leave open, on the terminal. */
export async function ask(flags: Flags): Promise<ProjectOptions> {
  const clack = await import('@clack/prompts');
  clack.intro('create-typemcp');
  const directory =
    flags.directory ??
    answer(
      await clack.text({
        message: 'Where should the project go?',
        placeholder: DEFAULTS.directory,
        defaultValue: DEFAULTS.directory,
        validate: (value) => invalidPackageName(packageNameFrom(value || DEFAULTS.directory)),
      }),
    );
  const transport =
    flags.transport ??
    answer(
      await clack.select<Transport>({
        message: 'How will clients connect?',
        initialValue: DEFAULTS.transport,
        options: TRANSPORTS.map((value) => ({ value, label: TRANSPORT_LABELS[value] })),
      }),
    );
  const auth =
    flags.auth ??
    (transport === 'stdio'
      ? 'none'
      : answer(
          await clack.select<Auth>({
            message: 'Protect the HTTP server?',
            initialValue: DEFAULTS.auth,
            options: AUTHS.map((value) => ({ value, label: AUTH_LABELS[value] })),
          }),
        ));
  const template =
    flags.template ??
    answer(
      await clack.select<Template>({
        message: 'Start from',
        initialValue: DEFAULTS.template,
        options: TEMPLATES.map((value) => ({ value, label: TEMPLATE_LABELS[value] })),
      }),
    );
  const install = flags.install ?? answer(await clack.confirm({ message: 'Install dependencies (npm install)?', initialValue: DEFAULTS.install }));
  const git = flags.git ?? answer(await clack.confirm({ message: 'Initialise a git repository?', initialValue: DEFAULTS.git }));
  return withDefaults({ ...flags, directory, transport, template, auth, install, git });
}

/** Options from flags: asked for on a terminal unless `--yes`, defaulted otherwise. */
export function resolveOptions(flags: Flags, interactive: boolean = canAsk()): Promise<ProjectOptions> {
  return interactive && !flags.yes ? ask(flags) : Promise.resolve(withDefaults(flags));
}
