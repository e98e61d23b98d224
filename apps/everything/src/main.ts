#!/usr/bin/env node
/**
 * Entry point: `node apps/everything/dist/main.js --transport stdio`, or
 * `--transport http [--port 3000] [--host 127.0.0.1] [--redis redis://host:6379 [--redis-prefix typemcp]]`
 * for Streamable HTTP at /mcp and the legacy HTTP+SSE transport at /sse on the same port (the URLs
 * are printed on stderr). With `--redis`, sessions, resumable events and notifications are shared
 * through that Redis under the key prefix, and so are tasks, so several instances behind any load
 * balancer serve as one (@typemcp/redis, loaded only then).
 */
import { createEverythingServer } from './everything.server.js';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function serveStdio(): Promise<void> {
  const connection = await createEverythingServer().listen({ transport: 'stdio' });
  await connection.closed;
  process.exit(0);
}

async function serveHttp(): Promise<void> {
  const port = Number(option('port', '3000'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`Invalid --port "${option('port', '')}"; give a number from 0 (any free port) to 65535\n`);
    process.exit(2);
  }
  const redis = option('redis', '');
  const state = redis ? (await import('@typemcp/redis')).redisState({ url: redis, prefix: option('redis-prefix', 'typemcp') }) : undefined;
  // Tasks in the same Redis, on the state's connection: any instance serves every request about any task.
  const tasks = state ? { store: state.taskStore() } : undefined;
  const listener = await createEverythingServer({ tasks }).listen({ transport: 'http', port, host: option('host', '127.0.0.1'), state });
  // The Redis URL is not printed: it may hold a password.
  const shared = state ? ', sessions shared on Redis' : '';
  process.stderr.write(`typemcp-everything: Streamable HTTP at ${listener.url} (legacy HTTP+SSE at ${listener.url.replace(/\/mcp$/, '/sse')})${shared}\n`);
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const transport = option('transport', 'stdio');
if (transport === 'stdio') void serveStdio();
else if (transport === 'http') {
  serveHttp().catch((error: unknown) => {
    process.stderr.write(`typemcp-everything: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
} else {
  process.stderr.write(`Unknown transport "${transport}"; this build serves: stdio, http\n`);
  process.exit(2);
}
