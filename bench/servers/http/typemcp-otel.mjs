// `typemcp` (bench/servers/http/typemcp.mjs) with telemetry on: the OpenTelemetry SDK registered
// (bench/servers/otel-sdk.mjs) and @typemcp/otel's instrumentServer on the engine.
import { createRequire } from 'node:module';
import { registerAdd } from '../add-tool.mjs';
import { registerOtelSdk } from '../otel-sdk.mjs';
import { ready } from './ready.mjs';

const require = createRequire(import.meta.url);
registerOtelSdk();
const protocol = require('../../../packages/protocol/dist/index.js');
const { ProtocolServer } = protocol;
const { serveHttp } = require('../../../packages/http/dist/index.js');
const { instrumentServer } = require('../../../packages/otel/dist/index.js');

const engine = new ProtocolServer({ serverInfo: { name: 'typemcp-http', version: '1.0.0' } });
instrumentServer(engine);
registerAdd(engine, protocol);
const stateless = process.argv[2] !== 'sse';
const listener = await serveHttp(engine, { port: 0, sessions: stateless ? false : true, keepAliveMs: 0 });
ready(listener.port);
