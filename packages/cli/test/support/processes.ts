/** Processes the dev tests start and watch: their trees, their exits, what they printed. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The processes under `pid`, children first (Linux `ps`). */
export function descendants(pid: number): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return out
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => [Number(l), ...descendants(Number(l))]);
}

/** Whether a process still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `probe` every 50 ms until it returns something, or rejects after `ms`. */
export async function until<T>(what: string, probe: () => T | undefined | false, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves with the exit code (or signal) of `child`, or rejects after `ms`. */
export function exitOf(child: ChildProcess, ms = 5000): Promise<number | string> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode ?? child.signalCode!);
    const timer = setTimeout(() => reject(new Error(`pid ${child.pid} still running after ${ms} ms`)), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal!);
    });
  });
}

/** Starts `command` in the project with piped stdio; `stderr()` is what it printed so far. */
export function launch(dir: string, command: string, args: string[], env?: NodeJS.ProcessEnv): { child: ChildProcess; stderr: () => string } {
  const child = spawn(command, args, { cwd: dir, stdio: 'pipe', env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  return { child, stderr: () => stderr };
}

/** The text blocks of a tool result, joined. */
export const text = (result: unknown) => (result as CallToolResult).content.map((b) => (b.type === 'text' ? b.text : '')).join('');
