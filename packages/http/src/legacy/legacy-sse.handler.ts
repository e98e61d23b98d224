/**
 * The deprecated HTTP+SSE transport of revision 2024-11-05: GET /sse opens the stream and
 * announces `event: endpoint` with the POST URL; POST /messages?sessionId=... feeds the session
 * and answers 202, the replies travel on the stream.
 */
import type { McpHttpRequest, McpHttpResponse } from '../exchange/http-exchange.js';
import { isJsonContentType } from '../body/media-type.js';
import { BodyAbortedError, readJsonBody } from '../body/read-json-body.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { McpHttpHost } from '../app/mcp-http.host.js';
import { LegacySseSession } from './legacy-sse.session.js';

export class LegacySseHandler {
  constructor(
    private readonly host: McpHttpHost,
    /** Path of the POST endpoint, relative to where the app is mounted. */
    private readonly messagesPath: string,
  ) {}

  private async guarded(req: McpHttpRequest, res: McpHttpResponse, work: (principal: unknown) => Promise<void> | void): Promise<void> {
    try {
      await work(await this.host.admit(req));
    } catch (error) {
      if (error instanceof BodyAbortedError) return;
      this.host.refuse(req, res, error, `${req.method} ${req.path}`);
    }
  }

  /** GET /sse */
  readonly open = (req: McpHttpRequest, res: McpHttpResponse): Promise<void> =>
    this.guarded(req, res, (principal) => {
      const id = this.host.newSessionId();
      const session = new LegacySseSession(id, this.host.engine, res, this.host.keepAlive, principal, (s) => this.host.forget(s));
      this.host.register(session);
      session.start(`${this.host.origin.prefixOf(req)}${this.messagesPath}?sessionId=${encodeURIComponent(id)}`);
    });

  /** POST /messages?sessionId=... */
  readonly message = (req: McpHttpRequest, res: McpHttpResponse): Promise<void> =>
    this.guarded(req, res, async (principal) => {
      const id = req.query?.sessionId;
      if (typeof id !== 'string' || id === '') {
        throw new HttpTransportError(HttpErrorCode.SessionRequired, 'Bad request: the sessionId query parameter is required');
      }
      if (!isJsonContentType(req)) {
        throw new HttpTransportError(HttpErrorCode.UnsupportedMediaType, 'Unsupported media type: Content-Type must be application/json');
      }
      const session = this.host.lookup<LegacySseSession>('legacy', id, principal);
      session.track(res);
      const body = await readJsonBody(req, this.host.maxBodyBytes);
      if (this.host.auth) this.host.checkScopes(req, principal, body);
      session.protocolSession.receiveValue(body, req.headers);
      res.writeHead(202, { 'Content-Type': 'text/plain' }).end('Accepted');
    });

  /** Any other method on /sse or /messages. */
  readonly notAllowed =
    (allow: string) =>
    (req: McpHttpRequest, res: McpHttpResponse): void =>
      sendHttpError(res, new HttpTransportError(HttpErrorCode.MethodNotAllowed, `Method not allowed: use ${allow}`, { headers: { Allow: allow } }));
}
