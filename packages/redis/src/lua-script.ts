/** Lua scripts run by their SHA1, so the hot path sends a hash rather than the script. */
import { createHash } from 'node:crypto';

/**
 * A Lua script, run by its SHA1 (EVALSHA) and sent whole when Redis (or a Cluster node) does not
 * have it (NOSCRIPT). An `ordered` script is always sent whole (EVAL): calls of it that overlap
 * must reach Redis in the order they were made (successive writes of one event stream, one task,
 * one session), and a NOSCRIPT fallback would let a later call's EVALSHA overtake an earlier
 * call's EVAL (right after Redis started, or restarted and forgot its scripts).
 */
export class Script {
  private readonly sha: string;
  private readonly ordered: boolean;
  constructor(
    private readonly source: string,
    options: { ordered?: boolean } = {},
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
    this.ordered = options.ordered === true;
  }

  /** Runs it through `send` (one raw command), with its keys and arguments. */
  async run<R>(send: (args: string[]) => Promise<R>, keys: readonly string[], args: readonly string[]): Promise<R> {
    if (this.ordered) return send(['EVAL', this.source, String(keys.length), ...keys, ...args]);
    try {
      return await send(['EVALSHA', this.sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return send(['EVAL', this.source, String(keys.length), ...keys, ...args]);
    }
  }
}

/** The options of a script whose overlapping calls must reach Redis in order (see Script). */
export const ORDERED = Object.freeze({ ordered: true });
