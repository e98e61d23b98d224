/** Starts the server process of `typemcp dev` and answers its listen requests (listen-redirect.ts). */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import * as path from 'node:path';
import type { HttpRelay } from './http-relay.js';
import type { DevListenReply, DevListenRequest } from './listen-messages.js';

/** The require hook, next to this file once compiled. */
const REGISTER_PATH = path.join(__dirname, 'register.js');
/** The listen redirect, likewise. */
const LISTEN_REDIRECT_PATH = path.join(__dirname, 'listen-redirect.js');

/** How the server's stdio is connected: straight through, to the stdio relay, or (bridge) stdin closed and stdout shown on stderr. */
export type StdioMode = 'inherit' | 'relay' | 'bridge';

const STDIO: Record<StdioMode, StdioOptions> = {
  inherit: ['inherit', 'inherit', 'inherit', 'ipc'],
  relay: ['pipe', 'pipe', 'pipe', 'ipc'],
  bridge: ['ignore', 'pipe', 'pipe', 'ipc'],
};

/**
 * Runs `entry` with the TypeScript hook and the listen redirect. `isCurrent` tells whether the
 * process is still the one requests go to (an old one may still be shutting down).
 */
export function spawnServer(
  entry: string,
  args: string[],
  cwd: string,
  mode: StdioMode,
  http: HttpRelay,
  isCurrent: (child: ChildProcess) => boolean,
): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', '--require', REGISTER_PATH, '--require', LISTEN_REDIRECT_PATH, entry, ...args], {
    cwd,
    // Sources change under it: schemas are derived at each start, never read from a manifest.
    env: { ...process.env, TYPEMCP_MANIFEST: 'off', TYPEMCP_DEV_LISTEN: '1' },
    stdio: STDIO[mode],
  });
  // stdout belongs to the protocol of the stdio client; a bridged server's output is only shown.
  if (mode === 'bridge') child.stdout!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const reply = (message: DevListenReply) => {
    if (child.connected) child.send(message, () => undefined);
  };
  child.on('message', (message: DevListenRequest) => {
    if (message?.typemcpDev === 'bound') {
      if (isCurrent(child)) http.bound(message.key, message.port);
    } else if (message?.typemcpDev === 'listen') {
      http.claim(message.key, message.port, message.host).then(
        (port) => reply({ typemcpDev: 'listen', key: message.key, port }),
        (error: NodeJS.ErrnoException) => reply({ typemcpDev: 'listen', key: message.key, error: { code: error.code ?? 'EINVAL', message: error.message } }),
      );
    }
  });
  return child;
}

/**
 * Runs `entry` for the preview of a stdio server (preview-stdio.ts): the TypeScript hook, stdio
 * piped to the preview, its stderr shown like the server's own.
 */
export function spawnPreviewServer(entry: string, args: string[], cwd: string): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', '--require', REGISTER_PATH, entry, ...args], {
    cwd,
    env: { ...process.env, TYPEMCP_MANIFEST: 'off' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}
