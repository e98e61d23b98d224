#!/usr/bin/env node
/** Entry point: `node apps/everything/dist/main.js --transport stdio`. */
import { createEverythingServer } from './everything.server.js';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const transport = option('transport', 'stdio');
  if (transport !== 'stdio') {
    process.stderr.write(`Unknown transport "${transport}"; this build serves: stdio\n`);
    process.exit(2);
  }
  const connection = await createEverythingServer().listen({ transport: 'stdio' });
  if (process.stdin.isTTY) {
    process.stderr.write('typemcp-everything: serving MCP over stdio; connect an MCP client (Ctrl+D to stop)\n');
  }
  await connection.closed;
  process.exit(0);
}

void main();
