/** What the HTTP relay's parts share: a listener of `typemcp dev`, and where its requests go. */
import type { Server } from 'node:http';

/** Where a request goes: the server process's private port, and which process that is. */
export interface Target {
  port: number;
  generation: number;
}

/** One port `typemcp dev` listens on for the server. */
export interface PublicListener {
  readonly key: string;
  readonly server: Server;
  readonly port: number;
  readonly host?: string;
  target?: Target;
  waiting: Set<{ resolve(target: Target): void; reject(error: Error): void }>;
}
