/**
 * Start-up with a schema manifest, in process: what createServer() takes from a manifest whose
 * fingerprint matches, and what makes it ignore one (with one TYPEMCP_WARN_STALE_MANIFEST
 * warning per file and process). The manifests are written by hand here; the one `typemcp build`
 * writes is tested end to end in apps/everything/test/schema-manifest.e2e.spec.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { IsInt, IsString } from 'class-validator';
import { createServer, getMetadataStorage, McpService, Tool, type DefinitionWarning, type JsonObject, type ServerOptions } from '@typemcp/core';

const dir = mkdtempSync(path.join(os.tmpdir(), 'typemcp-manifest-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => getMetadataStorage().reset());

const version = (file: string) => (JSON.parse(readFileSync(require.resolve(file), 'utf8')) as { version: string }).version;
const VERSIONS = {
  '@typemcp/core': version('../package.json'),
  '@typemcp/protocol': version('@typemcp/protocol/package.json'),
  'class-validator': version('class-validator/package.json'),
  'class-transformer': version('class-transformer/package.json'),
  'class-validator-jsonschema': version('class-validator-jsonschema/package.json'),
};

let fileCount = 0;
/** Writes a manifest (a fresh file each time: verdicts are kept per file and process); returns its path. */
function manifest(schemas: Record<string, { dto: string; schema: JsonObject }>, fingerprint: { versions?: object; files?: object } = {}): string {
  const file = path.join(dir, `m${++fileCount}.json`);
  writeFileSync(file, JSON.stringify({ format: 2, fingerprint: { versions: VERSIONS, files: {}, ...fingerprint }, schemas }));
  return file;
}

function declare() {
  class AddInput {
    @IsInt() a!: number;
    @IsInt() b!: number;
  }
  class Sum {
    @IsString() text!: string;
  }
  @McpService()
  class Calc {
    @Tool({ description: 'Adds', output: Sum })
    add(input: AddInput) {
      return { text: String(input.a + input.b) };
    }
  }
  return Calc;
}

const FROM_MANIFEST: JsonObject = { type: 'object', properties: { a: { type: 'integer', description: 'from the manifest' } } };

/** The tools a server built with `options` lists, and the warnings it reported. */
function toolsOf(options: Partial<ServerOptions>): {
  tools: { name: string; inputSchema: JsonObject; outputSchema?: JsonObject }[];
  warnings: DefinitionWarning[];
} {
  const warnings: DefinitionWarning[] = [];
  const server = createServer({ name: 'm', version: '1', services: [declare()], onWarning: (w) => warnings.push(w), ...options });
  const answers: { result?: { tools: never[] } }[] = [];
  const session = server.engine.connect({ send: (text) => answers.push(JSON.parse(text)) });
  const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize }));
  session.receive(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  return { tools: answers[1]!.result!.tools, warnings };
}

const derived = () => toolsOf({ schemaManifest: false }).tools[0]!;

/** A file's fingerprint as `typemcp build` writes it: its length and CRC-32 (hex). */
const fingerprintOf = (file: string) => {
  const bytes = readFileSync(file);
  return `${bytes.length}:${crc32(bytes).toString(16)}`;
};

it('takes the schemas while every fingerprinted project file is unchanged, and serves them frozen like derived ones', () => {
  writeFileSync(path.join(dir, 'kept.js'), 'module.exports = 3;\n');
  const file = manifest({ 'Calc.add:input': { dto: 'AddInput', schema: FROM_MANIFEST } }, { files: { 'kept.js': fingerprintOf(path.join(dir, 'kept.js')) } });
  const warnings: DefinitionWarning[] = [];
  const server = createServer({ name: 'm', version: '1', services: [declare()], onWarning: (w) => warnings.push(w), schemaManifest: file });
  expect(warnings).toEqual([]);
  const served = server.engine.registry.listTools()[0]!.inputSchema as JsonObject;
  expect(served).toEqual(FROM_MANIFEST);
  expect(Object.isFrozen(served) && Object.isFrozen(served.properties) && Object.isFrozen((served.properties as JsonObject).a)).toBe(true);
});

it('takes a tool schema from a manifest whose fingerprint matches, when the method and the DTO name match', () => {
  const file = manifest({ 'Calc.add:input': { dto: 'AddInput', schema: FROM_MANIFEST } });
  const { tools, warnings } = toolsOf({ schemaManifest: file });
  expect(warnings).toEqual([]);
  expect(tools[0]!.inputSchema).toEqual(FROM_MANIFEST);
  // Not in the manifest: derived at start-up.
  expect(tools[0]!.outputSchema).toEqual(derived().outputSchema);
});

