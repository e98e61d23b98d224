#!/usr/bin/env node
/**
 * Entry point. `node dist/main.js` serves MCP over stdio (MCP clients start this command and talk
 * through stdin and stdout); `node dist/main.js --transport http` serves Streamable HTTP at
 * http://127.0.0.1:3000/mcp instead. MCP_TRANSPORT, PORT and HOST set the same from the environment.
 */
import { parseArgs } from 'node:util';
import { createAppServer } from './server.js';

async function serveStdio(): Promise<void> {
  const connection = await createAppServer().listen({ transport: 'stdio' });
  // listen() prints one line on stderr (stdout belongs to the protocol); `banner: false` silences it.
  // Resolves when stdin ends or on SIGTERM/SIGINT, once in-flight requests are answered. Exit
  // explicitly: after a signal, the still-open stdin would keep the process alive.
  await connection.closed;
  process.exit(0);
}

async function serveHttp(port: number, host: string): Promise<void> {
  const listener = await createAppServer().listen({ transport: 'http', port, host });
  process.stderr.write(`{{name}}: serving MCP over Streamable HTTP at ${listener.url}\n`);
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transport: { type: 'string', default: process.env.MCP_TRANSPORT ?? 'stdio' },
      port: { type: 'string', default: process.env.PORT ?? '3000' },
      host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
    },
  });
  if (values.transport === 'stdio') return serveStdio();
  if (values.transport !== 'http') throw new Error(`--transport must be "stdio" or "http", not "${values.transport}"`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, not "${values.port}"`);
  return serveHttp(port, values.host);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
