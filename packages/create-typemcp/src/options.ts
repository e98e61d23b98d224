/** What a generated project is made of: the answers to the generator's questions. */

/** How the generated server talks to clients. `both`: stdio by default, `--transport http` to switch. */
export type Transport = 'stdio' | 'http' | 'both';

/** `example`: a service with a tool, a resource and a prompt; `blank`: one minimal tool. */
export type Template = 'example' | 'blank';

/** The transports a user may choose, in the order they are offered. */
export const TRANSPORTS: readonly Transport[] = ['stdio', 'http', 'both'];

/** The templates a user may choose, in the order they are offered. */
export const TEMPLATES: readonly Template[] = ['example', 'blank'];

/** Everything needed to generate a project. @publicApi */
export interface ProjectOptions {
  /** Where to create the project (absolute, or relative to the current directory). */
  directory: string;
  /** The npm package name and the MCP server name (default: the directory's name). */
  name: string;
  transport: Transport;
  template: Template;
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
  install: true,
  git: true,
} as const satisfies Partial<ProjectOptions>;
