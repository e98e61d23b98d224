/**
 * `typemcp dev`: runs a TypeScript entry point with the SWC require hook and restarts it when a
 * watched file changes. Node's own `--watch` is not used because it prints to stdout, which
 * belongs to the MCP protocol for stdio servers; here every message goes to stderr.
 *
 * A server that listens over HTTP gets its ports from `typemcp dev` (http-relay.ts), which keeps
 * them open and its MCP sessions alive across restarts; with `bridge`, a stdio client talks to
 * such a server through them (http-bridge.ts).
 *
 * It ends, ending its server first, on SIGINT, SIGTERM or SIGHUP, when the process that started
 * it exits (e.g. a killed `npm run dev`), and, when it relays stdio, once stdin has ended and the
 * server has exited (a stdio server exits when its input ends; a bridged one is stopped then).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { bridgeCommand, crashLine } from './dev-log.js';
import { httpBridge } from './http-bridge.js';
import { HttpRelay, url } from './http-relay.js';
import { PreviewServer } from './preview-server.js';
import { spawnPreviewServer, spawnServer } from './server-process.js';
import { bundleViews, projectViews } from './dev-views.js';
import { StdioRelay } from './stdio-relay.js';

/** Options of {@link runDev}. @publicApi */
export interface DevOptions {
  /** The TypeScript entry point, e.g. `src/main.ts`. */
  entry: string;
  /** Arguments for the entry point (e.g. `--transport http`). */
  args: string[];
  /** Folders or files to watch (default: the entry's folder, and `skills/` when the project has one). */
  watch: string[];
  cwd: string;
  /**
   * Relay stdin/stdout through {@link StdioRelay}, so a stdio client survives restarts (default:
   * when stdin is not a terminal, i.e. an MCP client started this command).
   */
  relay?: boolean;
  /**
   * Relay a stdio client to the server's Streamable HTTP endpoint (`mcpPath` on the first port
   * it listens on), for a server that serves only HTTP (default false).
   */
  bridge?: boolean;
  /** The endpoint's path for `bridge` (default `/mcp`). */
  mcpPath?: string;
  /**
   * Serve the MCP Apps preview (preview-server.ts; default: when the project has views,
   * `src/**\/*.app.html` or scripts).
   */
  preview?: boolean;
  /** The preview's port on 127.0.0.1 (default 6280, or any free one when it is taken; 0: any free one). */
  previewPort?: number;
  /** Where progress messages go (default: stderr). */
  log?: (message: string) => void;
}

/** Changes that do not restart the server: dependencies, build output, editors' temporary files. */
const IGNORED = /(^|[\\/])(node_modules|dist|\.git|coverage)([\\/]|$)/;
/** Files whose change restarts the server (a change to a folder itself has no extension and is ignored too). */
const WATCHED_EXTENSIONS = /\.([cm]?[jt]sx?|json)$/;
/** In a project with MCP Apps views, their pages and styles too. */
const VIEW_EXTENSIONS = /\.(html|css)$/;
const DEBOUNCE_MS = 100;
const KILL_AFTER_MS = 3000;
/** How often the parent process is checked (an orphan is adopted by another process). */
const PARENT_CHECK_MS = 500;
/** How much of a server's stderr is kept to say why it exited. */
const STDERR_KEPT = 16 * 1024;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The skills folder `typemcp add skill` writes to (watched by default when it exists). */
const SKILLS_DIR = 'skills';

