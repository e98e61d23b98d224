#!/usr/bin/env node
/**
 * Entry point: `node dist/main.js` serves MCP over stdio. MCP clients start this command and
 * talk to it through stdin and stdout (see README.md for their configuration).
 */
import { createAppServer } from './server.js';

async function main(): Promise<void> {
  const connection = await createAppServer().listen({ transport: 'stdio' });
  // listen() prints one line on stderr (stdout belongs to the protocol); `banner: false` silences it.
  // Resolves when stdin ends or on SIGTERM/SIGINT, once in-flight requests are answered. Exit
  // explicitly: after a signal, the still-open stdin would keep the process alive.
  await connection.closed;
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
