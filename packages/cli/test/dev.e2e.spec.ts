/**
 * `typemcp dev` on a generated project, driven over stdio by the official SDK client: the
 * TypeScript source runs with decorator metadata (the DTO's schema and validation work), and an
 * edit restarts the server under the same client connection (handshake replayed, list_changed sent).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, makeProject, removeProject } from './support/project';

const text = (result: unknown) => (result as CallToolResult).content.map((b) => (b.type === 'text' ? b.text : '')).join('');

describe('typemcp dev', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('example');
  });
  afterAll(() => removeProject(dir));

  it('runs src/main.ts with decorator metadata and restarts on change without dropping the stdio client', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'dev'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    const client = new Client({ name: 'dev-test', version: '0.0.0' });
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    await client.connect(transport);
    try {
      // The schema and the validation both come from GreetInput, found through design:paramtypes.
      const [greet] = (await client.listTools()).tools;
      expect(greet!.inputSchema).toMatchObject({ properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] });
      expect(await client.callTool({ name: 'greet', arguments: { name: '' } })).toMatchObject({ isError: true });
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');

      const file = path.join(dir, 'src/services/greeting.service.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace("en: 'Hello'", "en: 'Howdy'"));
      await listChanged;
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Howdy, Ada!');
      expect(stderr).toContain('[typemcp dev] src/services/greeting.service.ts changed: restarting');
    } finally {
      await client.close();
    }
  }, 30_000);
});
