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
    throw new UsageError("typemcp add needs the project's TypeScript: run `npm install` (or `npm install -D typescript`) first");
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
      if (missing.length) this.insertIntoList(named, named.elements, missing, (items) => `{ ${items} }`);
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
        this.insertIntoList(d.initializer, d.initializer.elements, [element], (items) => `[${items}]`);
        return true;
      }
    }
    return false;
  }

  /**
   * Adds `items` at the end of a bracketed list (`{ a, b }`, `[a, b]`) in the list's own layout:
   * one per line, with the last element's indentation and trailing-comma style, when the closing
   * bracket is on its own line; after the last element otherwise. `empty` writes a list that had none.
   */
  private insertIntoList(list: TS.Node, elements: TS.NodeArray<TS.Node>, items: string[], empty: (items: string) => string): void {
    const text = this.file.text;
    const last = elements[elements.length - 1];
    if (!last) return this.replace(list.getStart(this.file), list.end, empty(items.join(', ')));
    const close = list.end - 1;
    const closeLine = text.lastIndexOf('\n', close - 1) + 1;
    if (closeLine <= last.end || text.slice(closeLine, close).trim() !== '') {
      return this.replace(last.end, last.end, `, ${items.join(', ')}`);
    }
    const lastLine = text.lastIndexOf('\n', last.getStart(this.file) - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lastLine))![0];
    const trailing = elements.hasTrailingComma;
    if (!trailing) this.replace(last.end, last.end, ',');
    this.replace(closeLine, closeLine, `${items.map((item) => `${indent}${item}`).join(',\n')}${trailing ? ',' : ''}\n`);
  }

  private replace(start: number, end: number, text: string): void {
    this.edits.push({ start, end, text });
    this.text = this.apply();
  }

  private apply(): string {
    let out = this.file.text;
    // From the end backwards; of two edits at one position, the later one is applied first so it ends up after.
    const order = this.edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.start - a.start || b.i - a.i);
    for (const e of order) out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  }
}
