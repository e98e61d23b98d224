/**
 * The one line a stdio server prints on stderr once it listens, so a person who starts it by
 * hand sees that it runs and what to do next. stdout stays pure JSON-RPC.
 */
import * as path from 'node:path';
import type { Implementation } from '../mcp-types.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '../revisions.js';

/** The command that started this process, as a person would type it (script relative to cwd). */
function thisCommand(): string {
  const [, script, ...args] = process.argv;
  if (!script) return 'node <your server>';
  const relative = path.relative(process.cwd(), script);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script;
  return ['node', shown, ...args].map((a) => (/^[\w./:=@-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/** The banner line (with its newline) for a server. */
export function stdioBanner(info: Implementation): string {
  const oldest = LEGACY_REVISIONS[0];
  const newest = MODERN_REVISIONS[MODERN_REVISIONS.length - 1];
  return (
    `${info.name} ${info.version}: serving MCP over stdio (revisions ${oldest} to ${newest}); waiting for a client on stdin. ` +
    `Configure an MCP client to run this command, or try it with: npx typemcp list -- ${thisCommand()} (Ctrl+D stops)\n`
  );
}
