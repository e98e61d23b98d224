/** What `typemcp dev` says: why a server exited, and which command a stdio client runs. */

/**
 * The line of a crashed server's stderr that says what happened: the first `SomeError: ...` line
 * (after Node's source excerpt of an uncaught error), or else the first line.
 */
export function crashLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /\b\w*Error(?: \[[^\]]*\])?: /.test(l)) ?? lines[0];
  return line && line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

/** The command a stdio client runs to reach this HTTP server (as typed in a shell). */
export function bridgeCommand(entry: string, args: string[]): string {
  return ['npx', 'typemcp', 'dev', '--bridge', entry, ...args].map((a) => (/^[\w./:=@-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(' ');
}
