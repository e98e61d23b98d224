/**
 * The one line a stdio server prints on stderr once it listens, so a person who starts it by
 * hand sees that it runs and what to do next. stdout stays pure JSON-RPC.
 */
import type * as Path from 'node:path';
import type { Implementation } from '../mcp-types.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '../revisions.js';

/**
 * A command that starts this server again, as a person would type it (script relative to cwd).
 * A TypeScript entry point was started by a loader (`typemcp dev`'s, which adds decorator
 * metadata): `node src/main.ts` alone fails (Node 20 has no .ts loader; Node 22.18+ strips types
 * but resolves no `./x.js` import to `./x.ts`, nor emits decorator metadata), so the command for
 * it is `npx typemcp dev`.
 */
export function thisCommand(argv: readonly string[] = process.argv, cwd: string = process.cwd()): string {
  const [, script, ...args] = argv;
  if (!script) return 'node <your server>';
  // Loaded here, not with the module: the protocol package also runs where node:path is absent (workerd).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof Path;
  const relative = path.relative(cwd, script);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script;
  const runner = /\.(c?ts|tsx)$/.test(script) ? ['npx', 'typemcp', 'dev'] : ['node'];
  return [...runner, shown, ...args].map((a) => (/^[\w./:=@-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
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
