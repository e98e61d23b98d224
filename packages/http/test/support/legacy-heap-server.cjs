/**
 * A server process of its own for measuring the heap an idle legacy HTTP+SSE session costs: the
 * built @typemcp/http serving a one-tool engine on 127.0.0.1:0, nothing else loaded. Measured in the
 * test runner's own process the figure also carried whatever the suites run before it left behind
 * (jest runs every suite in one process on a 2-core machine): 10 KB alone, 22 KB after the whole
 * suite. Run with --expose-gc. Prints {"port"} once listening; then answers each stdin line:
 * "heap" -> {"heap": settled heapUsed}, "sessions" -> {"sessions": open sessions}.
 */
const { ProtocolServer } = require('@typemcp/protocol');
const { MemorySessionStore, serveHttp } = require('@typemcp/http');
const { createInterface } = require('node:readline');

async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    global.gc();
  }
  return process.memoryUsage().heapUsed;
}

async function main() {
  if (typeof global.gc !== 'function') throw new Error('run with --expose-gc');
  const engine = new ProtocolServer({ serverInfo: { name: 'legacy-heap', version: '1.0.0' }, onError: () => {} });
  engine.registry.addTool({ name: 'echo', description: 'echo', inputSchema: { type: 'object' } }, (args) => ({
    content: [{ type: 'text', text: String(args.text ?? '') }],
  }));
  const sessionStore = new MemorySessionStore();
  const listener = await serveHttp(engine, { port: 0, keepAliveMs: 0, sessionStore });
  const reply = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
  reply({ port: listener.port });
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'heap') reply({ heap: await settledHeap() });
    else if (line === 'sessions') reply({ sessions: sessionStore.size });
  }
  await listener.close(0);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
