/**
 * Engine hooks in a real process over real pipes (needs `npx tsc -b`): the official SDK client
 * spawns a built engine serving one tool over stdio; the hooks write what they see to a file,
 * which must show the session open, each request and its response with a duration, the client's
 * notification and the session close, in order.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const DIST = join(__dirname, '../dist/index.js');

function serverScript(logFile: string): string {
  return `const fs = require('node:fs');
const p = require(${JSON.stringify(DIST)});
const line = (entry) => fs.appendFileSync(${JSON.stringify(logFile)}, JSON.stringify(entry) + '\\n');
const server = new p.ProtocolServer({
  serverInfo: { name: 'hooks-e2e', version: '1.0.0' },
  hooks: {
    onSessionOpen: () => line({ hook: 'open' }),
    onRequest: (e) => line({ hook: 'request', method: e.method, params: e.params }),
    onResponse: (e) => line({ hook: 'response', method: e.method, ok: e.ok, durationMs: e.durationMs, text: e.result && e.result.content ? e.result.content[0].text : undefined }),
    onNotification: (e) => line({ hook: 'notification', method: e.method }),
    onSessionClose: () => line({ hook: 'close' }),
  },
});
server.registry.addTool({ name: 'wait', description: 'Answers after 30 ms', inputSchema: { type: 'object' } }, () =>
  new Promise((resolve) => setTimeout(() => resolve({ content: [{ type: 'text', text: 'done' }] }), 30)));
p.serveStdio(server, { banner: false }).closed.then(() => process.exit(0));`;
}

describe('engine hooks over stdio with the official SDK client', () => {
  it('see the session, its requests with durations, its notification and its close, in order', async () => {
    if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run "npx tsc -b" first`);
    const dir = mkdtempSync(join(tmpdir(), 'typemcp-hooks-'));
    const logFile = join(dir, 'hooks.jsonl');
    try {
      const client = new Client({ name: 'sdk', version: '1.0.0' });
      const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', serverScript(logFile)], stderr: 'pipe' });
      await client.connect(transport);
      const result = await client.callTool({ name: 'wait', arguments: { n: 1 } });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      await client.close();
      const deadline = Date.now() + 5000;
      const read = () =>
        existsSync(logFile)
          ? readFileSync(logFile, 'utf8')
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as Record<string, unknown>)
          : [];
      while (!read().some((e) => e.hook === 'close') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

      const log = read();
      expect(log.map((e) => [e.hook, e.method].filter(Boolean).join(' '))).toEqual([
        'open',
        'request initialize',
        'response initialize',
        'notification notifications/initialized',
        'request tools/call',
        'response tools/call',
        'close',
      ]);
      const call = log.find((e) => e.hook === 'response' && e.method === 'tools/call')!;
      expect(call).toMatchObject({ ok: true, text: 'done' });
      expect(call.durationMs).toBeGreaterThanOrEqual(25);
      expect(log.find((e) => e.hook === 'request' && e.method === 'tools/call')!.params).toEqual({ name: 'wait', arguments: { n: 1 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
