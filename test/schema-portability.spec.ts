/**
 * Tool schemas strict clients take: the rules of the Inspector 2.12's `--strict` report (see
 * test/support/schema-portability.ts) find nothing in what the built everything server lists over
 * stdio (the official SDK client), nor in a server using every documented decorator, nullable
 * scalars and DTOs included. The rules find the form nullable scalars had before (`type` arrays).
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTestClient } from '@typemcp/testing';
import { createDocumentedServer } from './support/documented-decorators.server';
import { portabilityFindings } from './support/schema-portability';

const EVERYTHING = path.resolve(__dirname, '../apps/everything/dist/main.js');

describe('tool schemas are portable (Inspector 2.12 --strict: 0 errors, 0 warnings)', () => {
  it('in the everything server, listed over stdio', async () => {
    const client = new Client({ name: 'portability', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, '--transport', 'stdio'], stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(30);
      expect(portabilityFindings(tools)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('in a server using every documented decorator, nullable fields included', async () => {
    const client = await createTestClient({ server: createDocumentedServer() });
    try {
      const tools = await client.listTools();
      const save = tools.find((t) => t.name === 'save')!;
      // The fixture does have nullable scalars and DTOs, in inputs and outputs.
      expect(JSON.stringify(save.inputSchema)).toContain('"null"');
      expect(JSON.stringify(save.outputSchema)).toContain('"null"');
      expect(portabilityFindings(tools)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('the rules find what strict clients refuse', () => {
    const tool = (inputSchema: unknown) => ({ name: 't', inputSchema });
    expect(portabilityFindings([tool({ type: 'object', properties: { note: { type: ['string', 'null'] } } })])).toEqual([
      { tool: 't', rule: 'type-union', path: 'inputSchema.properties.note' },
    ]);
    expect(portabilityFindings([tool({ type: 'object', properties: { any: {}, no: false, far: { $ref: 'https://example.org/s' } } })])).toEqual([
      { tool: 't', rule: 'untyped-schema', path: 'inputSchema.properties.any' },
      { tool: 't', rule: 'boolean-schema', path: 'inputSchema.properties.no' },
      { tool: 't', rule: 'remote-ref', path: 'inputSchema.properties.far' },
    ]);
    expect(portabilityFindings([tool({ type: 'object', additionalProperties: false, properties: { x: { not: {} } } })])).toEqual([]);
  });
});
