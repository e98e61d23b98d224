/**
 * The official client's transport to a mounted server: a child process over stdio, or Streamable
 * HTTP with the mount's credentials (a bearer token, or OAuth client credentials through the
 * client's own provider). The client package is loaded here, on the first connection of such a
 * mount, never by a gateway that only mounts in-process servers.
 */
import type * as Sdk from '@modelcontextprotocol/client';
import type * as SdkStdio from '@modelcontextprotocol/client/stdio';
import type { HttpUpstream, StdioUpstream } from '../mount/mount-options.interface.js';

/** The client package (loaded on first use). */
export function clientPackage(): typeof Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a stdio or HTTP mount connects
  return require('@modelcontextprotocol/client') as typeof Sdk;
}

function stdioPackage(): typeof SdkStdio {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a stdio mount connects
  return require('@modelcontextprotocol/client/stdio') as typeof SdkStdio;
}

/** What a stdio transport exposes besides the transport: the child's pid. */
export interface UpstreamTransport {
  readonly transport: Sdk.Transport;
  /** The child process's pid (stdio), once started. */
  pid(): number | undefined;
}

/** A new transport to `upstream` (nothing is opened until the client connects). */
export function upstreamTransport(upstream: StdioUpstream | HttpUpstream): UpstreamTransport {
  if ('command' in upstream) {
    const { StdioClientTransport, getDefaultEnvironment } = stdioPackage();
    const transport = new StdioClientTransport({
      command: upstream.command,
      args: [...(upstream.args ?? [])],
      // The SDK's safe default environment (PATH, HOME...) and what the mount adds, never this process's secrets.
      env: { ...getDefaultEnvironment(), ...upstream.env },
      cwd: upstream.cwd,
      stderr: upstream.stderr ?? 'inherit',
    });
    return { transport, pid: () => transport.pid ?? undefined };
  }
  const sdk = clientPackage();
  const transport = new sdk.StreamableHTTPClientTransport(new URL(upstream.url), {
    authProvider: authProvider(upstream, sdk),
    requestInit: upstream.headers ? { headers: { ...upstream.headers } } : undefined,
  });
  return { transport, pid: () => undefined };
}

function authProvider(upstream: HttpUpstream, sdk: typeof Sdk): Sdk.AuthProvider | Sdk.OAuthClientProvider | undefined {
  const auth = upstream.auth;
  if (!auth) return undefined;
  if ('bearer' in auth) {
    const bearer = auth.bearer;
    return { token: async () => (typeof bearer === 'function' ? await bearer() : bearer) };
  }
  if ('clientCredentials' in auth) {
    const { clientId, clientSecret, scope, issuer } = auth.clientCredentials;
    return new sdk.ClientCredentialsProvider({ clientId, clientSecret, scope, expectedIssuer: issuer });
  }
  return auth.provider;
}
