/**
 * Runs test/support/deploy-app.server.ts as a child process (compiled on the fly by
 * ts-child.cjs, on the built packages) and follows it: the `{"event":...}` lines of its stderr,
 * its port over HTTP, its exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export const TS_CHILD = path.join(__dirname, 'ts-child.cjs');
export const DEPLOY_APP = path.join(__dirname, 'deploy-app.server.ts');
/** `node -r ts-child.cjs deploy-app.server.ts`. */
export const DEPLOY_APP_ARGS = ['-r', TS_CHILD, DEPLOY_APP];

/** What a child wrote on stderr: its events, and every line. */
export class ChildLog {
  readonly lines: string[] = [];
  private readonly waiters: { match: (line: string) => boolean; resolve: () => void }[] = [];

  follow(stream: Readable): void {
    createInterface({ input: stream }).on('line', (line) => {
      this.lines.push(line);
      for (const w of this.waiters.filter((w) => w.match(line))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  }

  get events(): string[] {
    return this.lines.flatMap((l) => (l.startsWith('{"event"') ? [(JSON.parse(l) as { event: string }).event] : []));
  }

  /** Resolves once a line with `{"event":"<name>"` is written (at once if it was). */
  event(name: string, timeoutMs = 10_000): Promise<void> {
    const match = (line: string) => line.startsWith(`{"event":"${name}"`);
    if (this.lines.some(match)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${name}" event within ${timeoutMs} ms; stderr:\n${this.lines.join('\n')}`)), timeoutMs);
      this.waiters.push({ match, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

export interface HttpApp {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  readonly log: ChildLog;
  /** Resolves with the exit code (or the signal that ended it). */
  readonly exited: Promise<number | NodeJS.Signals>;
}

/** Starts the app over HTTP with `env` added; resolves once it listens, rejects with its stderr if it exits first. */
export async function startHttpApp(env: Record<string, string>): Promise<HttpApp> {
  const child = spawn(process.execPath, DEPLOY_APP_ARGS, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TRANSPORT: 'http', ...env } });
  const log = new ChildLog();
  log.follow(child.stderr!);
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal!)));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    void exited.then((code) => reject(new Error(`the app exited (${code}) before listening:\n${log.lines.join('\n')}`)));
  });
  return { child, port, url: `http://127.0.0.1:${port}`, log, exited };
}

/** Runs the app until it exits (for start-up failures): its exit code and stderr. */
export function runApp(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, DEPLOY_APP_ARGS, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr, stdout })));
}
