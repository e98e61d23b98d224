/**
 * An extension as `createServer({ extensions })` takes it: the engine's `McpExtension` (settings,
 * methods, decorators, visibility, setup), plus what only a server of decorated classes has: the
 * services that carry the extension's `ExtensionData`, bound to their instances.
 */
import type { McpExtension, RequestContext } from '@typemcp/protocol';
import type { ClassType } from '../metadata/metadata-args.interface.js';

/** A method of a served class that carries the extension's data. @publicApi */
export interface ExtensionMember {
  /** The method's name. */
  readonly method: string;
  /** `Class.method`, for messages. */
  readonly origin: string;
  /** The extension's data on the method (its `ExtensionData` records, merged). */
  readonly data: object;
  /** The tool, resource or prompt the method also is (a resource by its URI or template), if any. */
  readonly feature?: { readonly kind: 'tool' | 'resource' | 'prompt'; readonly name: string };
  /**
   * Calls the method on the service instance: `input` goes to its DTO parameter (validated like a
   * tool's arguments: an invalid one is a -32602 `McpError`), a `Context` built on `ctx` to its
   * `Context` parameters. Returns what the method returns (a promise when it is async). No
   * interceptor runs: they wrap tools, resources and prompts.
   */
  call(input: unknown, ctx: RequestContext): unknown;
}

/** A served class as the extension's `bindService` sees it. @publicApi */
export interface ExtensionService {
  /** The `@McpService()` class. */
  readonly target: ClassType;
  /** The instance the container built (the one the class's tools run on). */
  readonly instance: object;
  /** The extension's data on the class, if any. */
  readonly data?: object;
  /** The class's `@McpService({ scopes })`, which apply to each of its members. */
  readonly scopes?: readonly string[];
  /** The methods that carry the extension's data, in declaration order. */
  readonly members: readonly ExtensionMember[];
}

/**
 * An MCP extension for `createServer({ extensions })`. `bindService` is called for each served
 * class that carries the extension's data (on the class or a method), when it is served
 * (`createServer` or `addService`); what it returns is called when the class stops being served
 * (`removeService`).
 * @publicApi
 */
export interface ServerExtension extends McpExtension {
  /** Receives a served class that carries the extension's data; returns what undoes it (or nothing). */
  bindService?(service: ExtensionService): (() => void) | void;
  /** What the extension keeps in the schema manifest (`typemcp build`), to read back at start-up. */
  readonly manifest?: ExtensionManifest;
}

/**
 * An extension's part of the schema manifest: work done once at build time (digests of files,
 * say) instead of at every start. Start-up only hands back what a manifest verified against the
 * code holds (the fingerprint of the project's files and library versions); the extension checks
 * anything else its data describes (files it reads itself), and does the work at start-up when
 * the data is absent or does not match.
 * @publicApi
 */
export interface ExtensionManifest {
  /** At `typemcp build`, when the manifest is written: JSON to keep under `extensions[id]`. */
  write(): unknown;
  /**
   * At start-up, before the extension is installed (its `setup`): what the manifest keeps for it,
   * undefined without a verified manifest (or during `typemcp build`); `warn` is the server's
   * `onWarning` (a `DefinitionWarning`: a stable `TYPEMCP_WARN_*` code and a message).
   */
  read(data: unknown, warn: (warning: { code: string; message: string }) => void): void;
}
