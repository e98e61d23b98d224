/**
 * Which downstream clients want updates of which of a mount's URIs (a 2025 session's
 * `resources/subscribe`, a 2026-07-28 `subscriptions/listen` stream), so the upstream is asked
 * for each URI while someone wants it, and again after a reconnection. Sessions that closed
 * without unsubscribing are dropped when the next subscription comes.
 */
import type { TypeMcpServer } from '@typemcp/core';
import type { UpstreamLink } from '../upstream/upstream-link.js';

/** The most URIs of one mount subscribed upstream at once. */
const MAX_URIS = 10_000;

interface Wanted {
  readonly upstream: string;
  readonly holders: Set<object>;
}

/** The subscriptions of one mount. */
export class Subscriptions {
  private readonly wanted = new Map<string, Wanted>();

  constructor(
    private readonly server: TypeMcpServer,
    private readonly link: () => UpstreamLink | undefined,
  ) {}

  /** `holder` (a session or a listen request) wants updates of `uri` (exposed), `upstream` being the upstream's URI. */
  add(holder: object, uri: string, upstream: string): void {
    this.prune();
    let entry = this.wanted.get(uri);
    if (!entry) {
      if (this.wanted.size >= MAX_URIS) return;
      entry = { upstream, holders: new Set() };
      this.wanted.set(uri, entry);
      void this.link()
        ?.subscribe(upstream)
        .catch(() => undefined);
    }
    entry.holders.add(holder);
  }

  remove(holder: object, uri: string): void {
    const entry = this.wanted.get(uri);
    if (!entry?.holders.delete(holder) || entry.holders.size > 0) return;
    this.wanted.delete(uri);
    void this.link()
      ?.unsubscribe(entry.upstream)
      .catch(() => undefined);
  }

  /** The upstream says `uri` (exposed) changed: tell the clients subscribed to it. */
  updated(uri: string): void {
    this.server.notifyResourceUpdated(uri);
  }

  /** Asks a new connection for every URI still wanted. */
  resubscribe(): void {
    const link = this.link();
    for (const entry of this.wanted.values()) void link?.subscribe(entry.upstream).catch(() => undefined);
  }

  private prune(): void {
    const open = this.server.engine.openSessions as ReadonlySet<object>;
    for (const [uri, entry] of this.wanted) {
      for (const holder of entry.holders) if ('isSubscribed' in holder && !open.has(holder)) this.remove(holder, uri);
    }
  }
}
