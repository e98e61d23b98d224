/**
 * The one way @typemcp/http asks another server for JSON: the JWKS and metadata of an
 * authorization server, token introspection, the OAuth proxy's upstream. Every such request:
 * - goes to an http(s) URL only, and follows no redirect (a redirect could take the server to an
 *   address nobody configured: a cloud metadata endpoint, an internal service);
 * - has one time limit for the whole exchange, headers and body;
 * - reads the body as a stream and gives up past a size cap, never buffering more;
 * - yields a JSON object, or an {@link OutboundError} whose message names what went wrong and
 *   never carries a token, a secret or the answer's body.
 *
 * These URLs are the operator's own configuration (an IdP on an internal network is fine). A URL
 * someone else chose, such as a client's metadata document, goes through guarded-fetch.ts
 * instead: resolved and checked against private, loopback and link-local addresses, connected to
 * the checked address, a few redirects each checked again.
 */

/** A failed outbound request; its message is safe to report. */
export class OutboundError extends Error {
  override readonly name = 'OutboundError';
}

/** Limits of one outbound request. */
export interface OutboundLimits {
  /** Time limit of the whole exchange, in ms. */
  readonly timeoutMs: number;
  /** Largest body read, in bytes. */
  readonly maxBytes: number;
}

/** A JSON object answer and its HTTP status. */
export interface JsonAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** GET or POST `url` and read a JSON object back within `limits`. */
export async function fetchJsonObject(url: string, init: RequestInit, limits: OutboundLimits): Promise<JsonAnswer> {
  if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : '')) throw new OutboundError('the URL is not an http(s) URL');
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(limits.timeoutMs) });
  } catch (error) {
    throw new OutboundError(`${new URL(url).host} could not be reached (${timedOut(error) ? 'timed out' : 'network error or redirect'})`, { cause: error });
  }
  const text = await readCapped(response, limits.maxBytes).catch((error: unknown) => {
    throw new OutboundError(`${new URL(url).host} did not send its answer (${timedOut(error) ? 'timed out' : 'connection failed'})`, { cause: error });
  });
  if (text === undefined) throw new OutboundError(`${new URL(url).host} answered ${response.status} with more than ${limits.maxBytes} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new OutboundError(`${new URL(url).host} answered ${response.status} without JSON`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new OutboundError(`${new URL(url).host} answered ${response.status} without a JSON object`);
  }
  return { status: response.status, body: json as Record<string, unknown> };
}

const timedOut = (error: unknown): boolean => error instanceof Error && (error.name === 'TimeoutError' || timedOut(error.cause));

/** The body as text, or undefined when it is larger than `max` bytes (then the rest is not read). */
async function readCapped(response: Response, max: number): Promise<string | undefined> {
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
