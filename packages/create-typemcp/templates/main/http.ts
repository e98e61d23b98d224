#!/usr/bin/env node
/**
 * Entry point: `node dist/main.js` serves MCP over Streamable HTTP at http://127.0.0.1:3000/mcp,
 * with liveness at /livez and readiness at /readyz. Its settings come from the environment and
 * `.env` (src/config.ts): PORT, HOST, ALLOWED_HOSTS, PUBLIC_URL, LOG_LEVEL, REQUEST_LOG...
 */
// First: the modules loaded after it are compiled once, then read from Node's compile cache.
import './compile-cache.js';
import { ConfigurationError, loadConfig } from '@typemcp/core';
import { AppConfig } from './config.js';
import { createLogger } from './logger.js';
import { createAppServer, httpOptions } from './server.js';

async function main(): Promise<void> {
  const config = await loadConfig(AppConfig);
  // Start hooks (onInit) run before it listens; a failing one stops start-up here.
  const listener = await createAppServer({ config, logger: createLogger(config) }).listen(httpOptions(config));
  process.stderr.write(`{{name}}: serving MCP over Streamable HTTP at ${listener.url}\n`);
  // SIGTERM/SIGINT: /readyz turns 503, the server drains for DRAIN_MS (new sessions are refused,
  // requests in flight finish), closes, runs the stop hooks (onDestroy) and exits 0.
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigurationError ? error.message : error);
  process.exit(1);
});
