/** The pure parts of the CLI: names, output formatting, source edits, --args parsing. */
import * as path from 'node:path';
import { formatListing, formatToolResult, installAdvice, itemNames, parseToolArgs } from '../src/index';
import { uriScheme } from '../src/add/names';
import { loadTypeScript, SourceEditor } from '../src/add/source-editor';

describe('itemNames', () => {
  it('derives method, class and file names from any spelling', () => {
    expect(itemNames('get_forecast')).toEqual({ mcp: 'get_forecast', camel: 'getForecast', pascal: 'GetForecast', kebab: 'get-forecast' });
    expect(itemNames('getForecast')).toEqual({ mcp: 'getForecast', camel: 'getForecast', pascal: 'GetForecast', kebab: 'get-forecast' });
    expect(itemNames('search-notes2')).toMatchObject({ camel: 'searchNotes2', kebab: 'search-notes2' });
    expect(() => itemNames('has space')).toThrow('is not a usable name');
  });

  it('makes a URI scheme from the package name', () => {
    expect(uriScheme('@acme/Weather_Server')).toBe('weather-server');
    expect(uriScheme('42-things')).toBe('things');
    expect(uriScheme(undefined)).toBe('app');
  });
});

describe('parseToolArgs', () => {
  it('takes a JSON object only', () => {
    expect(parseToolArgs('{"a":1}')).toEqual({ a: 1 });
    expect(() => parseToolArgs('"a"')).toThrow('--args must be a JSON object');
    expect(() => parseToolArgs('{a:1}')).toThrow('--args is not valid JSON');
  });
});

describe('installAdvice', () => {
  it('names the Inspector version npm installs on the Node.js running', () => {
    expect(installAdvice('20.19.0')).toContain('\nOn Node.js 20 (this is 20.19.0) npm installs Inspector 0.15, the last that runs on it; Inspector 2.x needs Node.js >= 22.19.');
    expect(installAdvice('22.18.0')).toContain('On this Node.js (22.18.0) npm installs the newest Inspector that runs on it; Inspector 2.x needs Node.js >= 22.19.');
    expect(installAdvice('24.1.0')).toContain('Inspector 2.x needs Node.js >= 22.19 (this is 24.1.0)');
  });
});

describe('formatting', () => {
  it('lists each kind with arguments, optional ones marked', () => {
    const text = formatListing({
      tools: [{ name: 'search', description: 'Find', inputSchema: { type: 'object', properties: { q: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['q'] } }],
      resources: [],
      resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'note' }],
      prompts: [{ name: 'review', arguments: [{ name: 'id', required: true }, { name: 'focus' }] }],
    });
    expect(text).toBe('Tools\n  search(q: string, tags?: string[])  Find\n\nResource templates\n  notes://{id}\n\nPrompts\n  review(id, focus?)');
    expect(formatListing({ tools: [], resources: [], resourceTemplates: [], prompts: [] })).toBe('The server offers no tools, resources or prompts.');
  });

  it('shows structured content when there is no content block', () => {
    expect(formatToolResult({ content: [], structuredContent: { id: 1 } })).toBe('{\n  "id": 1\n}');
    expect(formatToolResult({ content: [{ type: 'resource_link', uri: 'a://b', name: 'B' }] })).toBe('[link a://b "B"]');
  });
});

describe('SourceEditor', () => {
  const ts = loadTypeScript(path.resolve(__dirname, '../../..'));
  const source = `import { McpService, Tool } from '@typemcp/core';
import type { ClassType } from '@typemcp/core';

@McpService()
export class A {
  @Tool({ description: 'x' })
  x(): string {
    return 'x';
  }
}

export const list: ClassType[] = [];
`;

  it('adds to an existing value import (not a type-only one), appends a member and an array element', () => {
    const editor = new SourceEditor(ts, 'a.ts', source);
    const target = editor.findClass()!;
    expect(editor.memberNames(target)).toEqual(['x']);
    editor.ensureImports('@typemcp/core', ['Tool', 'Prompt']).ensureImports('./b.dto.js', ['BArgs']).appendMember(target, '  y(): void {}\n');
    expect(editor.appendToArray('list', 'A')).toBe(true);
    expect(editor.appendToArray('missing', 'A')).toBe(false);
    expect(editor.source).toBe(`import { McpService, Tool, Prompt } from '@typemcp/core';
import type { ClassType } from '@typemcp/core';
import { BArgs } from './b.dto.js';

@McpService()
export class A {
  @Tool({ description: 'x' })
  x(): string {
    return 'x';
  }

  y(): void {}
}

export const list: ClassType[] = [A];
`);
  });

  it('inserts into multi-line import lists and arrays without reformatting them', () => {
    const multi = `import {
  McpService,
  Tool, // the decorator
} from '@typemcp/core';
import {
  A as Alias,
  B
} from './names.js';

export const services = [
  Alias,
  B,
];

export const inline = [A, B];
`;
    const editor = new SourceEditor(ts, 'm.ts', multi).ensureImports('@typemcp/core', ['Prompt']).ensureImports('./names.js', ['C', 'D']);
    expect(editor.appendToArray('services', 'C')).toBe(true);
    expect(editor.appendToArray('inline', 'D')).toBe(true);
    expect(editor.source).toBe(`import {
  McpService,
  Tool, // the decorator
  Prompt,
} from '@typemcp/core';
import {
  A as Alias,
  B,
  C,
  D
} from './names.js';

export const services = [
  Alias,
  B,
  C,
];

export const inline = [A, B, D];
`);
  });
});
