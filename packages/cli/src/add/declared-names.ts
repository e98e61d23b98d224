/**
 * The MCP names a project's sources already declare (`@Tool`, `@Resource`, `@Prompt` methods),
 * read with the project's TypeScript parser, so `typemcp add` can refuse a name the server would
 * reject at start-up (TYPEMCP_ERR_DUPLICATE_TOOL, ..._PROMPT, ..._RESOURCE).
 */
import { readFileSync } from 'node:fs';
import type * as TS from 'typescript';
import type { ItemKind } from './names.js';

/** One decorated method. */
export interface DeclaredItem {
  kind: ItemKind;
  /** The MCP name: the `name` option, or the method's name. */
  name: string;
  /** A resource's URI or URI template. */
  uri?: string;
  /** `Class.method`. */
  origin: string;
  file: string;
}

const KINDS: Record<string, ItemKind> = { Tool: 'tool', Resource: 'resource', Prompt: 'prompt' };

function stringValue(ts: typeof TS, node: TS.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** The `name` property of an options object literal. */
function nameOption(ts: typeof TS, options: TS.Expression | undefined): string | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const p of options.properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === 'name') return stringValue(ts, p.initializer);
  }
  return undefined;
}

function itemsOf(ts: typeof TS, file: string, source: TS.SourceFile): DeclaredItem[] {
  const items: DeclaredItem[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isClassDeclaration(node) && node.name) {
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        for (const decorator of ts.getDecorators(member) ?? []) {
          const call = decorator.expression;
          if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || !(call.expression.text in KINDS)) continue;
          const kind = KINDS[call.expression.text]!;
          const options = kind === 'resource' ? call.arguments[1] : call.arguments[0];
          const uri = kind === 'resource' ? stringValue(ts, call.arguments[0]) : undefined;
          items.push({
            kind,
            name: nameOption(ts, options) ?? member.name.text,
            ...(uri ? { uri } : {}),
            origin: `${node.name.text}.${member.name.text}`,
            file,
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return items;
}

/** Every tool, resource and prompt declared in `files`. */
export function declaredItems(ts: typeof TS, files: string[]): DeclaredItem[] {
  return files.flatMap((file) => itemsOf(ts, file, ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)));
}

/** The declared item a new `kind` named `name` (a resource: or at `uri`) would collide with. */
export function findTaken(items: DeclaredItem[], kind: ItemKind, name: string, uri?: string): DeclaredItem | undefined {
  return items.find((i) => i.kind === kind && (i.name === name || (uri !== undefined && i.uri === uri)));
}
