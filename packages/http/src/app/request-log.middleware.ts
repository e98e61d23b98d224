/**
 * The request log (`log`): one record per HTTP request, written when the response closes. Without
 * a logger, a JSON line on stderr; with one, an `info` record with a request id, the session id
 * and the principal's id. Never the query string (it may carry a session id or a token), a
 * header's value other than the session id, or the body.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { principalId, type StructuredLogger } from '@typemcp/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const pathOf = (req: Request): string => {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

const msSince = (started: bigint): number => Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;

/** The request log middleware: to `logger` (with the principals `admit` recorded), or to stderr. */
export function requestLog(logger: StructuredLogger | undefined, principals: WeakMap<IncomingMessage, unknown> | undefined): RequestHandler {
  return logger ? toLogger(logger, principals) : toStderr(principals);
}

const toStderr =
  (principals: WeakMap<IncomingMessage, unknown> | undefined) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const session = req.headers['mcp-session-id'] ?? (typeof req.query.sessionId === 'string' ? req.query.sessionId : undefined);
      const line: Record<string, unknown> = {
        time: new Date().toISOString(),
        msg: 'http request',
        method: req.method,
        path: pathOf(req),
        status: res.statusCode,
        ms: msSince(started),
      };
      if (session !== undefined) line.session = session;
      // Who (the token's subject or client), never the token.
      const principal = principalId(principals?.get(req));
      if (principal !== undefined) line.principal = principal;
      if (!res.writableFinished) line.aborted = true;
      process.stderr.write(`${JSON.stringify(line)}\n`);
    });
    next();
  };

function toLogger(logger: StructuredLogger, principals: WeakMap<IncomingMessage, unknown> | undefined): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const reqId = randomUUID();
    res.once('close', () => {
      // A new session's id is only in the response (initialize); the SSE transport's in the query.
      const session =
        req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id') ?? (typeof req.query.sessionId === 'string' ? req.query.sessionId : undefined);
      const fields: Record<string, unknown> = { reqId, method: req.method, path: pathOf(req), status: res.statusCode, ms: msSince(started) };
      if (session !== undefined) fields.sessionId = session;
      const principal = principalId(principals?.get(req));
      if (principal !== undefined) fields.principalId = principal;
      if (!res.writableFinished) fields.aborted = true;
      try {
        logger.info(fields, 'http request');
      } catch {
        // A failing logger must not break the response that already closed.
      }
    });
    next();
  };
}
