/**
 * Keeps a response out of the read that carries a progress notification of the same request.
 * The official SDK clients (1.x and 2.x) handle a notification on a microtask but a response at
 * once, and the response retires its progress token: a progress notification that reaches them
 * in the same chunk as its response is handled after the token is gone, and dropped ("unknown
 * token"). So a response that comes less than `gapMs` after a progress notification of its
 * request is held (with everything sent after it, to keep the order) until the gap has passed,
 * giving the client time to read the progress on its own. Without progress nothing is allocated
 * or scheduled: messages go straight through.
 */
import { unref } from '../util/unref.js';
import { PROTOCOL_DEFAULTS } from '../options/defaults.js';
import type { RequestId } from '../jsonrpc/message.js';
import type { SendOptions, Transport } from './transport.interface.js';

/** How every progress notification the engine sends starts (Session.notify serialises it). */
const PROGRESS_PREFIX = '{"jsonrpc":"2.0","method":"notifications/progress"';

/**
 * The default gap (ms) between a progress notification and the response of its request: a
 * client in another process must be scheduled and read in between, which a busy machine delays.
 */
export const PROGRESS_GAP_MS: number = PROTOCOL_DEFAULTS.progressGapMs;

interface Held {
  message: string;
  options?: SendOptions;
}

/** @publicApi */
export class ProgressPacer implements Transport {
  /** When the last progress notification of a request was sent (performance.now()), for the last `gapMs`. */
  private recent?: Map<RequestId, number>;
  private sweeper?: NodeJS.Timeout;
  /** Messages waiting for the gap to pass, in order. */
  private held?: Held[];
  private timer?: NodeJS.Timeout;

  constructor(
    /** Writes one message (the transport's own send). */
    private readonly write: (message: string) => void,
    private readonly gapMs = PROGRESS_GAP_MS,
  ) {}

  /** Sends one message as Transport.send would, holding it while it must wait. */
  send(message: string, options?: SendOptions): void {
    if (this.held) return void this.held.push({ message, options });
    const related = options?.relatedRequestId;
    if (related !== undefined) {
      if (!options!.response) {
        if (message.startsWith(PROGRESS_PREFIX)) this.progressed(related);
      } else if (this.recent !== undefined) {
        const at = this.recent.get(related);
        if (at !== undefined) {
          this.recent.delete(related);
          const wait = at + this.gapMs - performance.now();
          if (wait > 0) return this.hold({ message, options }, wait);
        }
      }
    }
    this.write(message);
  }

  private release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    // Sent again in order: a held progress notification may in turn hold its own response.
    let i = 0;
    while (i < held.length && !this.held) {
      const { message, options } = held[i++];
      this.send(message, options);
    }
    if (i < held.length) this.held!.push(...held.slice(i));
  }

  /** Writes everything held at once and stops pacing (the connection is closing). */
  dispose(): void {
    clearTimeout(this.timer);
    clearTimeout(this.sweeper);
    this.timer = this.sweeper = this.recent = undefined;
    const held = this.held;
    this.held = undefined;
    if (held) for (const h of held) this.write(h.message);
  }

  private progressed(related: RequestId): void {
    (this.recent ??= new Map()).set(related, performance.now());
    this.sweeper ??= unref(setTimeout(() => this.sweep(), this.gapMs));
  }

  /** Forgets progress older than the gap (of requests not answered yet, or never). */
  private sweep(): void {
    this.sweeper = undefined;
    const recent = this.recent;
    if (!recent) return;
    const oldest = performance.now() - this.gapMs;
    for (const [id, at] of recent) if (at <= oldest) recent.delete(id);
    if (recent.size === 0) this.recent = undefined;
    else this.sweeper = unref(setTimeout(() => this.sweep(), this.gapMs));
  }

  private hold(first: Held, waitMs: number): void {
    this.held = [first];
    this.timer = setTimeout(() => this.release(), Math.ceil(waitMs));
  }
}
