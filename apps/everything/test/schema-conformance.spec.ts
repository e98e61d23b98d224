/**
 * The schema machinery behind the conformance checks of sdk-client.e2e.spec.ts (which validates
 * every message the server sent in its sessions against the closed schema of the negotiated
 * revision). Here: the closed schemas reject what a revision lacks, where the official open
 * schemas let it through; they keep the free-form places open; and validateServerTraffic flags
 * bad traffic. Without these, a "zero validation errors" result could be vacuous.
 */
import {
  closedSpec,
  describeFailures,
  REVISIONS,
  validateAgainst,
  validateServerTraffic,
  type JsonObject,
  type Revision,
  type WireEntry,
} from '../../../test/support/spec-schemas';

const tool = (extra: JsonObject = {}): JsonObject => ({
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
  ...extra,
});
const text = (extra: JsonObject = {}): JsonObject => ({ type: 'text', text: 'hi', ...extra });

/** The additional properties ajv reported, e.g. ['title']. */
const extraProperties = (errors: ReturnType<typeof validateAgainst>) =>
  [...new Set(errors.filter((e) => e.keyword === 'additionalProperties').map((e) => String(e.params.additionalProperty)))].sort();

describe('closed MCP schemas', () => {
  it.each(REVISIONS)('closes the emitted definitions of %s and still accepts valid values', (revision) => {
    expect(closedSpec(revision).closedCount).toBeGreaterThan(30);
    expect(validateAgainst(revision, 'Tool', tool(), 'closed')).toEqual([]);
    expect(validateAgainst(revision, 'CallToolResult', { content: [text()], isError: false }, 'closed')).toEqual([]);
    expect(validateAgainst(revision, 'EmptyResult', {}, 'closed')).toEqual([]);
    expect(validateAgainst(revision, 'EmptyResult', { _meta: { anything: [1, 2] } }, 'closed')).toEqual([]);
    expect(
      validateAgainst(
        revision,
        'InitializeResult',
        { protocolVersion: revision, capabilities: { tools: { listChanged: true }, logging: {} }, serverInfo: { name: 's', version: '1' } },
        'closed',
      ),
    ).toEqual([]);
  });

  it('a Tool with a `title` passes the open 2024-11-05 schema but fails the closed one', () => {
    const titled = tool({ title: 'Add' });
    expect(validateAgainst('2024-11-05', 'Tool', titled, 'open')).toEqual([]);
    const errors = validateAgainst('2024-11-05', 'Tool', titled, 'closed');
    expect(errors).not.toEqual([]);
    expect(extraProperties(errors)).toEqual(['title']);
  });

  // Each value is fine for a later revision, and lacks nothing the open schema checks; only
  // closing the definition catches the field the revision does not have.
  const lacking: [Revision, string, JsonObject, string[]][] = [
    ['2024-11-05', 'Tool', tool({ annotations: { readOnlyHint: true } }), ['annotations']],
    ['2024-11-05', 'Tool', tool({ icons: [{ src: 'https://example.com/i.png' }] }), ['icons']],
    ['2025-03-26', 'Tool', tool({ title: 'Add', outputSchema: { type: 'object' } }), ['outputSchema', 'title']],
    ['2025-06-18', 'Tool', tool({ icons: [{ src: 'https://example.com/i.png' }] }), ['icons']],
    ['2025-11-25', 'Tool', tool({ surprise: true }), ['surprise']],
    ['2024-11-05', 'CallToolResult', { content: [text()], structuredContent: { a: 1 } }, ['structuredContent']],
    ['2025-03-26', 'CallToolResult', { content: [text({ _meta: { a: 1 } })] }, ['_meta']],
    ['2024-11-05', 'InitializeResult', { protocolVersion: '2024-11-05', capabilities: {}, serverInfo: { name: 's', title: 'S', version: '1' } }, ['title']],
    ['2024-11-05', 'ServerCapabilities', { logging: {}, completions: {} }, ['completions']],
    ['2025-06-18', 'Implementation', { name: 's', version: '1', description: 'd' }, ['description']],
    ['2024-11-05', 'Resource', { uri: 'test://x', name: 'x', title: 'X' }, ['title']],
    ['2024-11-05', 'Resource', { uri: 'test://x', name: 'x', annotations: { priority: 1, lastModified: '2025-01-01T00:00:00Z' } }, ['lastModified']],
    ['2025-03-26', 'PromptArgument', { name: 'a', title: 'A', required: true }, ['title']],
    ['2025-03-26', 'TextResourceContents', { uri: 'test://x', text: 't', _meta: {} }, ['_meta']],
    ['2025-06-18', 'EmptyResult', { unexpected: 1 }, ['unexpected']],
    ['2025-06-18', 'ListToolsResult', { tools: [], extra: 1 }, ['extra']],
    ['2024-11-05', 'JSONRPCError', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'm', hint: 'x' } }, ['hint']],
    ['2025-11-25', 'JSONRPCResultResponse', { jsonrpc: '2.0', id: 1, result: {}, extra: true }, ['extra']],
  ];
  it.each(lacking.map(([revision, name, value, fields]) => [revision, name, fields.join(' + '), value, fields] as const))(
    '%s %s with %s: the open schema passes it, the closed one rejects it',
    (revision, name, _label, value, fields) => {
      expect(validateAgainst(revision, name, value, 'open')).toEqual([]);
      // (Inside an anyOf, the other branches report their own extra properties too.)
      expect(extraProperties(validateAgainst(revision, name, value, 'closed'))).toEqual(expect.arrayContaining(fields));
    },
  );

  it('closes notification params (2024-11-05 progress has no `message`; 2025-11-25 params are separate definitions)', () => {
    const progress = { method: 'notifications/progress', params: { progressToken: 1, progress: 50, total: 100, message: 'half' } };
    expect(validateAgainst('2024-11-05', 'ServerNotification', progress, 'open')).toEqual([]);
    expect(validateAgainst('2024-11-05', 'ServerNotification', progress, 'closed')).not.toEqual([]);
    expect(validateAgainst('2025-03-26', 'ServerNotification', progress, 'closed')).toEqual([]);
    const updated = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://x', title: 'X' } };
    expect(validateAgainst('2025-11-25', 'ServerNotification', updated, 'open')).toEqual([]);
    expect(validateAgainst('2025-11-25', 'ServerNotification', updated, 'closed')).not.toEqual([]);
  });

  it('closes the elicitation primitive schemas (2025-06-18 has no `default` on strings, no multi-select)', () => {
    const request = (properties: JsonObject) => ({
      method: 'elicitation/create',
      params: { message: 'm', requestedSchema: { type: 'object', properties } },
    });
    expect(validateAgainst('2025-06-18', 'ServerRequest', request({ a: { type: 'string', title: 'A' } }), 'closed')).toEqual([]);
    const withDefault = request({ a: { type: 'string', default: 'x' } });
    expect(validateAgainst('2025-06-18', 'ServerRequest', withDefault, 'open')).toEqual([]);
    expect(validateAgainst('2025-06-18', 'ServerRequest', withDefault, 'closed')).not.toEqual([]);
    const multi = request({ a: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } } });
    expect(validateAgainst('2025-06-18', 'ServerRequest', multi, 'open')).not.toEqual([]);
    expect(validateAgainst('2025-11-25', 'ServerRequest', { jsonrpc: '2.0', id: 1, ...multi, params: { ...multi.params, mode: 'form' } }, 'closed')).toEqual(
      [],
    );
  });

  it('rejects content types a revision does not have, open or closed', () => {
    const audio = { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] };
    const link = { content: [{ type: 'resource_link', uri: 'test://x', name: 'x' }] };
    for (const variant of ['open', 'closed'] as const) {
      expect(validateAgainst('2024-11-05', 'CallToolResult', audio, variant)).not.toEqual([]);
      expect(validateAgainst('2025-03-26', 'CallToolResult', audio, variant)).toEqual([]);
      expect(validateAgainst('2025-03-26', 'CallToolResult', link, variant)).not.toEqual([]);
      expect(validateAgainst('2025-06-18', 'CallToolResult', link, variant)).toEqual([]);
    }
  });

  it('keeps the free-form places open', () => {
    // JSON Schema documents: any keyword, at any depth.
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { city: { type: 'string', 'x-anything': 1 } } } },
      properties: { address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
      'x-vendor': { nested: true },
    };
    expect(validateAgainst('2024-11-05', 'Tool', tool({ inputSchema: schema }), 'closed')).toEqual([]);
    expect(validateAgainst('2025-06-18', 'Tool', tool({ inputSchema: schema, outputSchema: schema, _meta: { 'vendor/x': { y: [1] } } }), 'closed')).toEqual([]);
    // structuredContent and _meta
    expect(
      validateAgainst('2025-06-18', 'CallToolResult', { content: [], structuredContent: { deep: { any: ['thing'] } }, _meta: { k: 1 } }, 'closed'),
    ).toEqual([]);
    // capability objects that are open by design
    expect(
      validateAgainst('2025-11-25', 'ServerCapabilities', { experimental: { x: { y: 1 } }, logging: { z: true }, completions: { w: 1 } }, 'closed'),
    ).toEqual([]);
    // log and error `data`
    const log = { method: 'notifications/message', params: { level: 'info', data: { any: { shape: [1] } }, logger: 'l' } };
    expect(validateAgainst('2024-11-05', 'ServerNotification', log, 'closed')).toEqual([]);
    expect(
      validateAgainst('2024-11-05', 'JSONRPCError', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm', data: { uri: 'x', n: 1 } } }, 'closed'),
    ).toEqual([]);
  });
});

