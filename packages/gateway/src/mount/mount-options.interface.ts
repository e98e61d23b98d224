/** What can be mounted, and how. */
import type { AuthProvider, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { TypeMcpServer } from '@typemcp/core';
import type { Implementation, LoggingLevel, ToolGuard } from '@typemcp/protocol';
import type { ToolsOptions } from '../transforms/tool-options.interface.js';

/**
 * Which revision era to speak to an upstream: `auto` (default) probes with `server/discover` and
 * falls back to the 2025 handshake, `legacy` is the 2025 handshake only, `modern` is 2026-07-28 only.
 */
export type UpstreamEra = 'auto' | 'legacy' | 'modern';

/** A server run as a child process, spoken to over its stdin and stdout. @publicApi */
export interface StdioUpstream {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the SDK's safe default environment (PATH, HOME, ...); this process's own is not passed on. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** The child's stderr: shown on this process's (`inherit`, default), `pipe`d away or `ignore`d. */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore';
  readonly era?: UpstreamEra;
}

/** How the gateway authenticates to an HTTP upstream. @publicApi */
export type UpstreamAuth =
  /** A bearer token, or a function giving the current one (called before every request). */
  | { readonly bearer: string | (() => string | Promise<string>) }
  /** OAuth client credentials (`client_credentials` grant, `client_secret_basic`), tokens refreshed as needed. */
  | { readonly clientCredentials: { readonly clientId: string; readonly clientSecret: string; readonly scope?: string; readonly issuer: string } }
  /** Any provider of the official client. */
  | { readonly provider: AuthProvider | OAuthClientProvider };

/** A server reached over Streamable HTTP. @publicApi */
export interface HttpUpstream {
  readonly url: string | URL;
  readonly auth?: UpstreamAuth;
  /** Headers sent with every request (the credentials of `auth` take precedence over an `Authorization` here). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly era?: UpstreamEra;
}

/** Another TypeMCP server in this process, a command, or a URL. @publicApi */
export type Upstream = TypeMcpServer | StdioUpstream | HttpUpstream;

/** Backoff between reconnection attempts. @publicApi */
export interface ReconnectOptions {
  /** First wait after a failure, in ms (default 250). */
  readonly initialDelayMs?: number;
  /** Longest wait, in ms (default 30 000); each failure doubles the wait, with up to 20 % jitter. */
  readonly maxDelayMs?: number;
}

/** Which prompts or resources of the upstream to serve: names (resource URIs), or patterns. @publicApi */
export interface FeatureFilter {
  /** Only these (default: all). */
  readonly include?: readonly (string | RegExp)[];
  /** Never these. */
  readonly exclude?: readonly (string | RegExp)[];
}

/** How a server is mounted. @publicApi */
export interface MountOptions {
  /** Prefix of every name and URI (see the naming rule); none keeps the upstream's names. */
  readonly namespace?: string;
  /** `prefix` (default with a namespace): resource URIs become `<namespace>+<uri>`; `keep`: as the upstream has them. */
  readonly uris?: 'prefix' | 'keep';
  /** Filters, renames, argument transforms and the tool-search mode of the upstream's tools. */
  readonly tools?: ToolsOptions;
  readonly prompts?: FeatureFilter;
  readonly resources?: FeatureFilter;
  /** OAuth scopes every mounted feature needs (added to a feature's own). */
  readonly scopes?: readonly string[];
  /** Who may see and call the mounted tools (and-ed with a tool's own guard). */
  readonly guard?: ToolGuard;
  /** When false, a first connection that fails does not fail `mount()`: the mount connects in the background. Default true. */
  readonly required?: boolean;
  /** Reconnection backoff after the upstream went away; `false` never reconnects. */
  readonly reconnect?: ReconnectOptions | false;
  /** Longest wait for one upstream answer, in ms (default 300 000); progress restarts it. */
  readonly requestTimeoutMs?: number;
  /** How long a 2025 upstream's question may wait for a 2026-07-28 client's retry, in ms (default 300 000). */
  readonly parkTimeoutMs?: number;
  /** How many upstream requests may wait for such retries at once (default 1000). */
  readonly maxParked?: number;
  /**
   * HTTP request headers of the downstream request copied onto upstream HTTP requests (names, any
   * case), e.g. `traceparent` or `x-request-id`. `authorization` and `cookie` are refused: the
   * gateway never passes a client's credentials on (the specification forbids token passthrough).
   */
  readonly forwardHeaders?: readonly string[];
  /** The least severe log level asked of the upstream (default `debug`: each client's own level filters). */
  readonly upstreamLogLevel?: LoggingLevel;
  /** The gateway's name towards the upstream (default `typemcp-gateway`). */
  readonly clientInfo?: Implementation;
}
