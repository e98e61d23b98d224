/**
 * What serveHttp() and createMcpExpressApp() check once the routes are built: the start-up checks
 * of the framework that built the engine (@typemcp/core reports each declared service no server
 * serves), and the options that build but leave clients stuck, as start-up warnings. Warnings go
 * to the framework's `onWarning` (core's `createServer({ onWarning })`), else to the logger, else
 * to stderr.
 */
import type { ProtocolServer, StructuredLogger } from '@typemcp/protocol';
import { startUpLinkOf, type StartUpWarning } from '@typemcp/protocol/internal';
import { HttpStartUpCode } from '../errors.js';
import type { HttpOptions } from '../http-options.interface.js';

/** The start-up warnings of `options`. */
export function httpStartUpWarnings(options: HttpOptions): StartUpWarning[] {
  const auth = options.auth;
  const warnings: StartUpWarning[] = [];
  if (auth?.introspection && auth.introspection.issuer === undefined && auth.protectedResource === undefined && auth.resourceMetadataUrl === undefined) {
    warnings.push({
      code: HttpStartUpCode.NoResourceMetadata,
      message:
        'auth.introspection has no issuer and there is no auth.protectedResource: this server serves no Protected Resource Metadata and its 401s name none, ' +
        'so no MCP client can find the authorization server to get a token. Set auth.introspection.issuer (the authorization server), ' +
        'or auth.protectedResource with its authorization_servers.',
    });
  }
  return warnings;
}

/** Runs the start-up checks of `engine` served with `options`. */
export function runStartUpChecks(engine: ProtocolServer, options: HttpOptions, logger: StructuredLogger | undefined): void {
  const link = startUpLinkOf(engine);
  link?.serving();
  for (const warning of httpStartUpWarnings(options)) {
    if (link) link.warn(warning);
    else if (logger) logger.warn({ code: warning.code }, warning.message);
    else process.stderr.write(`[typemcp] warning ${warning.code}: ${warning.message}\n`);
  }
}
