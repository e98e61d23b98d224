/**
 * Start-up cost: `@typemcp/core` loads class-validator (by parts: lazy-class-validator.spec.ts)
 * and class-transformer's main entry when a DTO needs them, not when it is imported. Measured on
 * the built package in a fresh process (jest's module registry would hide it), with a real
 * session answering `initialize` and a `tools/call`.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '../dist/index.js');

/** Runs `script` after a service with one tool is declared (by hand, as tsc emits decorators); prints what it reports. */
function run(tool: string, call: string): { answers: { id: number; result?: { content?: { text: string }[] } }[]; loaded: Record<string, number> } {
  const script = `
    require('reflect-metadata');
    const core = require(${JSON.stringify(CORE)});
    class Service {}
    ${tool}
    core.McpService()(Service);
    const server = core.createServer({ name: 'n', version: '1', services: [Service] });
    const answers = [];
    const session = server.engine.connect({ send: (text) => answers.push(JSON.parse(text)) });
    session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
    session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    session.receive(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'tool', arguments: ${call} } }));
    setImmediate(() => {
      const count = (re) => Object.keys(require.cache).filter((k) => re.test(k)).length;
      console.log(JSON.stringify({ answers, loaded: {
        // Its index left out: once core is imported, the lazy one stands in its place (lazy-class-validator.spec.ts).
        classValidator: count(/[\\\\/]node_modules[\\\\/]class-validator[\\\\/](?!cjs[\\\\/]index\\.js$)/),
        validatorJs: count(/[\\\\/]node_modules[\\\\/]validator[\\\\/]/),
        classTransformerMain: count(/[\\\\/]class-transformer[\\\\/]cjs[\\\\/]index\\.js$/),
      } }));
    });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: __dirname })) as ReturnType<typeof run>;
}

describe('class-validator and class-transformer load when a DTO needs them, not at import', () => {
  it('a server whose tool takes no DTO answers initialize and a call without loading either', () => {
    const { answers, loaded } = run(
      `Service.prototype.tool = function () { return 'done'; };
       core.Tool({ description: 'no DTO' })(Service.prototype, 'tool', Object.getOwnPropertyDescriptor(Service.prototype, 'tool'));`,
      '{}',
    );
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result?.content?.[0].text).toBe('done');
    expect(loaded).toEqual({ classValidator: 0, validatorJs: 0, classTransformerMain: 0 });
  });

  // A DTO with a string field and an optional object field.
  const dtoTool = `const { IsObject, IsOptional, IsString } = require('class-validator');
     class Input {}
     Reflect.defineMetadata('design:type', String, Input.prototype, 'text');
     IsString()(Input.prototype, 'text');
     Reflect.defineMetadata('design:type', Object, Input.prototype, 'tags');
     IsOptional()(Input.prototype, 'tags');
     IsObject()(Input.prototype, 'tags');
     Service.prototype.tool = function (input) { return input.text + JSON.stringify(input.tags ?? null); };
     Reflect.defineMetadata('design:paramtypes', [Input], Service.prototype, 'tool');
     core.Tool({ description: 'a DTO' })(Service.prototype, 'tool', Object.getOwnPropertyDescriptor(Service.prototype, 'tool'));`;

  it('a tool taking a DTO loads both and validates with them (the measure above can see them)', () => {
    const { answers, loaded } = run(dtoTool, '{ "text": "hi", "tags": { "a": 1 } }');
    expect(answers[1].result?.content?.[0].text).toBe('hi{"a":1}');
    expect(loaded.classValidator).toBeGreaterThan(0);
    // Derived at run time (no manifest here): class-validator-jsonschema's converters read every decorator's name.
    expect(loaded.validatorJs).toBeGreaterThan(0);
    expect(loaded.classTransformerMain).toBe(1);
  });

  it("arguments that are all JSON scalars become the DTO's instance without class-transformer's main entry", () => {
    const { answers, loaded } = run(dtoTool, '{ "text": "hi" }');
    expect(answers[1].result?.content?.[0].text).toBe('hinull');
    expect(loaded.classValidator).toBeGreaterThan(0);
    expect(loaded.classTransformerMain).toBe(0);
  });
});
