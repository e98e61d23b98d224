/** The options of `serveStdio()`, apart from the transport so that their checks need not import it. */
import type { Readable, Writable } from 'node:stream';

/** @publicApi */
export interface StdioOptions {
  /** Defaults to `process.stdin`. */
  input?: Readable;
  /** Defaults to `process.stdout`. */
  output?: Writable;
  /** Largest accepted message in bytes: an integer >= 1 (default 16 MiB). */
  maxMessageBytes?: number;
  /** How long in-flight requests may run after stdin closes or a signal arrives, in ms (default 5 000). */
  graceMs?: number;
  /** Handle SIGTERM and SIGINT like the end of stdin (default true when using process streams). */
  handleSignals?: boolean;
  /**
   * Print one line on stderr once listening: name, version, transport, revisions and what to do
   * next (default true when using process streams; `false` keeps stderr silent).
   */
  banner?: boolean;
  /**
   * How long a response waits after a progress notification of its request, so that the
   * official SDK clients read them apart and do not drop the progress (default
   * {@link PROGRESS_GAP_MS}; 0 writes them together). Responses without progress never wait.
   */
  progressGapMs?: number;
}
