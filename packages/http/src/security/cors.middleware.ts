/**
 * CORS for browser-based clients on the MCP routes. Only an Origin the Host/Origin guard allows
 * gets CORS headers (the route's own guard still answers 403 for the others); a preflight
 * (OPTIONS with Access-Control-Request-Method) is answered here, before authentication, since
 * browsers send no credentials on it. `Mcp-Session-Id` is exposed so a browser client can read it.
 */
import type { McpRouteHandler } from '../app/run-chain.js';
import { sendHttpError, type HttpTransportError } from '../errors/http-transport.error.js';
import type { HostOriginGuard } from './host-origin.guard.js';

const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, DPoP, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';
const EXPOSE_HEADERS = 'Mcp-Session-Id, WWW-Authenticate';

/** CORS headers and preflight answers for one route accepting `methods`. */
export function corsFor(guard: HostOriginGuard, methods: string): McpRouteHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || !guard.allowsOrigin(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return next();
    try {
      guard.check(req);
    } catch (error) {
      return sendHttpError(res, error as HttpTransportError);
    }
    res.setHeader('Access-Control-Allow-Methods', methods);
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.writeHead(204).end();
  };
}
