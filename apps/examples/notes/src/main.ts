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
  // listen() prints one line on stderr (stdout belongs to the protocol); `banner: false` silences it.
  await connection.closed;
  process.exit(0);
}

void main();
