/**
 * `typemcp dev`: runs a TypeScript entry point with the SWC require hook and restarts it when a
 * watched file changes. Node's own `--watch` is not used because it prints to stdout, which
 * belongs to the MCP protocol for stdio servers; here every message goes to stderr.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { StdioRelay } from './stdio-relay.js';

/** Options of {@link runDev}. @publicApi */
export interface DevOptions {
  /** The TypeScript entry point, e.g. `src/main.ts`. */
  entry: string;
  /** Arguments for the entry point (e.g. `--transport http`). */
  args: string[];
  /** Folders or files to watch (default: the entry's folder). */
  watch: string[];
  cwd: string;
  /**
   * Relay stdin/stdout through {@link StdioRelay}, so a stdio client survives restarts (default:
   * when stdin is not a terminal, i.e. an MCP client started this command).
   */
  relay?: boolean;
  /** Where progress messages go (default: stderr). */
  log?: (message: string) => void;
}

/** Changes that do not restart the server: dependencies, build output, editors' temporary files. */
const IGNORED = /(^|[\\/])(node_modules|dist|\.git|coverage)([\\/]|$)/;
/** Files whose change restarts the server (a change to a folder itself has no extension and is ignored too). */
const WATCHED_EXTENSIONS = /\.([cm]?[jt]sx?|json)$/;
const DEBOUNCE_MS = 100;
const KILL_AFTER_MS = 3000;

/** The require hook, next to this file once compiled. */
export const REGISTER_PATH = path.join(__dirname, 'register.js');

/** Runs `entry` and restarts it on change until the client leaves or the process is stopped; resolves with the exit code. */
export function runDev(options: DevOptions): Promise<number> {
  const log = options.log ?? ((message: string) => process.stderr.write(`[typemcp dev] ${message}\n`));
  const entry = path.resolve(options.cwd, options.entry);
  if (!existsSync(entry)) {
    log(`${options.entry} not found; give the entry point: typemcp dev <file.ts>`);
    return Promise.resolve(1);
  }
  const useRelay = options.relay ?? !process.stdin.isTTY;
  const watched = (options.watch.length ? options.watch : [path.dirname(options.entry)]).map((p) => path.resolve(options.cwd, p));
  const missing = watched.find((p) => !existsSync(p));
  if (missing) {
    log(`cannot watch ${missing}: not found`);
    return Promise.resolve(1);
  }

  return new Promise((resolve) => {
    let child: ChildProcess | undefined;
    let stopping = false;
    let clientGone = false;
    let timer: NodeJS.Timeout | undefined;
    const watchers: FSWatcher[] = [];

    const finish = (code: number) => {
      stopping = true;
      for (const w of watchers) w.close();
      clearTimeout(timer);
      resolve(code);
    };
    const relay = useRelay
      ? new StdioRelay(process.stdin, process.stdout, (hadClient) => {
          // stdin ending without a message (e.g. </dev/null) is no client leaving: keep running.
          if (!hadClient) return;
          clientGone = true;
          relay?.end();
          if (!child) finish(0);
        })
      : undefined;

    const start = () => {
      const spawned = spawn(process.execPath, ['--enable-source-maps', '--require', REGISTER_PATH, entry, ...options.args], {
        cwd: options.cwd,
        stdio: useRelay ? ['pipe', 'pipe', 'inherit'] : 'inherit',
      });
      child = spawned;
      if (relay) relay.attach({ stdin: spawned.stdin!, stdout: spawned.stdout! });
      spawned.stdin?.on('error', () => undefined); // a server that exits early closes its stdin
      spawned.on('exit', (code, signal) => {
        if (child !== spawned) return;
        child = undefined;
        relay?.detach();
        if (stopping || clientGone) return finish(code ?? (signal ? 1 : 0));
        log(`${path.relative(options.cwd, entry)} exited (${signal ?? `code ${code}`}); waiting for a change to restart`);
      });
    };

    const restart = (changed: string) => {
      log(`${changed} changed: restarting`);
      const old = child;
      if (!old) return start();
      child = undefined;
      relay?.detach();
      const kill = setTimeout(() => old.kill('SIGKILL'), KILL_AFTER_MS);
      old.once('exit', () => {
        clearTimeout(kill);
        if (!stopping) start();
      });
      old.kill('SIGTERM');
    };

    for (const target of watched) {
      watchers.push(
        watch(target, { recursive: statSync(target).isDirectory() }, (_event, file) => {
          const name = file ? path.join(target, file.toString()) : target;
          if (IGNORED.test(name) || (file && !WATCHED_EXTENSIONS.test(name))) return;
          clearTimeout(timer);
          timer = setTimeout(() => restart(path.relative(options.cwd, name) || name), DEBOUNCE_MS);
        }),
      );
    }
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        stopping = true;
        if (child) child.kill(signal);
        else finish(0);
      });
    }
    log(`running ${path.relative(options.cwd, entry)}; watching ${watched.map((w) => path.relative(options.cwd, w) || '.').join(', ')}`);
    start();
  });
}
