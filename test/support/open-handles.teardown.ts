/**
 * jest's global teardown: names what the suites left open in jest's own process. On a 2-core
 * machine jest runs every suite in that one process (in band), so a server, socket, child
 * process or timer a suite forgets keeps jest from exiting: CI once hung there until its time ran
 * out. `forceExit` (jest.config.ts) ends the run anyway; this says what would have held it, so the
 * leak is seen and fixed rather than hidden. stdout, stderr and stdin are jest's own.
 */
interface Handle {
  constructor?: { name?: string };
  address?: () => unknown;
  remoteAddress?: string;
  remotePort?: number;
  localPort?: number;
  spawnargs?: string[];
  pid?: number;
  hasRef?: () => boolean;
  _handle?: { constructor?: { name?: string }; fd?: number };
  readable?: boolean;
  writable?: boolean;
}

function describe(handle: Handle): string {
  const kind = handle.constructor?.name ?? typeof handle;
  try {
    if (kind === 'Server' && handle.address) return `Server ${JSON.stringify(handle.address())}`;
    if ((kind === 'Socket' || kind === 'TLSSocket') && handle.remotePort === undefined && handle.localPort === undefined) {
      // Not TCP: a pipe (a child process's stdio, say) or a TTY; its fd and whether it still reads.
      const inner = handle._handle;
      return `${kind} over ${inner?.constructor?.name ?? 'a closed handle'} fd ${inner?.fd ?? '?'}${handle.readable ? ', readable' : ''}${handle.writable ? ', writable' : ''}`;
    }
    if (kind === 'Socket' || kind === 'TLSSocket')
      return `${kind} local ${handle.localPort ?? '?'} -> ${handle.remoteAddress ?? ''}:${handle.remotePort ?? ''}`;
    if (kind === 'ChildProcess') return `ChildProcess ${handle.pid} ${(handle.spawnargs ?? []).slice(0, 3).join(' ')}`;
  } catch {
    // A handle half torn down: its kind is enough.
  }
  return kind;
}

/** Handles still open now, but jest's own stdio. */
function openHandles(): Handle[] {
  const active = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();
  return active.filter(
    (h) => (h as unknown) !== process.stdout && (h as unknown) !== process.stderr && (h as unknown) !== process.stdin && h.hasRef?.() !== false,
  );
}

export default async function reportOpenHandles(): Promise<void> {
  // Right after the last suite, handles its afterAll closed may still be closing (their close
  // callbacks not yet run): give them a moment, then report only what is still open. The timer
  // must keep the process alive: unref'd, the loop empties once those handles close, Node exits
  // with 0 before jest has set its exit code, and a failed run passes (test/jest-exit-code.spec.ts).
  if (openHandles().length > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  const left = openHandles();
  if (left.length === 0) return;
  process.stderr.write(`jest: ${left.length} handle(s) left open by the suites (forceExit ends the run):\n${left.map((h) => `  ${describe(h)}`).join('\n')}\n`);
}
