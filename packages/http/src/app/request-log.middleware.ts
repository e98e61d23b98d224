/** `log: true`: one JSON line per request on stderr, written when the response closes. */
import type { NextFunction, Request, Response } from 'express';
import { requestPrincipals } from '../security/bearer-auth.js';

export function requestLog(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('close', () => {
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const session = req.headers['mcp-session-id'] ?? (typeof req.query.sessionId === 'string' ? req.query.sessionId : undefined);
    const line: Record<string, unknown> = {
      time: new Date().toISOString(),
      msg: 'http request',
      method: req.method,
      // The query string is left out: it may carry a session id or a token.
      path: q === -1 ? url : url.slice(0, q),
      status: res.statusCode,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
    };
    if (session !== undefined) line.session = session;
    // Who (the token's subject or client), never the token.
    const principal = requestPrincipals.get(req);
    if (principal !== undefined) line.principal = principal;
    if (!res.writableFinished) line.aborted = true;
    process.stderr.write(`${JSON.stringify(line)}\n`);
  });
  next();
}
