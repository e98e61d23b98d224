#!/usr/bin/env node
/**
 * Entry point: `node dist/main.js` serves MCP over Streamable HTTP at http://127.0.0.1:3000/mcp.
 * `--port <n>` and `--host <address>` (or PORT and HOST in the environment) change where it listens.
 */
import { parseArgs } from 'node:util';
import { createAppServer } from './server.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.PORT ?? '3000' },
      host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, not "${values.port}"`);

  const listener = await createAppServer().listen({ transport: 'http', port, host: values.host });
  process.stderr.write(`{{name}}: serving MCP over Streamable HTTP at ${listener.url}\n`);
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