it('derives the schema when the manifest has it under another DTO name (another class served under that method)', () => {
  const file = manifest({ 'Calc.add:input': { dto: 'OtherInput', schema: FROM_MANIFEST } });
  expect(toolsOf({ schemaManifest: file }).tools[0]!.inputSchema).toEqual(derived().inputSchema);
});

it('keys schemas by the schema options that change them: a manifest built with the defaults does not serve inlineRefs', () => {
  const file = manifest({ 'Calc.add:input': { dto: 'AddInput', schema: FROM_MANIFEST } });
  expect(toolsOf({ schemaManifest: file, schema: { inlineRefs: true } }).tools[0]!.inputSchema).toEqual(derived().inputSchema);
  const keyed = manifest({ 'Calc.add:input:inlineRefs': { dto: 'AddInput', schema: FROM_MANIFEST } });
  expect(toolsOf({ schemaManifest: keyed, schema: { inlineRefs: true } }).tools[0]!.inputSchema).toEqual(FROM_MANIFEST);
});

const stale: [string, () => string, string][] = [
  [
    'another version of a schema library',
    () => manifest({}, { versions: { ...VERSIONS, 'class-validator': '0.0.1' } }),
    `built with class-validator 0.0.1, running ${VERSIONS['class-validator']}`,
  ],
  [
    'a project file that changed',
    () => {
      writeFileSync(path.join(dir, 'code.js'), 'module.exports = 2;\n');
      return manifest({}, { files: { 'code.js': '0'.repeat(64) } });
    },
    'code.js changed',
  ],
  [
    'a project file changed to other bytes of the same length',
    () => {
      writeFileSync(path.join(dir, 'same.js'), 'module.exports = 1;\n');
      const file = manifest({}, { files: { 'same.js': fingerprintOf(path.join(dir, 'same.js')) } });
      writeFileSync(path.join(dir, 'same.js'), 'module.exports = 7;\n');
      return file;
    },
    'same.js changed',
  ],
  ['a project file that is gone', () => manifest({}, { files: { 'gone.js': '0'.repeat(64) } }), 'gone.js is gone'],
  [
    'an older format (sha256 fingerprints)',
    () => {
      const file = manifest({});
      writeFileSync(file, readFileSync(file, 'utf8').replace('"format":2', '"format":1'));
      return file;
    },
    'format 1, this @typemcp/core reads format 2',
  ],
  [
    'a file that is not a manifest',
    () => (writeFileSync(path.join(dir, 'x.json'), '{"hello":1}'), path.join(dir, 'x.json')),
    'it is not a TypeMCP schema manifest',
  ],
  ['a file that is not JSON', () => (writeFileSync(path.join(dir, 'y.json'), '{'), path.join(dir, 'y.json')), 'it cannot be read ('],
  ['a path that does not exist', () => path.join(dir, 'missing.json'), 'the file does not exist'],
];

it.each(stale)('ignores a manifest with %s, with one warning saying why, and derives the schemas', (_case, make, why) => {
  const file = make();
  const first = toolsOf({ schemaManifest: file });
  expect(first.tools[0]).toEqual(derived());
  expect(first.warnings).toEqual([{ code: 'TYPEMCP_WARN_STALE_MANIFEST', message: expect.stringContaining(`is not used: ${why}`) }]);
  // Once per file and process: a second server says nothing more.
  expect(toolsOf({ schemaManifest: file }).warnings).toEqual([]);
});

it('reads no manifest with schemaManifest: false or TYPEMCP_MANIFEST=off, and takes TYPEMCP_MANIFEST=<file> as the path', () => {
  const file = manifest({ 'Calc.add:input': { dto: 'AddInput', schema: FROM_MANIFEST } });
  const saved = process.env.TYPEMCP_MANIFEST;
  try {
    process.env.TYPEMCP_MANIFEST = file;
    expect(toolsOf({}).tools[0]!.inputSchema).toEqual(FROM_MANIFEST);
    expect(toolsOf({ schemaManifest: false }).tools[0]!.inputSchema).toEqual(derived().inputSchema);
    process.env.TYPEMCP_MANIFEST = 'off';
    expect(toolsOf({ schemaManifest: file }).tools[0]!.inputSchema).toEqual(derived().inputSchema);
  } finally {
    if (saved === undefined) delete process.env.TYPEMCP_MANIFEST;
    else process.env.TYPEMCP_MANIFEST = saved;
  }
});
