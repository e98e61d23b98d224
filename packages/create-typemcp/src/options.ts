/** What a generated project is made of: the answers to the generator's questions. */

/** How the generated server talks to clients. `both`: stdio by default, `--transport http` to switch. */
export type Transport = 'stdio' | 'http' | 'both';

/** `example`: a service with a tool, a resource and a prompt; `blank`: one minimal tool. */
export type Template = 'example' | 'blank' | 'app';

/**
 * How the HTTP server is protected. `none`: open (bind it to loopback); `proxy`: @typemcp/http's
 * OAuth proxy in front of an identity provider (GitHub, Google, Entra, any OpenID provider), set
 * from environment variables.
 */
export type Auth = 'none' | 'proxy';

/** The protections a user may choose, in the order they are offered. */
export const AUTHS: readonly Auth[] = ['none', 'proxy'];

/** The transports a user may choose, in the order they are offered. */
export const TRANSPORTS: readonly Transport[] = ['stdio', 'http', 'both'];

/** The templates a user may choose, in the order they are offered. */
export const TEMPLATES: readonly Template[] = ['example', 'blank', 'app'];

/** Everything needed to generate a project. @publicApi */
export interface ProjectOptions {
  /** Where to create the project (absolute, or relative to the current directory). */
  directory: string;
  /** The npm package name and the MCP server name (default: the directory's name). */
  name: string;
  transport: Transport;
  template: Template;
  /** How the HTTP server is protected (`none` for stdio). */
  auth: Auth;
  /**
   * Several instances on Redis shared state (HTTP only): `@typemcp/redis`, REDIS_URL in the
   * configuration, and a compose.yaml with three instances and Redis.
   */
  redis?: boolean;
  /** Run `npm install` in the new project. */
  install: boolean;
  /** Run `git init` and make a first commit (skipped inside an existing git work tree). */
  git: boolean;
  /**
   * A TypeMCP checkout (already built) to take the @typemcp/* packages from: each is packed into
   * `vendor/` and depended on as a `file:` tarball, so no @typemcp/* package comes from a registry.
   */
  from?: string;
}

/** The answers used when a question is not asked (`--yes`, or no terminal to ask on). */
export const DEFAULTS = {
  directory: 'my-mcp-server',
  transport: 'stdio',
  template: 'example',
  auth: 'none',
  install: true,
  git: true,
} as const satisfies Partial<ProjectOptions>;
