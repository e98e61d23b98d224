/** Lua scripts run by their SHA1, so the hot path sends a hash rather than the script. */
import { createHash } from 'node:crypto';
import type { createClient } from 'redis';

/** A Lua script run by its SHA1 (EVALSHA), loaded again when Redis does not have it (NOSCRIPT). */
export class Script {
  private readonly sha: string;
  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(c: ReturnType<typeof createClient>, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    try {
      return await c.sendCommand(['EVALSHA', this.sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return c.sendCommand(['EVAL', this.source, String(keys.length), ...keys, ...args]);
    }
  }
}
