// CPU cost of one `tools/call` in process, telemetry off vs on: the decorated everything server's
// DTO-validated `add`, driven through `engine.connect()` with an in-memory transport (no I/O, no
// event-loop waits beyond the handler's own), measured with process.cpuUsage() so the number does
// not depend on how loaded the machine is (unlike wall-clock ratios).
//
//   node bench/otel-cpu.mjs [--otel] [--otel-dist DIR] [--calls N] [--inflight K] [--repeat R]
//
// --otel registers the OpenTelemetry SDK with discarding exporters (bench/servers/otel-sdk.mjs)
// and instruments the engine, as the `typemcp-otel` contestant does. Prints the median µs of CPU
// per call over R repeats (each N calls, K in flight) after a warm-up of N calls.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { registerOtelSdk } from './servers/otel-sdk.mjs';

const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: {
    otel: { type: 'boolean', default: false },
    calls: { type: 'string', default: '20000' },
    inflight: { type: 'string', default: '1' },
    repeat: { type: 'string', default: '5' },
    // Another build of @typemcp/otel to compare with (a dist directory, relative to this file).
    'otel-dist': { type: 'string', default: '../packages/otel/dist' },
  },
});
const calls = Number(values.calls);
const inflight = Number(values.inflight);
const repeat = Number(values.repeat);

if (values.otel) registerOtelSdk();
const { createEverythingServer } = require('../apps/everything/dist/everything.server.js');
const server = createEverythingServer();
if (values.otel) require(`${values['otel-dist']}/index.js`).instrumentServer(server.engine);

const waiting = new Map();
const session = server.engine.connect({
  send(message) {
    const msg = JSON.parse(message);
    const resolve = waiting.get(msg.id);
    if (resolve === undefined) return;
    waiting.delete(msg.id);
    if (msg.error || msg.result?.isError) throw new Error(`unexpected answer ${message.slice(0, 300)}`);
    resolve(msg);
  },
});
let nextId = 1;
function call(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    session.receive(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  });
}

await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'otel-cpu', version: '1' } });
session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

async function run(n) {
  let sent = 0;
  const worker = async () => {
    while (sent < n) {
      const i = sent++;
      await call('tools/call', { name: 'add', arguments: { a: i, b: 7 } });
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
}

await run(calls); // warm-up (JIT)
const samples = [];
for (let r = 0; r < repeat; r++) {
  const before = process.cpuUsage();
  await run(calls);
  const used = process.cpuUsage(before);
  samples.push((used.user + used.system) / calls);
}
samples.sort((a, b) => a - b);
const median = samples[Math.floor(samples.length / 2)];
console.log(
  `telemetry ${values.otel ? 'on ' : 'off'} inflight ${inflight}: ${median.toFixed(2)} µs CPU/call (median of ${repeat} x ${calls}; all ${samples.map((s) => s.toFixed(2)).join(' ')})`,
);
session.close?.();
process.exit(0);
