/** Builds the server: main.ts serves it, and the tests build it the same way. */
import { createServer, type StructuredLogger, type TypeMcpServer } from '@typemcp/core';
// [http]
import type { HttpListenOptions } from '@typemcp/core';
import type {} from '@typemcp/http';
// [/http]
// [redis]
import { redisState } from '@typemcp/redis';
// [/redis]
import { AppConfig } from './config.js';
import { services } from './services/index.js';

/**
 * The {{name}} MCP server, ready to `listen()`. `config` (default: every default of AppConfig) is
 * injectable into any service; `logger` is where the framework logs (main.ts passes one built
 * from LOG_LEVEL and LOG_FORMAT).
 */
export function createAppServer(config: AppConfig = new AppConfig(), logger?: StructuredLogger): TypeMcpServer {
  return createServer({ name: '{{name}}', version: '0.1.0', services, logger, providers: [{ provide: AppConfig, useValue: config }] });
}
// [http]

/** How main.ts serves HTTP, from the configuration (SIGTERM drains for DRAIN_MS, then stops). */
export function httpOptions(config: AppConfig): HttpListenOptions {
  return {
    transport: 'http',
    port: config.port,
    host: config.host,
    allowedHosts: config.allowedHosts,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    log: config.requestLog,
    drainMs: config.drainMs,
    // [redis]
    state: config.redisUrl ? redisState({ url: config.redisUrl, prefix: '{{name}}' }) : undefined,
    // [/redis]
  };
}
// [/http]
