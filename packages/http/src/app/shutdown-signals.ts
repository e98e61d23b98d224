/**
 * SIGTERM/SIGINT for every server serveHttp() started with `handleSignals`: one pair of process
 * listeners for all of them (installed with the first, removed with the last), so many servers
 * in one process add no listener each. The first signal runs every registered shutdown at once,
 * then exits 0, or 1 when one failed or the deadline passed first; a second signal exits at once.
 */
import { writeErrorLine } from '@typemcp/protocol/internal';

interface Registered {
  readonly shutdown: () => Promise<void>;
  readonly deadlineMs: number;
}

const registered = new Set<Registered>();
let signalled: NodeJS.Signals | undefined;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const EXIT_ON_SECOND: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143 };

function onSignal(signal: NodeJS.Signals): void {
  if (signalled) {
    process.stderr.write(`[typemcp/http] ${signal} again: exiting now\n`);
    process.exit(EXIT_ON_SECOND[signal as (typeof SIGNALS)[number]] ?? 1);
  }
  signalled = signal;
  const all = [...registered];
  const deadlineMs = Math.max(...all.map((r) => r.deadlineMs));
  const deadline = setTimeout(() => {
    process.stderr.write(`[typemcp/http] shutdown did not finish within ${deadlineMs} ms: exiting\n`);
    process.exit(1);
  }, deadlineMs);
  void Promise.allSettled(all.map((r) => r.shutdown())).then((results) => {
    clearTimeout(deadline);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) writeErrorLine('[typemcp/http] error in', failed.reason, 'shutdown');
    process.exit(failed ? 1 : 0);
  });
}

/** Registers a server's shutdown for the process's termination signals; returns its removal. */
export function onShutdownSignal(shutdown: () => Promise<void>, deadlineMs: number): () => void {
  const entry: Registered = { shutdown, deadlineMs };
  if (registered.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  registered.add(entry);
  return () => {
    // While signalled the listeners stay: a second signal must still exit at once.
    if (!registered.delete(entry) || registered.size > 0 || signalled) return;
    for (const s of SIGNALS) process.off(s, onSignal);
  };
}
