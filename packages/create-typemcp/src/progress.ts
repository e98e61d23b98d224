/** A spinner on a terminal (@clack/prompts), plain progress lines elsewhere (CI logs, pipes). */
import type { Writable } from 'node:stream';

/** Where messages go, and whether it is a terminal (then a spinner runs during slow steps). */
export interface Output {
  stream: Writable;
  isTTY: boolean;
}

/** The process's stdout. */
export function stdoutOutput(): Output {
  return { stream: process.stdout, isTTY: Boolean(process.stdout.isTTY) };
}

/**
 * Runs a slow step with a spinner, or between a "…" line and a "done" line. `task` resolves with
 * its result and the message to end on.
 */
export async function withProgress<T>(out: Output, message: string, task: () => Promise<{ value: T; done: string }>): Promise<T> {
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  if (!out.isTTY) {
    out.stream.write(`${message}...\n`);
    const { value, done } = await task();
    out.stream.write(`${done} (${seconds()})\n`);
    return value;
  }
  const { spinner } = await import('@clack/prompts');
  const spin = spinner({ output: out.stream });
  spin.start(message);
  try {
    const { value, done } = await task();
    spin.stop(`${done} (${seconds()})`);
    return value;
  } catch (error) {
    spin.error(`${message}: failed`);
    throw error;
  }
}
