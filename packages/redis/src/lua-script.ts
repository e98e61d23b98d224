/** Lua scripts run by their SHA1, so the hot path sends a hash rather than the script. */
import { createHash } from 'node:crypto';

/** A Lua script run by its SHA1 (EVALSHA), loaded again when Redis (or a Cluster node) does not have it (NOSCRIPT). */
export class Script {
  private readonly sha: string;
  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs it through `send` (one raw command), with its keys and arguments. */
  async run<R>(send: (args: string[]) => Promise<R>, keys: readonly string[], args: readonly string[]): Promise<R> {
    try {
      return await send(['EVALSHA', this.sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return send(['EVAL', this.source, String(keys.length), ...keys, ...args]);
    }
  }
}
