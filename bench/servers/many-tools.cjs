// The tools-list bench's TypeMCP server: one service with N tools, each taking its own DTO of 10
// class-validator fields (`class InputN { @IsString() field0!: string; @IsOptional() @IsInt()
// @Min(0) @Max(99) field1?: number; ... }`), decorated as tsc's CommonJS output does.
// Required by bench/tools-list.mjs; run as a script (`node bench/servers/many-tools.cjs --tools N`)
// under `typemcp build` (TYPEMCP_MANIFEST_OUT set) it writes that server's schema manifest.
// TYPEMCP_BENCH_ROOT: the checkout whose build to use (--baseline).
'use strict';
const path = require('node:path');
const root = process.env.TYPEMCP_BENCH_ROOT ?? path.resolve(__dirname, '../..');
// The baseline's own reflect-metadata and class-validator, as its core loads them: one copy each.
const fromRoot = (id) => require(require.resolve(id, { paths: [root] }));
fromRoot('reflect-metadata');
const { createServer, McpService, Tool, getMetadataStorage } = require(path.join(root, 'packages/core/dist/index.js'));
const { IsInt, IsOptional, IsString, Max, Min } = fromRoot('class-validator');

const FIELDS = 10;

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

/** The server with `tools` tools; `schemaManifest` as createServer takes it (the manifest row gives a file). */
function manyToolsServer(tools, schemaManifest) {
  getMetadataStorage().reset();
  class ManyTools {}
  for (let i = 0; i < tools; i++) {
    const method = `tool_${i}`;
    ManyTools.prototype[method] = function (input) {
      return JSON.stringify(input);
    };
    Reflect.defineMetadata('design:paramtypes', [dto(i)], ManyTools.prototype, method);
    Tool({ description: `Tool number ${i}` })(ManyTools.prototype, method, Object.getOwnPropertyDescriptor(ManyTools.prototype, method));
  }
  McpService()(ManyTools);
  return createServer({ name: 'many', version: '1.0.0', services: [ManyTools], pageSize: tools, ...(schemaManifest !== undefined ? { schemaManifest } : {}) });
}

module.exports = { FIELDS, manyToolsServer };

if (require.main === module) {
  const i = process.argv.indexOf('--tools');
  const tools = i > 0 ? Number(process.argv[i + 1]) : 500;
  // Under typemcp build, listen() writes the manifest and ends the process.
  void manyToolsServer(tools).listen({ transport: 'stdio', banner: false });
}
