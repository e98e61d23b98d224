/**
 * What a transport tells the framework that built an engine when it starts serving it, without
 * either importing the other: @typemcp/core registers a link for each server it builds, and
 * @typemcp/http calls it when `serveHttp()` or `createMcpExpressApp()` takes the engine. So the
 * start-up checks run whichever way a server is served (core then reports each declared service
 * no server serves), and the transport's own start-up warnings reach the same `onWarning` as
 * core's.
 */
import type { ProtocolServer } from './protocol-server.js';

/** A start-up warning: something that builds and runs but is probably a mistake. */
export interface StartUpWarning {
  /** A stable code such as `TYPEMCP_WARN_UNSERVED_SERVICE`. */
  readonly code: string;
  readonly message: string;
}

/** The framework's side of the link. */
export interface StartUpLink {
  /** A transport starts serving the engine. */
  serving(): void;
  /** A transport's start-up warning. */
  warn(warning: StartUpWarning): void;
}

const links = new WeakMap<ProtocolServer, StartUpLink>();

/** Registers the link of `engine` (one per engine; a later one replaces it). */
export function linkStartUp(engine: ProtocolServer, link: StartUpLink): void {
  links.set(engine, link);
}

/** The link of `engine`, when a framework registered one. */
export function startUpLinkOf(engine: ProtocolServer): StartUpLink | undefined {
  return links.get(engine);
}
