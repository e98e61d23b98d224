/**
 * class-validator by parts. Its CommonJS index requires every decorator, and through them
 * validator.js and libphonenumber-js: about 320 modules, 60-90 ms of a stdio server's start
 * (started anew for every client session) even with Node's compile cache, for the handful of
 * decorators a project uses. Installed when `@typemcp/core` is imported, before the project's
 * DTOs are: Node's module cache gets, under the path of class-validator's index, a module whose
 * exports are the index's names as getters that require, on first read, only the module of
 * class-validator that defines the name (class-validator-exports.ts, generated from the installed
 * version). The modules are class-validator's own, by the same paths, so everything (its metadata
 * storage, the classes) is the one instance whoever requires what. What the index defines itself
 * (`validate`, `validateSync`, `validateOrReject`, `registerSchema`) loads the real index the first
 * time one is read; core reaches the validator through `getFromContainer(Validator)` instead.
 *
 * Not installed (class-validator then loads whole, as without this): another class-validator
 * version than the table's, class-validator already loaded, a bundle (`typemcp build --bundle`
 * takes its ES modules and keeps only what is used), another runtime than Node (Bun, Deno: their
 * node:module is not Node's loader), or `TYPEMCP_LAZY_CLASS_VALIDATOR=off`.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { embeddedManifest } from '../manifest/schema-manifest.js';
import { CLASS_VALIDATOR_MODULES, CLASS_VALIDATOR_OWN, CLASS_VALIDATOR_VERSION } from './class-validator-exports.js';

/** What is used here of node:module's CommonJS loader (`Module`, its cache and paths). */
interface CommonJsModule {
  exports: Record<string, unknown>;
  filename: string;
  loaded: boolean;
  paths: string[];
  require(id: string): Record<string, unknown>;
  load(filename: string): void;
}
interface CommonJsLoader {
  new (id: string, parent?: unknown): CommonJsModule;
  prototype?: Partial<CommonJsModule>;
  _cache?: Record<string, CommonJsModule | undefined>;
  _nodeModulePaths?(from: string): string[];
  createRequire?(filename: string): NodeJS.Require;
}

/**
 * `target[name]` as a getter of `read()`, read once. Assignable, as the real index's own functions
 * are (a test double replaces `validate`, say): an assignment makes it a plain value.
 */
function lazyProperty(target: Record<string, unknown>, name: string, read: () => unknown): void {
  const get = once(read);
  Object.defineProperty(target, name, {
    enumerable: true,
    configurable: true,
    get,
    set: (value: unknown) => Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true }),
  });
}

/** A function that calls `read()` once, then returns its value. */
function once(read: () => unknown): () => unknown {
  let done = false;
  let value: unknown;
  return () => {
    if (!done) {
      value = read();
      done = true;
    }
    return value;
  };
}

/**
 * Puts the lazy index in Node's module cache (see the header); true when it did.
 * @internal
 */
export function installLazyClassValidator(): boolean {
  if (process.env.TYPEMCP_LAZY_CLASS_VALIDATOR === 'off' || embeddedManifest()) return false;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the loader itself, not a module's exports
    const Module = require('node:module') as CommonJsLoader;
    // Node's loader only: Bun's node:module has a `_cache`, but its modules cannot require(); Deno's is its own.
    if (process.versions.bun || process.versions.deno || !Module._cache || !Module._nodeModulePaths || !Module.createRequire) return false;
    if (typeof Module.prototype?.require !== 'function' || typeof Module.prototype.load !== 'function') return false;
    const index = Module.createRequire(__filename).resolve('class-validator');
    if (Module._cache[index]) return false;
    const root = path.dirname(index);
    const { version } = JSON.parse(readFileSync(path.join(root, '..', 'package.json'), 'utf8')) as { version?: unknown };
    if (version !== CLASS_VALIDATOR_VERSION || path.basename(root) !== 'cjs') return false;
    const lazy = new Module(index);
    lazy.filename = index;
    lazy.paths = Module._nodeModulePaths(root);
    lazy.loaded = true;
    const exports = lazy.exports;
    Object.defineProperty(exports, '__esModule', { value: true });
    for (const [file, names] of Object.entries(CLASS_VALIDATOR_MODULES)) {
      for (const name of names) lazyProperty(exports, name, () => lazy.require(`./${file}`)[name]);
    }
    // The real index, for what only it defines: compiled once, its requires served by the cache.
    const whole = once(() => {
      const real = new Module(index);
      real.load(index);
      return real.exports;
    });
    for (const name of CLASS_VALIDATOR_OWN) lazyProperty(exports, name, () => (whole() as Record<string, unknown>)[name]);
    Module._cache[index] = lazy;
    return true;
  } catch {
    return false; // not installed: class-validator loads whole
  }
}
