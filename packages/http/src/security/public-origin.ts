/**
 * The origin (and path prefix) this server's own URLs are built on: protected resource metadata,
 * `resource_metadata` in `WWW-Authenticate`, the token audience, the legacy SSE endpoint. Behind a
 * TLS-terminating reverse proxy the `Host` a request carries is not the public one, so it comes
 * from the `publicUrl` option, or from `X-Forwarded-Proto` / `X-Forwarded-Host` when `trustProxy`
 * says the proxy sets them (a forwarded host must pass the Host allow-list); never from an
 * untrusted header.
 */
import type { McpHttpRequest } from '../exchange/http-exchange.js';
import type { HostOriginGuard } from './host-origin.guard.js';

const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/;

/** The first value of a (possibly repeated, comma-separated) forwarded header. */
function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

export class PublicOrigin {
  /** `publicUrl` without a trailing slash, when given. */
  private readonly fixed?: string;
  /** The path of `publicUrl` without a trailing slash. */
  private readonly prefix?: string;

  constructor(
    publicUrl: string | undefined,
    private readonly trustProxy: boolean,
    private readonly guard: HostOriginGuard,
  ) {
    if (publicUrl !== undefined) {
      const url = new URL(publicUrl);
      this.prefix = url.pathname.replace(/\/+$/, '');
      this.fixed = `${url.origin}${this.prefix}`;
    }
  }

  /** The path where the MCP routes are mounted, as clients see it: `publicUrl`'s path, else the express mount path. */
  prefixOf(req: McpHttpRequest & { baseUrl?: string }): string {
    return this.prefix ?? req.baseUrl ?? '';
  }

  /** Where the MCP routes are reached from outside, e.g. `https://mcp.example.com`; undefined when the request's Host is not a plain host[:port]. */
  of(req: McpHttpRequest & { baseUrl?: string; protocol?: string }): string | undefined {
    if (this.fixed !== undefined) return this.fixed;
    let proto = req.protocol ?? 'http';
    let host = req.headers.host;
    if (this.trustProxy) {
      const forwardedProto = first(req.headers['x-forwarded-proto'])?.toLowerCase();
      if (forwardedProto === 'https' || forwardedProto === 'http') proto = forwardedProto;
      const forwardedHost = first(req.headers['x-forwarded-host']);
      if (forwardedHost !== undefined && PLAIN_HOST.test(forwardedHost) && this.guard.allowsHost(forwardedHost)) host = forwardedHost;
    }
    return host && PLAIN_HOST.test(host) ? `${proto}://${host}${req.baseUrl ?? ''}` : undefined;
  }
}
