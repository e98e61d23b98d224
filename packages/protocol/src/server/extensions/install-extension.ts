/**
 * Installing an extension on a server: every check first (its shape, its identifier, each
 * method it adds against the engine's and the others', each method whose results it decorates),
 * then its methods and result decorators, then its `setup`. A refused extension leaves nothing
 * behind.
 */
import { ProtocolErrorCode } from '../../errors.js';
import { DefinitionError } from '../../registry/definition.error.js';
import type { MethodHandler } from '../handlers/method-handler.type.js';
import { TASKS_EXTENSION } from '../tasks/task-engine.js';
import { checkExtension } from './check-extension.js';
import { extensionMethodHandler } from './extension-method.js';
import type { ExtensionSet } from './extension-set.js';
import type { ExtensionApi, McpExtension, ResultDecorator } from './extension.types.js';

/** Who added a method: the engine, `setMethodHandler` (the server), or the extension of that identifier. */
export type MethodOwner = { readonly by: 'engine' } | { readonly by: 'server' } | { readonly by: 'extension'; readonly id: string };

/** What installing needs from the server (`ProtocolServer` gives it). */
export interface InstallTarget {
  readonly extensions: ExtensionSet;
  /** Who added `method`; undefined for a method the server does not have. */
  ownerOf(method: string): MethodOwner | undefined;
  addMethod(id: string, method: string, handler: MethodHandler, cache: 'list' | 'read' | undefined): void;
  decorateResults(method: string, decorator: ResultDecorator): void;
  /** The capabilities and lists derived so far are stale. */
  changed(): void;
  api(id: string): ExtensionApi;
}

function refused(code: string, message: string): DefinitionError {
  return new DefinitionError(code, message);
}

/** Throws a DefinitionError for an extension that cannot be installed on `target`; installs it otherwise. */
export function installExtension(target: InstallTarget, extension: McpExtension): void {
  checkExtension(extension);
  const { id } = extension;
  if (id === TASKS_EXTENSION) {
    throw refused(
      ProtocolErrorCode.DuplicateExtension,
      `The extension "${id}" is the engine's own: register tools with task support instead of installing it.`,
    );
  }
  if (target.extensions.get(id)) throw refused(ProtocolErrorCode.DuplicateExtension, `The extension "${id}" is installed twice; install it once.`);
  const methods = Object.entries(extension.methods ?? {});
  for (const [method] of methods) {
    const owner = target.ownerOf(method);
    if (owner?.by === 'engine') {
      throw refused(
        ProtocolErrorCode.BuiltinMethod,
        `The extension "${id}" adds the method "${method}", which the engine handles; add a method of its own, or change the built-in's result with decorate.results.`,
      );
    }
    if (owner) {
      const other = owner.by === 'server' ? 'setMethodHandler already set' : `the extension "${owner.id}" already adds`;
      throw refused(ProtocolErrorCode.DuplicateMethod, `The extension "${id}" adds the method "${method}", which ${other}; rename one of them.`);
    }
  }
  const own = new Set(methods.map(([method]) => method));
  const results = Object.entries(extension.decorate?.results ?? {});
  for (const [method] of results) {
    if (!own.has(method) && !target.ownerOf(method)) {
      throw refused(
        ProtocolErrorCode.InvalidExtension,
        `Invalid extension "${id}": "decorate.results" names the method "${method}", which this server does not have; install the extension that adds it first.`,
      );
    }
  }
  target.extensions.add(extension);
  for (const [method, definition] of methods) target.addMethod(id, method, extensionMethodHandler(id, method, definition), definition.cache);
  for (const [method, decorator] of results) target.decorateResults(method, decorator);
  target.changed();
  extension.setup?.(target.api(id));
}
