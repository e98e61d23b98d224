/**
 * POST /mcp for revision 2026-07-28: no sessions; every request carries its revision and client
 * capabilities in `_meta` and is checked before anything runs, in the order the transport spec
 * and the conformance suite expect: `_meta` fields (400, -32602), the MCP-Protocol-Version
 * header against `_meta` (400, -32020), the version (400, -32022), the Mcp-Method and Mcp-Name
 * headers against the body (400, -32020), the method (404, -32601).
 */
import { ErrorCode, type JsonObject, type JsonRpcErrorObject, type RequestId } from '@typemcp/protocol';
import { admitModernPost, classifyMessage, headerMismatch, refuseModernBatch } from '@typemcp/protocol/internal';
import type { McpHttpRequest, McpHttpResponse } from '../exchange/http-exchange.js';
import type { McpHttpHost } from '../app/mcp-http.host.js';
import { statusOfError } from '../errors.js';
import { headerOf } from '../request-headers.js';
import { ModernExchange, writeJson } from './modern-exchange.js';
import { checkParamHeaders, decodeHeaderValue } from './param-headers.js';

/** Methods whose target the Mcp-Name header repeats, and the params member it repeats (tasks: SEP-2663 routing headers). */
const NAMED: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

function refuse(res: McpHttpResponse, id: RequestId | null, error: JsonRpcErrorObject): void {
  writeJson(res, statusOfError(error.code, 400), JSON.stringify({ jsonrpc: '2.0', id, error }));
}

/**
 * The Mcp-Method and Mcp-Name headers must repeat the body (values compared exactly after
 * trimming and base64-sentinel decoding, names in any case).
 */
function checkHeaders(req: McpHttpRequest, method: string, params: JsonObject | undefined): void {
  const sentMethod = headerOf(req, 'mcp-method');
  if (sentMethod?.trim() !== method) throw headerMismatch('Mcp-Method', sentMethod, method);
  const key = NAMED[method];
  const target = key ? params?.[key] : undefined;
  if (typeof target !== 'string') return;
  const sentName = headerOf(req, 'mcp-name');
  const name = sentName === undefined ? undefined : decodeHeaderValue(sentName.trim());
  if (name !== target) throw headerMismatch('Mcp-Name', sentName, target);
}

export class ModernPostHandler {
  /** Requests being served right now (closed on shutdown). */
  readonly exchanges = new Set<ModernExchange>();

  constructor(private readonly host: McpHttpHost) {}

  handle(req: McpHttpRequest, res: McpHttpResponse, body: unknown, version: string | undefined, principal: unknown): void {
    if (Array.isArray(body)) return refuse(res, null, refuseModernBatch().error);
    const message = classifyMessage(body);
    if (message.kind === 'invalid') return refuse(res, message.id, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${message.reason}` });
    // Without sessions, a notification or a response has nothing to act on (cancelling is closing the stream).
    if (message.kind !== 'request') return void res.writeHead(202).end();
    const params = (body as { params?: JsonObject }).params;
    const server = this.host.engine;
    const admission = admitModernPost(message.method, params, version, server.methodHandler(message.method) !== undefined, (method) => {
      checkHeaders(req, method, params);
      if (method === 'tools/call' && typeof params?.name === 'string') {
        const tool = server.registry.toolFor(params.name, principal);
        if (tool) checkParamHeaders(req.headers, tool.definition.inputSchema as JsonObject, params.arguments as JsonObject | undefined);
      }
    });
    if (admission.kind === 'refused') return refuse(res, message.id, admission.error);
    if (this.host.auth) this.host.checkScopes(req, principal, body);
    const exchange = new ModernExchange(this.host.engine, res, this.host.keepAlive, principal, (x) => this.exchanges.delete(x));
    this.exchanges.add(exchange);
    exchange.protocolSession.receiveValue(body, req.headers);
  }

  /** Ends every request being served (subscriptions with their result), in-flight ones within `graceMs`. */
  async close(graceMs: number): Promise<void> {
    await Promise.all([...this.exchanges].map((x) => x.close(graceMs)));
  }
}
