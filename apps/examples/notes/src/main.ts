#!/usr/bin/env node
/**
 * Entry point: `node apps/examples/notes/dist/main.js [--data-dir <dir>]` serves the notes over
 * stdio (in memory unless a data directory is given). Point an MCP client at this command.
 */
import { createNotesServer } from './notes.server.js';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--data-dir');
  const dataDir = at > 0 ? process.argv[at + 1] : undefined;
  const connection = await createNotesServer({ dataDir }).listen({ transport: 'stdio' });
  // stdout belongs to the protocol: anything for a human goes to stderr.
  if (process.stdin.isTTY) process.stderr.write('typemcp-notes: serving MCP over stdio; connect an MCP client (Ctrl+D to stop)\n');
  await connection.closed;
  process.exit(0);
}

void main();
