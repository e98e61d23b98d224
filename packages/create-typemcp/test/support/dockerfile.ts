/**
 * A small interpreter for the Dockerfiles the generator writes, for a machine without a container
 * daemon: each stage gets a scratch folder standing for its filesystem root; FROM, WORKDIR, ENV,
 * COPY (from the build context, minus .dockerignore, or `--from=<stage>`), RUN (`sh -c`, as root
 * like Docker before any USER), USER, EXPOSE, HEALTHCHECK and CMD are applied as written. Any
 * other instruction, or a form of these it does not know, fails: the test then says what is not
 * covered. What it cannot check: the base image's own contents (its Node.js is this machine's).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface Instruction {
  readonly op: string;
  readonly args: string;
  readonly line: number;
}

export interface Stage {
  readonly image: string;
  readonly name?: string;
  readonly root: string;
  workdir: string;
  env: Record<string, string>;
  user: string;
  exposed: string[];
  healthcheck?: { options: Record<string, string>; command: string[] };
  cmd?: string[];
}

/** The instructions of a Dockerfile: comments and blank lines dropped, `\` continuations joined. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (!pending) start = i + 1;
    pending += line.endsWith('\\') ? `${line.slice(0, -1)} ` : line;
    if (line.endsWith('\\')) return;
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(pending)!;
    instructions.push({ op: op.toUpperCase(), args, line: start });
    pending = '';
  });
  return instructions;
}

/** The .dockerignore patterns of `context` as a test on a path relative to it (patterns without `**`, matched on any prefix). */
export function dockerignore(context: string): (relative: string) => boolean {
  const file = path.join(context, '.dockerignore');
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  const patterns = lines.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]')}(/|$)`,
      ),
  );
  return (relative) => regexes.some((r) => r.test(relative.split(path.sep).join('/')));
}

/**
 * What a RUN step gets from this machine: PATH, HOME (npm's cache and settings), and its network
 * settings (proxies, as Docker's predefined build arguments pass them, and the CA bundle the
 * registry needs here); nothing else of the test's environment (jest's NODE_ENV=test, for one).
 */
function machineEnv(): Record<string, string> {
  const kept = Object.entries(process.env).filter(([name]) => /^(PATH|HOME|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$|_proxy$/i.test(name));
  return Object.fromEntries(kept) as Record<string, string>;
}

function run(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...machineEnv(), npm_config_prefer_offline: 'true', ...env } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`RUN ${command} exited ${code}:\n${output}`))));
  });
}

const jsonArray = (args: string, what: string): string[] => {
  const parsed = JSON.parse(args) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`${what} must be in exec form (a JSON array): ${args}`);
  return parsed as string[];
};

/** Builds every stage of `dockerfile` in `scratch` with `context` as build context; resolves with the stages, the last one being the image. */
export async function buildDockerfile(dockerfile: string, context: string, scratch: string): Promise<Stage[]> {
  const stages: Stage[] = [];
  const ignored = dockerignore(context);
  for (const { op, args, line } of parseDockerfile(readFileSync(dockerfile, 'utf8'))) {
    const stage = stages.at(-1);
    if (op !== 'FROM' && !stage) throw new Error(`line ${line}: ${op} before FROM`);
    const inRoot = (s: Stage, p: string) => path.join(s.root, path.posix.resolve(s.workdir, p));
    switch (op) {
      case 'FROM': {
        const [image, as, name] = args.split(/\s+/);
        if (as !== undefined && as.toUpperCase() !== 'AS') throw new Error(`line ${line}: FROM ${args}`);
        const root = path.join(scratch, `stage-${stages.length}`);
        mkdirSync(root, { recursive: true });
        stages.push({ image, name, root, workdir: '/', env: {}, user: 'root', exposed: [] });
        break;
      }
      case 'WORKDIR':
        stage!.workdir = path.posix.resolve(stage!.workdir, args);
        mkdirSync(inRoot(stage!, '.'), { recursive: true });
        break;
      case 'ENV':
        for (const pair of args.split(/\s+/)) {
          const [key, ...value] = pair.split('=');
          if (!value.length) throw new Error(`line ${line}: ENV needs KEY=value pairs: ${args}`);
          stage!.env[key] = value.join('=');
        }
        break;
      case 'COPY': {
        const words = args.split(/\s+/);
        const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
        if (words.some((w) => w.startsWith('--'))) throw new Error(`line ${line}: COPY option not covered: ${args}`);
        const dest = words.pop()!;
        const source = from === undefined ? undefined : stages.find((s) => s.name === from);
        if (from !== undefined && !source) throw new Error(`line ${line}: no stage named ${from}`);
        for (const src of words) {
          const origin = source ? inRoot(source, src) : path.join(context, src);
          if (!source && ignored(src)) throw new Error(`line ${line}: COPY ${src} is excluded by .dockerignore`);
          const target = dest.endsWith('/') || words.length > 1 ? path.join(inRoot(stage!, dest), path.basename(src)) : inRoot(stage!, dest);
          const filter = source ? undefined : (file: string) => !ignored(path.relative(context, file));
          cpSync(origin, target, { recursive: true, filter });
        }
        break;
      }
      case 'RUN':
        if (stage!.user !== 'root') throw new Error(`line ${line}: RUN after USER is not covered`);
        await run(args, inRoot(stage!, '.'), stage!.env);
        break;
      case 'USER':
        stage!.user = args;
        break;
      case 'EXPOSE':
        stage!.exposed.push(...args.split(/\s+/));
        break;
      case 'HEALTHCHECK': {
        const [, flags, command] = /^((?:--\S+\s+)*)CMD\s+(.*)$/.exec(args) ?? [];
        if (command === undefined) throw new Error(`line ${line}: HEALTHCHECK without CMD`);
        const options = Object.fromEntries(
          flags
            .trim()
            .split(/\s+/)
            .filter(Boolean)
            .map((f) => f.slice(2).split('=') as [string, string]),
        );
        stage!.healthcheck = { options, command: jsonArray(command, 'HEALTHCHECK CMD') };
        break;
      }
      case 'CMD':
        stage!.cmd = jsonArray(args, 'CMD');
        break;
      default:
        throw new Error(`line ${line}: ${op} is not covered by this interpreter`);
    }
  }
  return stages;
}
