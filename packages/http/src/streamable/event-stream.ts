/**
 * One logical SSE stream of a Streamable HTTP session: the stream of a POST (its requests'
 * progress, logs, server->client requests, then their responses) or the standalone GET stream.
 * A stream outlives its connection: the client (or the server, SEP-1699) may drop the connection
 * and resume the stream with `Last-Event-ID`.
 */
import type { SseConnection } from '../sse/sse-connection.js';

export class EventStream {
  /** Unique within the session (and beyond); event ids are `<id>:<seq>`. */
  readonly id: string;
  /** The number of the last event sent on this stream. */
  seq = 0;
  /** The response currently carrying the stream, if any. */
  connection?: SseConnection;
  /** Requests of this stream still waiting for their response (0 for the standalone stream). */
  pending = 0;
  /** True once a priming event gave the client an id to resume from. */
  primed = false;
  /** True once every response was sent (a request stream then ends). */
  finished = false;
  /** While a resume replays stored events, live events wait here (in order). */
  held?: { seq: number; message: string }[];
  /**
   * Events of a request stream sent on its open connection and not written to the event store
   * (yet): a stream delivered in full while its client is connected never touches the store.
   */
  unsaved?: { seq: number; message: string }[];
  /** True once the stream's events go to the event store as they are sent (its connection closed first, or it ran long). */
  stored = false;
  /** When the stream was opened (ms since the epoch). */
  readonly openedAt = Date.now();
  /** Runs once when the stream finishes. */
  onFinish?: () => void;

  /** `prefix` 'g': the standalone GET stream (recognisable in an event id by any instance). */
  constructor(prefix = '') {
    this.id = prefix + crypto.randomUUID();
  }

  /** True for the id of a standalone stream. */
  static isStandaloneId(id: string): boolean {
    return id.startsWith('g');
  }

  /** The event id of event `seq` (default: the last one sent). */
  eventId(seq = this.seq): string {
    return `${this.id}:${seq}`;
  }
}

/** Splits `<streamId>:<seq>`; undefined when malformed. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const seq = Number(eventId.slice(colon + 1));
  if (!Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { streamId: eventId.slice(0, colon), seq };
}
