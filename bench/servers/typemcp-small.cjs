// The project `npm create typemcp` generates (blank template: one service, one tool taking a
// class-validator DTO), as tsc compiles it to CommonJS with emitDecoratorMetadata, in one file.
// TYPEMCP_BENCH_ROOT: the checkout whose build to serve (bench/cold-start.mjs --baseline). Its
// libraries are taken from that checkout's node_modules too, as in a generated project: a second
// copy of class-validator (this checkout's, next to the baseline's) would add ~130 ms to one side.
'use strict';
const path = require('node:path');
const root = process.env.TYPEMCP_BENCH_ROOT ?? path.resolve(__dirname, '../..');
const fromRoot = (id) => require(require.resolve(id, { paths: [root] }));
fromRoot('reflect-metadata');
const { createServer, Description, McpService, Tool } = require(path.join(root, 'packages/core/dist/index.js'));
const { IsString } = fromRoot('class-validator');

const decorate = (decorators, target, key, desc) => Reflect.decorate(decorators, target, key, desc);
const metadata = (k, v) => Reflect.metadata(k, v);

class EchoInput {}
decorate([IsString(), Description('The text to send back'), metadata('design:type', String)], EchoInput.prototype, 'text', void 0);

class EchoService {
  echo(input) {
    return input.text;
  }
}
decorate(
  [
    Tool({ description: 'Sends the given text back unchanged.', annotations: { readOnlyHint: true } }),
    metadata('design:type', Function),
    metadata('design:paramtypes', [EchoInput]),
    metadata('design:returntype', String),
  ],
  EchoService.prototype,
  'echo',
  Object.getOwnPropertyDescriptor(EchoService.prototype, 'echo'),
);
decorate([McpService()], EchoService);

async function main() {
  const connection = await createServer({ name: 'small', version: '0.1.0', services: [EchoService] }).listen({ transport: 'stdio', banner: false });
  await connection.closed;
  process.exit(0);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
