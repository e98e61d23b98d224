#!/usr/bin/env node
/**
 * Entry point. `node dist/main.js` serves MCP over stdio (MCP clients start this command and talk
 * through stdin and stdout); `node dist/main.js --transport http` serves Streamable HTTP at
 * http://127.0.0.1:3000/mcp instead, with liveness at /livez and readiness at /readyz. Settings
 * come from the environment and `.env` (src/config.ts): MCP_TRANSPORT, PORT, HOST, ALLOWED_HOSTS...
 */
// First: the modules loaded after it are compiled once, then read from Node's compile cache.
import './compile-cache.js';
import { parseArgs } from 'node:util';
import { ConfigurationError, loadConfig } from '@typemcp/core';
import { AppConfig } from './config.js';
import { createLogger } from './logger.js';
import { createAppServer, httpOptions } from './server.js';

async function main(): Promise<void> {
  const config = await loadConfig(AppConfig);
  const { values } = parseArgs({ options: { transport: { type: 'string', default: config.mcpTransport } } });
  // Start hooks (onInit) run before the first request; a failing one stops start-up here.
  const server = createAppServer({ config, logger: createLogger(config) });
  if (values.transport === 'stdio') {
    const connection = await server.listen({ transport: 'stdio' });
    // Resolves when stdin ends or on SIGTERM/SIGINT, once in-flight requests are answered and
    // the stop hooks ran. Exit explicitly: after a signal, the still-open stdin keeps the process alive.
    await connection.closed;
    process.exit(0);
  }
  if (values.transport !== 'http') throw new Error(`--transport must be "stdio" or "http", not "${values.transport}"`);
  const listener = await server.listen(httpOptions(config));
  process.stderr.write(`{{name}}: serving MCP over Streamable HTTP at ${listener.url}\n`);
  // SIGTERM/SIGINT: /readyz turns 503, the server drains for DRAIN_MS, closes, runs the stop hooks and exits 0.
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigurationError ? error.message : error);
  process.exit(1);
});