/** Runs `entry` and restarts it on change until it is stopped (see the header); resolves with the exit code. */
export function runDev(options: DevOptions): Promise<number> {
  const log = options.log ?? ((message: string) => process.stderr.write(`[typemcp dev] ${message}\n`));
  const entry = path.resolve(options.cwd, options.entry);
  const shownEntry = path.relative(options.cwd, entry);
  if (!existsSync(entry)) {
    log(`${options.entry} not found; give the entry point: typemcp dev <file.ts>`);
    return Promise.resolve(1);
  }
  const bridge = options.bridge ?? false;
  const useRelay = bridge || (options.relay ?? !process.stdin.isTTY);
  // By default the entry's folder, and the project's skills folder when it has one (a skill edited restarts the server too).
  const defaults = [path.dirname(options.entry), ...(existsSync(path.resolve(options.cwd, SKILLS_DIR)) ? [SKILLS_DIR] : [])];
  const watched = (options.watch.length ? options.watch : defaults).map((p) => path.resolve(options.cwd, p));
  const skillsRoot = path.resolve(options.cwd, SKILLS_DIR);
  const { root, hasViews } = projectViews(entry);
  const isWatched = (name: string) => WATCHED_EXTENSIONS.test(name) || (hasViews && VIEW_EXTENSIONS.test(name));
  const missing = watched.find((p) => !existsSync(p));
  if (missing) {
    log(`cannot watch ${missing}: not found`);
    return Promise.resolve(1);
  }

  return new Promise((resolve) => {
    let child: ChildProcess | undefined;
    let stopping = false;
    let inputEnded = false;
    let timer: NodeJS.Timeout | undefined;
    /** When the current server process started; the file whose change restarted it. */
    let startedAt: number | undefined;
    let changedFile: string | undefined;
    /** Views are being bundled before a start; a change meanwhile starts once more after. */
    let preparing = false;
    let startAgain = false;
    const watchers: FSWatcher[] = [];
    const parent = process.ppid;

    const finish = (code: number) => {
      stopping = true;
      for (const w of watchers) w.close();
      clearTimeout(timer);
      clearInterval(parentCheck);
      for (const signal of SIGNALS) process.off(signal, onSignal);
      relay?.close();
      http.close();
      preview?.close();
      resolve(code);
    };
    /** Ends the server (SIGTERM, SIGKILL after a while), then this command. */
    const stop = (why: string) => {
      if (stopping) return;
      stopping = true;
      log(`${why}: stopping`);
      for (const w of watchers) w.close();
      clearTimeout(timer);
      const running = child;
      if (!running) return finish(0);
      const kill = setTimeout(() => running.kill('SIGKILL'), KILL_AFTER_MS);
      running.once('exit', () => clearTimeout(kill));
      running.kill('SIGTERM');
    };
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    const parentCheck = setInterval(() => {
      if (process.ppid !== parent) stop('the process that started typemcp dev exited');
    }, PARENT_CHECK_MS);

    const relay = useRelay
      ? new StdioRelay(process.stdin, process.stdout, () => {
          // Like the server itself on stdin: a stdio server exits now, and so does this command.
          inputEnded = true;
          relay?.end();
          if (!child) finish(0);
          else if (bridge) stop('the client closed its input');
        })
      : undefined;
    const http = new HttpRelay(log, (listener) => {
      preview?.serverListens();
      if (bridge) relay!.attach(httpBridge(new URL(options.mcpPath ?? '/mcp', url(listener))));
      else if (relay) log(`the server listens over HTTP, not on stdin: a stdio client runs ${bridgeCommand(shownEntry, options.args)}`);
    });

    const preview =
      (options.preview ?? hasViews)
        ? new PreviewServer({
            port: options.previewPort,
            root,
            mcpPath: options.mcpPath ?? '/mcp',
            http,
            spawn: () => spawnPreviewServer(entry, options.args, options.cwd),
            startedAt: () => startedAt,
            log,
          })
        : undefined;
    preview?.listen().then(
      (address) => log(`MCP Apps preview: ${address} (--no-preview turns it off)`),
      (error: Error) => log(`the MCP Apps preview could not listen: ${error.message}`),
    );

    /** Bundles the views (when the project has any), then runs the server. */
    const start = () => {
      if (preparing) return void (startAgain = true);
      preparing = true;
      const bundled = hasViews
        ? bundleViews(root).then(
            (lines) => lines.forEach((line) => log(line)),
            (error: Error) => {
              log(`a view did not bundle (the server serves the last bundle): ${error.message}`);
              preview?.problem(`A view did not bundle: ${error.message}`);
            },
          )
        : Promise.resolve();
      void bundled.then(() => {
        preparing = false;
        if (stopping) return;
        if (startAgain) {
          startAgain = false;
          return start();
        }
        launch();
        if (changedFile) preview?.changed(changedFile);
      });
    };

    const launch = () => {
      startedAt = Date.now();
      const spawned = spawnServer(entry, options.args, options.cwd, bridge ? 'bridge' : useRelay ? 'relay' : 'inherit', http, (c) => c === child);
      child = spawned;
      let stderr = '';
      spawned.stderr?.on('data', (chunk: Buffer) => {
        process.stderr.write(chunk);
        if (stderr.length < STDERR_KEPT) stderr += chunk.toString();
      });
      if (relay && !bridge) relay.attach({ stdin: spawned.stdin!, stdout: spawned.stdout! });
      spawned.stdin?.on('error', () => undefined); // a server that exits early closes its stdin
      if (inputEnded) spawned.stdin?.end();
      spawned.on('close', (code, signal) => {
        if (child !== spawned) return;
        child = undefined;
        startedAt = undefined;
        const status = signal ?? `code ${code}`;
        if (stopping || inputEnded) {
          if (!bridge) relay?.detach();
          return finish(code ?? (signal ? 1 : 0));
        }
        const why = code ? crashLine(stderr) : undefined;
        const reason = `${shownEntry} exited with ${status}${why ? `: ${why}` : ''}`;
        if (!bridge) relay?.down(reason);
        http.down(reason);
        preview?.problem(`The server is not running: ${reason}`);
        log(`${shownEntry} exited (${status}); waiting for a change to restart`);
      });
    };

    const restart = (changed: string) => {
      log(`${changed} changed: restarting`);
      changedFile = changed;
      const old = child;
      http.restarting();
      if (!old) return start();
      child = undefined;
      if (!bridge) relay?.detach();
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
          // Any file of a skill counts (scripts, references, images), but dotfiles: editors' swap files.
          const skill = name.startsWith(skillsRoot + path.sep) && !path.basename(name).startsWith('.');
          if (IGNORED.test(name) || (file && !skill && !isWatched(name))) return;
          clearTimeout(timer);
          timer = setTimeout(() => restart(path.relative(options.cwd, name) || name), DEBOUNCE_MS);
        }),
      );
    }
    for (const signal of SIGNALS) process.on(signal, onSignal);
    log(`running ${shownEntry}; watching ${watched.map((w) => path.relative(options.cwd, w) || '.').join(', ')}`);
    start();
  });
}
