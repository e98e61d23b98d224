/**
 * Starting the everything app (or a minimal engine) behind createFetchHandler as a real process
 * on 127.0.0.1, one per runtime: Node (through @hono/node-server), Bun and Deno (from the npm
 * packages that ship their binaries) and Cloudflare's workerd (a worker bundled by esbuild from
 * the built JS). Each answers `LISTENING <url>` or, for workerd, once its socket answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Metafile } from 'esbuild';

const ROOT = path.resolve(__dirname, '../../../..');
const APP = path.resolve(__dirname, '../..');
const SERVERS = path.join(__dirname, 'fetch-servers');
const bin = (pkg: string, file: string) => path.join(ROOT, 'node_modules', pkg, file);

/** The runtimes' binaries, from their npm packages (optional dependencies, linux x64). */
export const RUNTIME_BINARIES = {
  bun: bin('@oven/bun-linux-x64', 'bin/bun'),
  deno: bin('@deno/linux-x64-glibc', 'deno'),
  workerd: bin('@cloudflare/workerd-linux-64', 'bin/workerd'),
} as const;

export interface RunningServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  readonly url: string;
  readonly child: ChildProcess;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 3 s; resolves once it exited. */
  stop(): Promise<void>;
}

function watch(child: ChildProcess, ready: (stdout: string) => string | undefined, timeoutMs: number): Promise<RunningServer> {
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no LISTENING line within ${timeoutMs} ms; stdout: ${out}; stderr: ${err}`));
    }, timeoutMs);
    const early = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before listening; stdout: ${out}; stderr: ${err}`));
    };
    child.once('exit', early);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = ready(out);
      if (url === undefined) return;
      clearTimeout(timer);
      child.off('exit', early);
      resolve({ url, child, stderr: () => err, stop });
    });
  });
}

const listening = (out: string): string | undefined => /LISTENING (\S+)/.exec(out)?.[1];

/** `node fetch-servers/node.mjs [hono]`. */
export function startNode(mode: 'plain' | 'hono' = 'plain'): Promise<RunningServer> {
  const child = spawn(process.execPath, [path.join(SERVERS, 'node.mjs'), ...(mode === 'hono' ? ['hono'] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watch(child, listening, 30_000);
}

export function startBun(): Promise<RunningServer> {
  const child = spawn(RUNTIME_BINARIES.bun, [path.join(SERVERS, 'bun.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0' },
  });
  return watch(child, listening, 30_000);
}

export function startDeno(): Promise<RunningServer> {
  const child = spawn(RUNTIME_BINARIES.deno, ['run', '--allow-all', '--quiet', path.join(SERVERS, 'deno.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: path.join(os.tmpdir(), 'typemcp-deno-dir') },
  });
  return watch(child, listening, 60_000);
}

/** A free loopback port (workerd is given a port; it does not pick one). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface WorkerBundle {
  readonly dir: string;
  readonly file: string;
  /** The `node:` modules the bundle refers to, with how (`require-call`: only when the code runs, `import-statement`: at load). */
  readonly nodeImports: readonly { path: string; kind: string; from: string }[];
  /** Extra modules (data files) the worker sees under /bundle, by name. */
  readonly files: Readonly<Record<string, string>>;
}

/**
 * Bundles a worker entry with esbuild for workerd (ES module, the `workerd`/`worker`/`browser`
 * export conditions, so jose picks its web-crypto build). `compat`: the bundle may use the
 * node modules workerd has with nodejs_compat (the everything app's core reads `node:fs`,
 * `node:crypto` seals 2026-07-28 request state), through a `require` made by `node:module`.
 */
export async function bundleWorker(entry: string, compat: boolean, files: Readonly<Record<string, string>> = {}): Promise<WorkerBundle> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by the tests that bundle
  const esbuild = require('esbuild') as typeof import('esbuild');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'typemcp-workerd-'));
  const file = path.join(dir, 'worker.mjs');
  const { builtinModules } = await import('node:module');
  const result = await esbuild.build({
    entryPoints: [path.join(SERVERS, entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    external: compat ? ['node:*', ...builtinModules, 'pnpapi'] : ['node:*'],
    // CommonJS modules of the build read these; in the worker, /bundle is where its modules are.
    define: { __dirname: '"/bundle/dist/services"', __filename: '"/bundle/worker.mjs"' },
    banner: compat
      ? { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire('/bundle/worker.mjs');" }
      : undefined,
    outfile: file,
    metafile: true,
    logLevel: 'error',
    absWorkingDir: ROOT,
  });
  const nodeImports = nodeImportsOf(result.metafile);
  return { dir, file, nodeImports, files };
}

function nodeImportsOf(metafile: Metafile): { path: string; kind: string; from: string }[] {
  const found: { path: string; kind: string; from: string }[] = [];
  for (const [from, input] of Object.entries(metafile.inputs)) {
    for (const imp of input.imports) if (imp.external && imp.path.startsWith('node:')) found.push({ path: imp.path, kind: imp.kind, from });
  }
  return found;
}

/** Every file under `dir`, as worker module names under `prefix`. */
export function filesUnder(dir: string, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, filesUnder(full, `${prefix}/${name}`));
    else out[`${prefix}/${name}`] = full;
  }
  return out;
}

/** Runs a bundle on workerd on a free loopback port, with or without nodejs_compat. */
export async function startWorkerd(bundle: WorkerBundle, compat: boolean): Promise<RunningServer> {
  const port = await freePort();
  const modules = [`(name = "worker.mjs", esModule = embed "worker.mjs")`];
  for (const [name, source] of Object.entries(bundle.files)) {
    const copy = path.join(bundle.dir, 'files', name);
    mkdirSync(path.dirname(copy), { recursive: true });
    copyFileSync(source, copy);
    modules.push(`(name = ${JSON.stringify(name)}, data = embed ${JSON.stringify(`files/${name}`)})`);
  }
  // Before 2026-08-04 nodejs_compat is a flag; from then on the default. Without it: a date before it and no flag.
  const flags = compat ? 'compatibilityDate = "2026-11-01"' : 'compatibilityDate = "2025-09-01"';
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ ${modules.join(', ')} ],
  ${flags},
);
`;
  writeFileSync(path.join(bundle.dir, 'config.capnp'), config);
  const child = spawn(RUNTIME_BINARIES.workerd, ['serve', '--verbose', path.join(bundle.dir, 'config.capnp')], {
    cwd: bundle.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  // workerd prints nothing once it listens: poll /livez.
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    rmSync(bundle.dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode}): ${err}`);
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/livez`);
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`workerd did not answer /livez within 30 s: ${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, stderr: () => err, stop };
}

/** Whether the runtimes' optional packages are installed (linux x64). */
export const hasBinary = (name: keyof typeof RUNTIME_BINARIES): boolean => existsSync(RUNTIME_BINARIES[name]);

export const EVERYTHING_WORKER_FILES = (): Record<string, string> => ({
  ...filesUnder(path.join(APP, 'skills'), 'skills'),
  'dist/apps/counter.html': path.join(APP, 'dist', 'apps', 'counter.html'),
});
