import type { McpHttpResponse } from '../exchange/http-exchange.js';

/**
 * What both HTTP session kinds share for idle eviction: when the session was last active, and
 * how many of its HTTP requests are still open.
 */
export abstract class TrackedSession {
  lastActiveAt = Date.now();
  protected activeRequests = 0;

  /** Counts an HTTP request on this session until its response closes. */
  track(res: McpHttpResponse): void {
    this.activeRequests++;
    this.lastActiveAt = Date.now();
    res.once('close', () => {
      this.activeRequests--;
      this.lastActiveAt = Date.now();
    });
  }
}
