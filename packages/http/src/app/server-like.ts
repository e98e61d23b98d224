/** What the HTTP front ends (serveHttp, createMcpExpressApp, createFetchHandler) serve. */
import type { ProtocolServer } from '@typemcp/protocol';
import type { HealthCheck } from '../health/readiness.js';

/**
 * A ProtocolServer, or anything that has one as `engine` (a TypeMcpServer, whose lifecycle
 * serveHttp() follows: `start()` is awaited before listening, `close()` runs after the HTTP
 * server closed, and `readinessChecks()` are part of `/readyz`). @publicApi
 */
export type McpServerLike =
  | ProtocolServer
  | {
      readonly engine: ProtocolServer;
      start?(): Promise<void>;
      close?(graceMs?: number): Promise<void>;
      readinessChecks?(): readonly HealthCheck[];
    };

/** The engine behind a server-like value. */
export function engineOf(server: McpServerLike): ProtocolServer {
  return 'engine' in server ? server.engine : server;
}
