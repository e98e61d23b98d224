/** The pure parts of the CLI: names, output formatting, source edits, --args parsing. */
import * as path from 'node:path';
import { formatListing, formatToolResult, installAdvice, itemNames, parseToolArgs } from '../src/index';
import { uriScheme } from '../src/add/names';
import { asciiOnly } from '../src/commands/bundle-launcher';
import { runInNewContext } from 'node:vm';
import { loadTypeScript, SourceEditor } from '../src/add/source-editor';
import { crashLine } from '../src/dev/dev-log';
import { formatSwcError } from '../src/dev/register';
import { StdioRelay } from '../src/dev/stdio-relay';
import { PassThrough } from 'node:stream';

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
    expect(installAdvice('20.19.0')).toContain(
      '\nOn Node.js 20 (this is 20.19.0) npm installs Inspector 0.15, the last that runs on it; Inspector 2.x needs Node.js >= 22.19.',
    );
    expect(installAdvice('22.18.0')).toContain(
      'On this Node.js (22.18.0) npm installs the newest Inspector that runs on it; Inspector 2.x needs Node.js >= 22.19.',
    );
    expect(installAdvice('24.1.0')).toContain('Inspector 2.x needs Node.js >= 22.19 (this is 24.1.0)');
  });
});

describe('formatting', () => {
  it('lists each kind with arguments, optional ones marked', () => {
    const text = formatListing({
      tools: [
        {
          name: 'search',
          description: 'Find',
          inputSchema: { type: 'object', properties: { q: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['q'] },
        },
      ],
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

describe('typemcp dev: what a crash says', () => {
  it('turns an SWC diagnostic into file:line:column and its excerpt', () => {
    const swc = `  x Expression expected\n   ,-[/p/src/a.ts:3:1]\n 2 |   x(): string {\n 3 |     return "a" +;\n   :                 ^\n 4 |   }\n   \`----\n\n\nCaused by:\n    Syntax Error\n\nStack backtrace:\n   0: <unknown>\n`;
    expect(formatSwcError(swc, '/p')).toBe(
      'src/a.ts:3:17: SyntaxError: Expression expected\n 2 |   x(): string {\n 3 |     return "a" +;\n   :                 ^\n 4 |   }',
    );
    expect(formatSwcError('failed to load config')).toBeUndefined();
  });

  it("picks the error line of a crash's output", () => {
    expect(crashLine('/p/src/main.ts:3\nthrow new Error("x")\n^\n\nTypeError [ERR_X]: bad thing\n    at f (a.ts:1:1)')).toBe('TypeError [ERR_X]: bad thing');
    expect(crashLine('\nDefinitionError: Tool "a" is declared twice\n    at x')).toBe('DefinitionError: Tool "a" is declared twice');
    expect(crashLine('something odd\nmore')).toBe('something odd');
    expect(crashLine('')).toBeUndefined();
  });
});

describe('StdioRelay', () => {
  const lines = (stream: PassThrough) => {
    const got: Record<string, unknown>[] = [];
    stream.on('data', (chunk: Buffer) =>
      got.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      ),
    );
    return got;
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const server = () => {
    const pipes = { stdin: new PassThrough(), stdout: new PassThrough() };
    return { pipes, received: lines(pipes.stdin) };
  };

  it('holds requests sent during a restart for the new server and answers them at once while it is down', async () => {
    const client = new PassThrough();
    const toClient = new PassThrough();
    const answers = lines(toClient);
    const relay = new StdioRelay(client, toClient, () => undefined);
    const first = server();
    relay.attach(first.pipes);
    client.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
    await tick();
    expect(first.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }]);
    first.pipes.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    await tick();
    expect(answers.splice(0)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);

    relay.detach();
    client.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    await tick();
    expect(answers).toEqual([]);
    const second = server();
    relay.attach(second.pipes);
    await tick();
    expect(second.received).toEqual([{ jsonrpc: '2.0', id: 'typemcp-dev-replay-1', method: 'initialize', params: {} }]);
    second.pipes.stdout.write('{"jsonrpc":"2.0","id":"typemcp-dev-replay-1","result":{"capabilities":{"tools":{"listChanged":true}}}}\n');
    await tick();
    expect(second.received.slice(1)).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
    expect(answers).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);

    relay.down('src/main.ts exited with code 1: SyntaxError: x');
    expect(answers[1]).toMatchObject({
      id: 2,
      error: { code: -32603, message: expect.stringContaining('the server is not running (src/main.ts exited with code 1: SyntaxError: x)') },
    });
    client.write('{"jsonrpc":"2.0","id":3,"method":"tools/call"}\n{"jsonrpc":"2.0","method":"notifications/cancelled"}\n');
    await tick();
    expect(answers.slice(2)).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32603, message: expect.stringContaining('SyntaxError: x') } }]);
    relay.close();
  });
});

describe('asciiOnly (the bundle written as ASCII)', () => {
  /** The value of the expression `source`, evaluated. */
  const evaluate = (source: string): unknown => runInNewContext(source);

  it('escapes what esbuild leaves (regular expression literals): the same expressions, in ASCII', () => {
    const cases: Array<[string, string[]]> = [
      ['/^[A-ZÁČĎÉ]+$/i', ['ČÁD', 'čád', 'CAT', 'ÿ']],
      ['/^[А-Я]+$/i', ['ПРИВЕТ', 'привет', 'HELLO']],
      ['/[😀-😂]/u', ['😁', 'x', '\ud83d']],
      ['/😀/', ['😀', '\ud83d']],
      ['/\\\\é/', ['\\é', 'é']],
    ];
    for (const [literal, inputs] of cases) {
      const escaped = asciiOnly(literal);
      expect(escaped).not.toMatch(/[\u0080-\uffff]/);
      const [before, after] = [evaluate(literal), evaluate(escaped)] as RegExp[];
      for (const input of inputs) expect([literal, input, after!.test(input)]).toEqual([literal, input, before!.test(input)]);
    }
    // Comments and ASCII text are left as they are.
    expect(asciiOnly('/* café */ x')).toBe('/* caf\\u00e9 */ x');
    expect(asciiOnly('const a = "plain";')).toBe('const a = "plain";');
  });

  it('leaves the whole source as it is where a character stands after an odd run of backslashes (an identity escape)', () => {
    const source = 'const r = /\\é/; const s = /Á/;';
    expect(asciiOnly(source)).toBe(source);
  });
});
