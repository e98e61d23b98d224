/**
 * DNS-rebinding protection: the `Host` header must name this server and an `Origin` header, when
 * present, must be an allowed one; otherwise 403 with a JSON-RPC error body. An allow-list, not a
 * Host/Origin comparison: under rebinding both carry the attacker's name.
 */
import type { McpHttpRequest } from '../exchange/http-exchange.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';

/** The loopback names accepted by default (any port). */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

/** True for `localhost`, 127.0.0.0/8 and ::1. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** `example.com:8080` -> `example.com`; `[::1]:3000` -> `[::1]`. */
function hostName(hostAndPort: string): string {
  const h = hostAndPort.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export class HostOriginGuard {
  private readonly hostNames?: Set<string>;
  private readonly hostsWithPort?: Set<string>;
  private readonly anyOrigin: boolean;
  private readonly originHosts?: Set<string>;
  private readonly origins?: Set<string>;

  constructor(allowedHosts: readonly string[] | false, allowedOrigins: readonly string[] | false) {
    if (allowedHosts !== false && !allowedHosts.includes('*')) {
      this.hostNames = new Set();
      this.hostsWithPort = new Set();
      for (const entry of allowedHosts) {
        // A bare IPv6 address (`::1`) is written in brackets in a Host header.
        const e =
          entry.includes(':') && entry.indexOf(':') !== entry.lastIndexOf(':') && !entry.startsWith('[') ? `[${entry.toLowerCase()}]` : entry.toLowerCase();
        (hostName(e) === e ? this.hostNames : this.hostsWithPort).add(e);
      }
    }
    this.anyOrigin = allowedOrigins === false || allowedOrigins.includes('*');
    if (!this.anyOrigin) {
      this.originHosts = new Set();
      this.origins = new Set();
      for (const entry of allowedOrigins as readonly string[]) {
        if (entry.includes('://')) this.origins.add(new URL(entry).origin);
        else this.originHosts.add(entry.toLowerCase());
      }
    }
  }

  /** True when `host` (a Host header value) is allowed. */
  allowsHost(host: string | undefined): boolean {
    if (!this.hostNames) return true;
    const h = host?.trim().toLowerCase();
    return !!h && (this.hostNames.has(hostName(h)) || this.hostsWithPort!.has(h));
  }

  /** Throws a 403 HttpTransportError when the request's Host or Origin is not allowed. */
  check(req: McpHttpRequest): void {
    if (this.hostNames) {
      const host = req.headers.host;
      if (!this.allowsHost(host)) {
        throw new HttpTransportError(HttpErrorCode.ForbiddenHost, `Forbidden: Host header ${JSON.stringify(host ?? '')} is not allowed`);
      }
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.anyOrigin && !this.originAllowed(origin)) {
      throw new HttpTransportError(HttpErrorCode.ForbiddenOrigin, `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`);
    }
  }

  /** True when `origin` (an Origin header value) is allowed. */
  allowsOrigin(origin: string): boolean {
    return this.anyOrigin || this.originAllowed(origin);
  }

  private originAllowed(origin: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // includes the opaque origin "null"
    }
    return this.origins!.has(url.origin) || this.originHosts!.has(url.hostname.toLowerCase());
  }
}
