/**
 * A require hook for `typemcp dev`, loaded with `node --require`: compiles `.ts` files with SWC
 * (legacy decorators and decorator metadata, as TypeMCP needs: esbuild-based runners such as
 * tsx drop the metadata class-validator DTOs are found by), and lets `./file.js` specifiers
 * (TypeScript's nodenext style) load `./file.ts` when only the source exists.
 *
 * CommonJS projects only (no `"type": "module"`), like the projects create-typemcp generates.
 * A syntax error ends the process with the file, line and message and SWC's excerpt of the code
 * (SWC's own error carries a backtrace of native frames that says nothing).
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
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

/**
 * SWC's error text as `file:line:column: SyntaxError: message` followed by its excerpt of the code;
 * undefined when the text is not a located SWC diagnostic.
 */
export function formatSwcError(text: string, cwd: string = process.cwd()): string | undefined {
  const at = /^\s*,-\[(.+):(\d+):(\d+)\]$/m.exec(text);
  const message = /^\s*x (.+)$/m.exec(text);
  if (!at || !message) return undefined;
  const [, file, line] = at;
  const lines = text.slice(at.index + at[0].length).split('\n');
  const end = lines.findIndex((l) => /^\s*`-+/.test(l));
  const excerpt = lines.slice(0, end < 0 ? lines.length : end).filter((l) => l.trim());
  // SWC puts the caret under the column on the line after the one it points at.
  const caret = excerpt.find((l) => /^\s*:\s*\^/.test(l));
  const column = caret ? caret.indexOf('^') - caret.indexOf(':') - 1 : Number(at[3]);
  return [`${path.relative(cwd, file!)}:${line}:${column}: SyntaxError: ${message[1]!.trim()}`, ...excerpt].join('\n');
}

function compileTs(filename: string): string {
  try {
    return transformSync(readFileSync(filename, 'utf8'), swcOptions(filename)).code;
  } catch (error) {
    const formatted = formatSwcError(error instanceof Error ? error.message : String(error));
    if (!formatted) throw error;
    process.stderr.write(`${formatted}\n`);
    process.exit(1);
  }
}

/** Installs the hook (idempotent). */
export function register(): void {
  const loader = Module as unknown as CjsLoader;
  if (loader._extensions['.ts']?.name === 'typemcpCompileTs') return;
  const compile = function typemcpCompileTs(module: CompilableModule, filename: string): void {
    module._compile(compileTs(filename), filename);
  };
  for (const ext of ['.ts', '.cts', '.tsx']) loader._extensions[ext] = compile;

  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .call(this, ...)
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
