/**
 * Small, syntax-aware edits of TypeScript sources (with the project's own `typescript`): add
 * named imports, insert a method into a class, append to an exported array. Edits are applied
 * as text replacements, so the rest of the file keeps its formatting and comments.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type * as TS from 'typescript';
import { UsageError } from '../usage.error.js';

/** Loads the project's TypeScript (every TypeMCP project has it as a dev dependency). */
export function loadTypeScript(projectDir: string): typeof TS {
  try {
    return createRequire(path.join(projectDir, 'package.json'))('typescript') as typeof TS;
  } catch {
    throw new UsageError('typemcp add needs the project\'s TypeScript: run `npm install` (or `npm install -D typescript`) first');
  }
}

/** One source file being edited. */
export class SourceEditor {
  private readonly file: TS.SourceFile;
  /** Replacements, all at positions of the original text; applied from the end backwards. */
  private readonly edits: { start: number; end: number; text: string }[] = [];

  constructor(
    private readonly ts: typeof TS,
    /** The file's path (for messages). */
    readonly fileName: string,
    private text: string,
  ) {
    this.file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  }

  /** The edited text. */
  get source(): string {
    return this.text;
  }

  /** The class named `name`, or (without a name) the first class decorated with `@McpService()`. */
  findClass(name?: string): TS.ClassDeclaration | undefined {
    const ts = this.ts;
    return this.file.statements.find((s): s is TS.ClassDeclaration => {
      if (!ts.isClassDeclaration(s) || !s.name) return false;
      if (name) return s.name.text === name;
      return (ts.getDecorators(s) ?? []).some((d) => /^McpService\b/.test(d.expression.getText(this.file)));
    });
  }

  /** Names of the class's members. */
  memberNames(target: TS.ClassDeclaration): string[] {
    return target.members.flatMap((m) => (m.name && this.ts.isIdentifier(m.name) ? [m.name.text] : []));
  }

  /**
   * Makes `names` importable from `module`: adds them to an existing `import { ... } from 'module'`
   * or adds an import after the last one. Call before any other edit (positions are the original ones).
   */
  ensureImports(module: string, names: string[]): this {
    const ts = this.ts;
    const imports = this.file.statements.filter(ts.isImportDeclaration);
    const existing = imports.find(
      (i) =>
        ts.isStringLiteral(i.moduleSpecifier) &&
        i.moduleSpecifier.text === module &&
        !i.importClause?.isTypeOnly &&
        i.importClause?.namedBindings &&
        ts.isNamedImports(i.importClause.namedBindings),
    );
    if (existing) {
      const named = existing.importClause!.namedBindings as TS.NamedImports;
      const have = new Set(named.elements.map((e) => e.name.text));
      const missing = names.filter((n) => !have.has(n));
      if (missing.length) {
        const all = [...named.elements.map((e) => e.getText(this.file)), ...missing];
        this.replace(named.getStart(this.file), named.end, `{ ${all.join(', ')} }`);
      }
      return this;
    }
    const line = `import { ${names.join(', ')} } from '${module}';\n`;
    const last = imports[imports.length - 1];
    if (last) this.replace(last.end, last.end, `\n${line.trimEnd()}`);
    else this.replace(0, 0, line);
    return this;
  }

  /** Inserts `member` (already indented) as the last member of `target`. */
  appendMember(target: TS.ClassDeclaration, member: string): this {
    const close = target.end - 1; // the class's closing brace
    const before = this.file.text.slice(0, close);
    const separator = target.members.length ? '\n' : '';
    this.replace(close, close, `${before.endsWith('\n') ? '' : '\n'}${separator}${member}`);
    return this;
  }

  /** Appends `element` to the array literal initialising the exported `const name = [...]`; false when there is none. */
  appendToArray(name: string, element: string): boolean {
    const ts = this.ts;
    for (const statement of this.file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer || !ts.isArrayLiteralExpression(d.initializer)) continue;
        const array = d.initializer;
        const last = array.elements[array.elements.length - 1];
        if (!last) this.replace(array.getStart(this.file), array.end, `[${element}]`);
        else this.replace(last.end, last.end, `, ${element}`);
        return true;
      }
    }
    return false;
  }

  private replace(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text });
    this.text = this.apply();
  }

  private apply(): string {
    let out = this.file.text;
    for (const e of [...this.edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }
}
