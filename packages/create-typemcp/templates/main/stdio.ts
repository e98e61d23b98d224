#!/usr/bin/env node
/**
 * Entry point: `node dist/main.js` serves MCP over stdio. MCP clients start this command and
 * talk to it through stdin and stdout (see README.md for their configuration). Its settings come
 * from the environment and `.env` (src/config.ts).
 */
// First: the modules loaded after it are compiled once, then read from Node's compile cache.
import './compile-cache.js';
import { ConfigurationError, loadConfig } from '@typemcp/core';
import { AppConfig } from './config.js';
import { createLogger } from './logger.js';
import { createAppServer } from './server.js';

async function main(): Promise<void> {
  const config = await loadConfig(AppConfig);
  // Start hooks (onInit) run before the first request; a failing one stops start-up here.
  const connection = await createAppServer({ config, logger: createLogger(config) }).listen({ transport: 'stdio' });
  // listen() prints one line on stderr (stdout belongs to the protocol); `banner: false` silences it.
  // Resolves when stdin ends or on SIGTERM/SIGINT, once in-flight requests are answered and the
  // stop hooks (onDestroy) ran. Exit explicitly: after a signal, the still-open stdin would keep
  // the process alive.
  await connection.closed;
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigurationError ? error.message : error);
  process.exit(1);
});
