/**
 * Bounds of tasks (needs `npx tsc -b`): in a child process started with --expose-gc, a built
 * engine takes 10 000 tool calls that become tasks and are abandoned (half completed and never
 * read, half parked in input_required forever), with a 4 s TTL. Once they expired, the store
 * and the running set are empty again and the heap is back near its baseline; the memory store's
 * timer does not keep the process alive.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIST = join(__dirname, '../dist/index.js');

const SCRIPT = `const p = require(${JSON.stringify(DIST)});
const TASKS = 10000;
const store = new p.MemoryTaskStore({ maxTasks: 20000 });
const server = new p.ProtocolServer({ serverInfo: { name: 'expiry', version: '1.0.0' }, tasks: { store, defaultTtlMs: 4000 } });
server.registry.addTool(
  { name: 'job', description: 'Completes, or waits for an answer that never comes', inputSchema: { type: 'object' } },
  async (args, ctx) => {
    if (args.ask) await ctx.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
    return { content: [{ type: 'text', text: 'x'.repeat(200) }] };
  },
  { task: { support: 'optional' } },
);
let answered = 0, created = 0;
const session = server.connect({
  send(message) {
    const m = JSON.parse(message);
    if (m.id !== undefined) { answered++; if (m.result && m.result.resultType === 'task') created++; }
  },
  close() {},
});
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
let id = 0;
async function burst(n) {
  for (let i = 0; i < n; i++) {
    session.receive(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'job', arguments: { ask: i % 2 === 0 }, _meta: meta } }));
    if (i % 500 === 0) await new Promise((r) => setImmediate(r));
  }
  while (answered < id) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
}
const heap = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed; };
const settle = () => new Promise((r) => setTimeout(r, 4500));
(async () => {
  await burst(2000);
  await settle();
  const baseline = heap();
  await burst(TASKS);
  const full = { stored: store.size, running: server.tasks.running, heap: heap() };
  await settle();
  const after = { stored: store.size, running: server.tasks.running, heap: heap() };
  process.stdout.write(JSON.stringify({ created, baseline, full, after }));
  // Nothing else is pending: the store's timer is unref'd, so the process ends by itself.
})();`;

describe('tasks: 10 000 abandoned tasks expire', () => {
  it('empties the store and the running set, and the heap returns to its baseline', async () => {
    if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run "npx tsc -b" first`);
    const dir = mkdtempSync(join(tmpdir(), 'typemcp-tasks-'));
    const file = join(dir, 'expiry.cjs');
    writeFileSync(file, SCRIPT);
    try {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--expose-gc', file], { timeout: 60_000 }, (error, out, err) =>
          error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
        ),
      );
      const { created, baseline, full, after } = JSON.parse(stdout) as {
        created: number;
        baseline: number;
        full: { stored: number; running: number; heap: number };
        after: { stored: number; running: number; heap: number };
      };
      expect(created).toBe(12_000);
      // Not vacuous: all 10 000 were held, the half waiting for input still running, using memory.
      expect(full.stored).toBe(10_000);
      expect(full.running).toBe(5_000);
      expect(full.heap - baseline).toBeGreaterThan(5_000_000);
      expect(after).toMatchObject({ stored: 0, running: 0 });
      expect(after.heap - baseline).toBeLessThan(1_500_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