describe('validateServerTraffic', () => {
  const entry = (seq: number, direction: WireEntry['direction'], message: JsonObject): WireEntry => ({ seq, at: seq, direction, message });

  it('validates results by the method of the request with that id, and flags bad traffic', () => {
    const wire: WireEntry[] = [
      entry(0, 'client->server', {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
      entry(1, 'server->client', {
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2024-11-05', capabilities: { logging: {} }, serverInfo: { name: 's', version: '1' } },
      }),
      entry(2, 'client->server', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      entry(3, 'server->client', { jsonrpc: '2.0', id: 1, result: { tools: [tool({ title: 'Add' })] } }),
      entry(4, 'client->server', { jsonrpc: '2.0', id: 2, method: 'ping' }),
      entry(5, 'server->client', { jsonrpc: '2.0', id: 2, result: {} }),
      entry(6, 'server->client', { jsonrpc: '2.0', id: 99, result: {} }),
      entry(7, 'server->client', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, message: 'm' } }),
      entry(8, 'server->client', { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown tool' } }),
      entry(9, 'server->client', { jsonrpc: '2.0', id: 0, method: 'roots/list' }),
      entry(10, 'server->client', {
        jsonrpc: '2.0',
        id: 1,
        method: 'elicitation/create',
        params: { message: 'm', requestedSchema: { type: 'object', properties: {} } },
      }),
    ];
    const report = validateServerTraffic('2024-11-05', wire);
    expect(report.checked).toBe(8);
    expect(report.failures.map((f) => [f.seq, f.check])).toEqual([
      [3, 'ListToolsResult (tools/list)'],
      [6, 'response to a request id the client never sent'],
      [7, 'ServerNotification (notifications/progress)'],
      [10, 'ServerRequest (elicitation/create)'],
    ]);
    expect(report.byDefinition).toMatchObject({ InitializeResult: 1, ListToolsResult: 1, EmptyResult: 1, JSONRPCError: 1, ServerRequest: 2 });
    expect(describeFailures(report.failures)[0]).toContain('"additionalProperty":"title"');
  });
});
