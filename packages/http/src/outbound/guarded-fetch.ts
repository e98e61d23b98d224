/**
 * The SSRF-guarded outbound GET, for URLs someone else chose (a client's metadata document, a
 * client's JWKS): the host is resolved here, every address it resolves to must be of an allowed
 * kind (public only, unless the configuration allows more: see address-guard.ts), and the
 * connection goes to the address that was checked (no second lookup a DNS rebinding could
 * answer differently). Redirects are followed up to a limit, each hop checked again. One time
 * limit for the whole exchange, a size cap on the body, never more buffered.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { addressKind, type AddressKind } from './address-guard.js';
import { OutboundError } from './fetch-json.js';

/** The guard's rules for one request. @publicApi */
export interface OutboundGuard {
  /** Kinds of address reachable besides `public` (default none; `['loopback']` for tests). */
  readonly allowAddresses?: readonly AddressKind[];
  /** Whether plain http is allowed (default false: https only). */
  readonly allowHttp?: boolean;
  /** Redirects followed, each hop checked again (default 3; 0: none). */
  readonly maxRedirects?: number;
  /** Extra trusted CA certificates (PEM) for https, e.g. an internal CA. */
  readonly ca?: string | readonly string[];
}

/** The answer of a guarded GET: the final URL, its status, headers and body text. */
export interface GuardedAnswer {
  readonly url: string;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A checked address of `host`, or an OutboundError saying why none may be reached. */
export async function checkedAddress(host: string, guard: OutboundGuard): Promise<{ address: string; family: 4 | 6 }> {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  let addresses: { address: string; family: number }[];
  if (isIP(bare)) {
    addresses = [{ address: bare, family: isIP(bare) }];
  } else {
    try {
      addresses = await dnsLookup(bare, { all: true, verbatim: true });
    } catch {
      throw new OutboundError(`${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new OutboundError(`${host} could not be resolved`);
  const allowed = new Set<AddressKind>(['public', ...(guard.allowAddresses ?? [])]);
  // Every address must pass: a name resolving to one public and one internal address is refused.
  for (const { address } of addresses) {
    const kind = addressKind(address);
    // The address itself is left out: the message may reach a client, and internal addresses are not its business.
    if (!allowed.has(kind)) throw new OutboundError(`${host} resolves to a ${kind} address, which this server does not reach`);
  }
  return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

/** GET `url` under `guard`, within `timeoutMs` and `maxBytes`. */
export async function guardedGet(
  url: string,
  headers: Record<string, string>,
  limits: { timeoutMs: number; maxBytes: number },
  guard: OutboundGuard = {},
): Promise<GuardedAnswer> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const maxRedirects = guard.maxRedirects ?? 3;
  let current = url;
  for (let hop = 0; ; hop++) {
    const target = URL.canParse(current) ? new URL(current) : undefined;
    if (!target || (target.protocol !== 'https:' && !(guard.allowHttp && target.protocol === 'http:'))) {
      throw new OutboundError(guard.allowHttp ? 'the URL is not an http(s) URL' : 'the URL is not an https URL');
    }
    if (target.username || target.password) throw new OutboundError('the URL must not carry credentials');
    const { address, family } = await checkedAddress(target.hostname, guard);
    const answer = await once(target, address, family, headers, limits.maxBytes, deadline, guard);
    if (!REDIRECTS.has(answer.status)) return { url: target.toString(), ...answer };
    const location = answer.headers.location;
    if (hop >= maxRedirects || typeof location !== 'string') {
      throw new OutboundError(
        `${target.host} answered ${answer.status}: ${hop >= maxRedirects ? `more than ${maxRedirects} redirects` : 'a redirect without a location'}`,
      );
    }
    current = new URL(location, target).toString();
  }
}

/** One request to `target`, connected to the checked `address` (TLS still verifies the host name). */
function once(
  target: URL,
  address: string,
  family: 4 | 6,
  headers: Record<string, string>,
  maxBytes: number,
  signal: AbortSignal,
  guard: OutboundGuard,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const host = target.host;
  // Node asks `lookup` for the address unless the host is an IP literal (then it is the checked one).
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new OutboundError(`${host} could not be reached (timed out)`));
    const req = request(
      target,
      {
        method: 'GET',
        headers: { ...headers, 'accept-encoding': 'identity' },
        lookup,
        signal,
        ...(guard.ca !== undefined ? { ca: typeof guard.ca === 'string' ? guard.ca : [...guard.ca] } : {}),
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.resume();
          return resolve({ status, headers: res.headers, text: '' });
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          return reject(new OutboundError(`${host} answered ${status} with more than ${maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            return reject(new OutboundError(`${host} answered ${status} with more than ${maxBytes} bytes`));
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('close', () => {
          if (!res.complete) reject(new OutboundError(`${host} did not send its answer (${signal.aborted ? 'timed out' : 'connection closed'})`));
        });
        res.on('error', () => reject(new OutboundError(`${host} did not send its answer (${signal.aborted ? 'timed out' : 'connection failed'})`)));
      },
    );
    req.on('error', () => reject(new OutboundError(`${host} could not be reached (${signal.aborted ? 'timed out' : 'network or TLS error'})`)));
    req.end();
  });
}

/** A guarded GET whose answer must be a JSON object (any status). */
export async function guardedJson(
  url: string,
  limits: { timeoutMs: number; maxBytes: number },
  guard: OutboundGuard = {},
): Promise<GuardedAnswer & { body: Record<string, unknown> }> {
  const answer = await guardedGet(url, { accept: 'application/json' }, limits, guard);
  const host = new URL(answer.url).host;
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    throw new OutboundError(`${host} answered ${answer.status} without JSON`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new OutboundError(`${host} answered ${answer.status} without a JSON object`);
  return { ...answer, body: json as Record<string, unknown> };
}
