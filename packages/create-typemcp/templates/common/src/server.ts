/** Builds the server: main.ts serves it, and tests can connect to it in memory. */
import { createServer, type TypeMcpServer } from '@typemcp/core';
import { services } from './services/index.js';

/** The {{name}} MCP server, ready to `listen()`. */
export function createAppServer(): TypeMcpServer {
  return createServer({ name: '{{name}}', version: '0.1.0', services });
}
