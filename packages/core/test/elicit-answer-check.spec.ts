/**
 * `ctx.elicit(Dto)` answers are checked without compiling a flat form's schema
 * (DtoValidator.answer, flat-schema-check.ts): `typemcp build` never sees those DTOs, so no
 * precompiled validator exists for them, and workerd forbids compiling one. Node's equivalent,
 * `--disallow-code-generation-from-strings`, runs the built package in a fresh process, with a
 * real engine session whose client answers the server's `elicitation/create` request; the same
 * script without the flag (Ajv compiles) is the control for the messages.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '../dist/index.js');

const script = `
  require('reflect-metadata');
  const core = require(${JSON.stringify(CORE)});
  const { IsInt, IsString, Min, IsUrl } = require('class-validator');
  const prop = (cls, name, type, ...decorators) => {
    Reflect.defineMetadata('design:type', type, cls.prototype, name);
    for (const d of decorators) d(cls.prototype, name);
  };
  class Person {}
  prop(Person, 'name', String, IsString());
  prop(Person, 'age', Number, IsInt(), Min(1));
  class Site {}
  prop(Site, 'url', String, IsUrl());
  class Service {}
  const tool = (name, fn, paramtypes) => {
    Service.prototype[name] = fn;
    Reflect.defineMetadata('design:paramtypes', paramtypes, Service.prototype, name);
    core.Tool({ description: name })(Service.prototype, name, Object.getOwnPropertyDescriptor(Service.prototype, name));
  };
  tool('askPerson', async function (ctx) {
    const answer = await ctx.elicit('Who are you?', Person);
    return answer.action === 'accept' ? answer.content.name + ' is ' + answer.content.age + (answer.content instanceof Person ? ' (a Person)' : '') : answer.action;
  }, [core.Context]);
  tool('askSite', async function (ctx) {
    const answer = await ctx.elicit('Which site?', Site);
    return answer.content.url;
  }, [core.Context]);
  // Arguments (not an answer): checked by a compiled schema, so the control of the flag.
  tool('greet', function (person) { return 'hi ' + person.name; }, [Person]);
  core.McpService()(Service);
  const server = core.createServer({ name: 'n', version: '1', services: [Service], onWarning: () => {} });
  const answers = process.argv.slice(1).map((a) => JSON.parse(a));
  const results = {};
  let next = 0;
  const session = server.engine.connect({ send: (text) => {
    const message = JSON.parse(text);
    if (message.method === 'elicitation/create') {
      session.receive(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answers[next++] }));
      return;
    }
    if (message.id === undefined || message.id === 1) return;
    results[message.id] = message.result ? { text: message.result.content[0].text, isError: message.result.isError === true } : message.error;
    if (Object.keys(results).length === 5) { console.log(JSON.stringify(results)); process.exit(0); }
  } });
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 't', version: '1' } } }));
  session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const call = (id, name, args) => session.receive(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }));
  (async () => {
    call(2, 'askPerson', {});
    await new Promise((r) => setTimeout(r, 50));
    call(3, 'askPerson', {});
    await new Promise((r) => setTimeout(r, 50));
    call(4, 'askSite', {});
    await new Promise((r) => setTimeout(r, 50));
    call(5, 'greet', { name: 'Ada', age: 36 });
    call(6, 'greet', { name: 7, age: 36 });
  })();`;

type Results = Record<string, { text: string; isError: boolean }>;

function run(nodeArgs: string[]): Results {
  const answers = [
    { action: 'accept', content: { name: 'Ada', age: 36 } },
    { action: 'accept', content: { name: 'Bo', age: 0, extra: true } },
    { action: 'accept', content: { url: 'https://example.com' } },
  ].map((a) => JSON.stringify(a));
  const { TYPEMCP_VALIDATORS: _v, TYPEMCP_MANIFEST: _m, ...env } = process.env;
  return JSON.parse(
    execFileSync(process.execPath, [...nodeArgs, '-e', script, ...answers], { encoding: 'utf8', cwd: __dirname, env, stdio: ['ignore', 'pipe', 'pipe'] }),
  ) as Results;
}

describe('ctx.elicit(Dto) where code generation is forbidden', () => {
  it('checks a flat form’s answer without compiling, with the messages Ajv gives; a schema that is not flat still needs a compile', () => {
    const forbidden = run(['--disallow-code-generation-from-strings']);
    const allowed = run([]);
    expect(forbidden['2']).toEqual({ text: 'Ada is 36 (a Person)', isError: false });
    expect(forbidden['3']!.isError).toBe(true);
    expect(forbidden['3']!.text).toMatch(/^The answer to "Who are you\?" is invalid: /);
    expect(forbidden['3']!.text).toContain('`age` must be at least 1');
    expect(forbidden['3']!.text).toContain('unknown field `extra`');
    // The same answers where Ajv compiles: the same words.
    expect(allowed['2']).toEqual(forbidden['2']);
    expect(allowed['3']).toEqual(forbidden['3']);
    // @IsUrl publishes `format: "uri"`: not flat, so it is compiled, which the flag forbids (masked).
    expect(allowed['4']).toEqual({ text: 'https://example.com', isError: false });
    expect(forbidden['4']).toEqual({ text: 'Tool "askSite" failed: internal error', isError: true });
    // Arguments are checked by a compiled schema (or a precompiled one): the flag is in force.
    expect(allowed['5']).toEqual({ text: 'hi Ada', isError: false });
    expect(forbidden['5']).toEqual({ text: 'Tool "greet" failed: internal error', isError: true });
    expect(allowed['6']!.text).toContain('`name` must be a string');
  });
});
