/**
 * packages/core/README.md documents every option of the decorators it serves with: each member
 * of `McpServiceOptions`, `ToolOptions`, `ResourceOptions` and `PromptOptions` (read from the
 * types core exports, with the TypeScript checker) is named in that decorator's options section.
 * `scopes` and `deferred` were missing from these once, and a reader took them for absent.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const README = readFileSync(path.join(ROOT, 'packages/core/README.md'), 'utf8');

/** The members of each exported options type of @typemcp/core. */
function optionMembers(names: readonly string[]): Map<string, string[]> {
  const entry = path.join(ROOT, 'packages/core/src/index.ts');
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    experimentalDecorators: true,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    paths: { '@typemcp/*': [path.join(ROOT, 'packages/*/src/index.ts')] },
  });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
  const members = new Map<string, string[]>();
  for (const name of names) {
    const symbol = exports.find((e) => e.name === name);
    if (!symbol) throw new Error(`@typemcp/core does not export ${name}`);
    const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
    members.set(
      name,
      checker.getPropertiesOfType(type).map((p) => p.name),
    );
  }
  return members;
}

/** The README's section for `type`: the paragraph naming it, and the table it introduces. */
function section(type: string): string {
  const lines = README.split('\n');
  const start = lines.findIndex((l) => l.includes(`options (\`${type}\`)`));
  if (start < 0) throw new Error(`packages/core/README.md has no "options (\`${type}\`)" section`);
  let end = start;
  while (end < lines.length && lines[end].trim() !== '') end++;
  if (lines[end - 1].trimEnd().endsWith(':')) {
    end++;
    while (end < lines.length && lines[end].startsWith('|')) end++;
  }
  return lines.slice(start, end).join('\n');
}

const TYPES = ['McpServiceOptions', 'ToolOptions', 'ResourceOptions', 'PromptOptions'] as const;
const members = optionMembers(TYPES);

describe('packages/core/README.md option reference', () => {
  it.each(TYPES)('names every member of %s', (type) => {
    const text = section(type);
    const names = members.get(type)!;
    expect(names.length).toBeGreaterThan(1);
    expect(names.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });

  it('reads the members from the types themselves', () => {
    expect(members.get('McpServiceOptions')).toEqual(['deferred', 'scopes']);
    for (const type of ['ToolOptions', 'ResourceOptions', 'PromptOptions']) expect(members.get(type)).toContain('scopes');
  });
});
