/**
 * A require hook for `typemcp dev`, loaded with `node --require`: compiles `.ts` files with SWC
 * (legacy decorators and decorator metadata, as TypeMCP needs: esbuild-based runners such as
 * tsx drop the metadata class-validator DTOs are found by), and lets `./file.js` specifiers
 * (TypeScript's nodenext style) load `./file.ts` when only the source exists.
 *
 * CommonJS projects only (no `"type": "module"`), like the projects create-typemcp generates.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { transformSync, type Options } from '@swc/core';

/** The parts of Node's CommonJS loader this hook patches (not in @types/node). */
interface CjsLoader {
  _extensions: Record<string, (module: CompilableModule, filename: string) => void>;
  _resolveFilename(request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]): string;
}

interface CompilableModule {
  _compile(code: string, filename: string): void;
}

/** SWC options matching tsconfig's experimentalDecorators + emitDecoratorMetadata (and the Jest config). */
export function swcOptions(filename: string): Options {
  return {
    filename,
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true, tsx: filename.endsWith('.tsx') },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
  };
}

/** Installs the hook (idempotent). */
export function register(): void {
  const loader = Module as unknown as CjsLoader;
  if (loader._extensions['.ts']?.name === 'typemcpCompileTs') return;
  const compile = function typemcpCompileTs(module: CompilableModule, filename: string): void {
    module._compile(transformSync(readFileSync(filename, 'utf8'), swcOptions(filename)).code, filename);
  };
  for (const ext of ['.ts', '.cts', '.tsx']) loader._extensions[ext] = compile;

  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request, parent, ...rest) {
    try {
      return resolve.call(this, request, parent, ...rest);
    } catch (error) {
      const fromTs = parent?.filename && /\.[cm]?tsx?$/.test(parent.filename);
      const relative = request.startsWith('./') || request.startsWith('../');
      if (!fromTs || !relative || !/\.[cm]?js$/.test(request)) throw error;
      // './x.js' -> './x.ts', './x.cjs' -> './x.cts' (what tsc would have compiled to that name).
      return resolve.call(this, request.replace(/js$/, 'ts'), parent, ...rest);
    }
  };
}

register();
