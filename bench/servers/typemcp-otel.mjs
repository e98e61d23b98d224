// The `typemcp` contestant (the decorated everything server, DTO-validated `add`) with telemetry
// on: the OpenTelemetry SDK registered (bench/servers/otel-sdk.mjs), then what
// `createServer({ telemetry: true })` does, @typemcp/otel's instrumentServer on the engine.
import { createRequire } from 'node:module';
import { registerOtelSdk } from './otel-sdk.mjs';

const require = createRequire(import.meta.url);
registerOtelSdk();
const { createEverythingServer } = require('../../apps/everything/dist/everything.server.js');
const { instrumentServer } = require('../../packages/otel/dist/index.js');

const server = createEverythingServer();
instrumentServer(server.engine);
const connection = await server.listen({ transport: 'stdio', banner: false });
await connection.closed;
process.exit(0);
