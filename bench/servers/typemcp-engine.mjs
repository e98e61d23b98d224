// @typemcp/protocol alone (no decorators, no DTO validation): the engine and stdio transport
// with an `add` tool registered on the registry, its two arguments checked by hand. Separates
// the engine's cost from the authoring layer's (typemcp = the decorated everything server).
import { createRequire } from 'node:module';
import { registerAdd } from './add-tool.mjs';

const protocol = createRequire(import.meta.url)('../../packages/protocol/dist/index.js');
const { ProtocolServer, serveStdio } = protocol;

const server = new ProtocolServer({ serverInfo: { name: 'typemcp-engine', version: '1.0.0' } });
registerAdd(server, protocol);
serveStdio(server).closed.then(() => process.exit(0));
