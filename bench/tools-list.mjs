// tools/list with 500 tools of 10 fields each: TypeMCP (decorated services, class-validator
// DTOs) against the official SDK 1.x McpServer (zod shapes), in one process, one run.
// Both servers are driven in memory by the same raw JSON-RPC requests, so what is timed is the
// server's own work per tools/list. TypeMCP builds schemas once at start-up; the SDK converts
// zod to JSON Schema on every tools/list (typescript-sdk#1847).
//
// Usage: npm run build && node bench/tools-list.mjs [--tools 500] [--calls 200]
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createServer, McpService, Tool, getMetadataStorage } = require('../packages/core/dist/index.js');
const { IsInt, IsOptional, IsString, Max, Min } = require('class-validator');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { z } = require('zod');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TOOLS = arg('tools', 500);
const CALLS = arg('calls', 200);
const FIELDS = 10;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Decorates like `class InputN { @IsString() field0!: string; @IsOptional() @IsInt() @Min(0) @Max(99) field1?: number; ... }`. */
function dto(i) {
  const Dto = { [`Input${i}`]: class {} }[`Input${i}`];
  for (let f = 0; f < FIELDS; f++) {
    const key = `field${f}`;
    const numeric = f % 2 === 1;
    Reflect.defineMetadata('design:type', numeric ? Number : String, Dto.prototype, key);
    const decorators = numeric ? [IsInt(), Min(0), Max(99)] : [IsString()];
    if (f % 3 === 0) decorators.push(IsOptional());
    for (const d of decorators) d(Dto.prototype, key);
  }
  return Dto;
}

function typemcpServer() {
  getMetadataStorage().reset();
  class ManyTools {}
  for (let i = 0; i < TOOLS; i++) {
    const method = `tool_${i}`;
    ManyTools.prototype[method] = function (input) {
      return JSON.stringify(input);
    };
    Reflect.defineMetadata('design:paramtypes', [dto(i)], ManyTools.prototype, method);
    Tool({ description: `Tool number ${i}` })(ManyTools.prototype, method, Object.getOwnPropertyDescriptor(ManyTools.prototype, method));
  }
  McpService()(ManyTools);
  const server = createServer({ name: 'many', version: '1.0.0', services: [ManyTools], pageSize: TOOLS });
  let answer;
  const session = server.engine.connect({ send: (text) => (answer = text) });
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }));
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  // tools/list is answered synchronously by the engine: `answer` is set when receive returns.
  return async () => {
    session.receive(request);
    return answer;
  };
}

async function sdkServer() {
  const server = new McpServer({ name: 'many', version: '1.0.0' });
  for (let i = 0; i < TOOLS; i++) {
    const shape = {};
    for (let f = 0; f < FIELDS; f++) {
      let s = f % 2 === 1 ? z.number().int().min(0).max(99) : z.string();
      if (f % 3 === 0) s = s.optional();
      shape[`field${f}`] = s;
    }
    server.registerTool(`tool_${i}`, { description: `Tool number ${i}`, inputSchema: shape }, async (input) => ({ content: [{ type: 'text', text: JSON.stringify(input) }] }));
  }
  const [client, transport] = InMemoryTransport.createLinkedPair();
  await server.connect(transport);
  const waiting = new Map();
  client.onmessage = (m) => waiting.get(m.id)?.(m);
  await client.start();
  let id = 0;
  const rpc = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, (m) => (waiting.delete(n), resolve(m)));
      client.send({ jsonrpc: '2.0', id: n, method, ...(params ? { params } : {}) });
    });
  await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return async () => JSON.stringify(await rpc('tools/list'));
}

async function measure(name, build) {
  const t0 = performance.now();
  const list = await build();
  const startup = performance.now() - t0;
  const first = JSON.parse(await list());
  const tools = (first.result?.tools ?? []).length;
  for (let i = 0; i < 5; i++) await list();
  const times = [];
  let bytes = 0;
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    bytes = (await list()).length;
    times.push(performance.now() - t);
  }
  return { name, startup, tools, median: median(times), bytes };
}

// One start-up each: a second TypeMCP build in the same process would see the first one's 500
// DTO classes still in class-validator's global storage (it cannot be reset).
const rows = [await measure('typemcp', async () => typemcpServer()), await measure('sdk1', sdkServer)];
console.log(`tools/list, ${TOOLS} tools x ${FIELDS} fields, median of ${CALLS} calls\n`);
console.log('| server | tools listed | start-up ms | ms per tools/list | response bytes |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.name} | ${r.tools} | ${r.startup.toFixed(0)} | ${r.median.toFixed(3)} | ${r.bytes} |`);
