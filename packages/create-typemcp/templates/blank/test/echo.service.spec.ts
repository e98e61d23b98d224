/**
 * The echo service in memory: a real TypeMCP server and MCP client, no process or socket. The
 * server is built by the app's own createAppServer() (its providers included), serving this service only.
 */
import { createTestClient, textOf, type TestClient } from '@typemcp/testing';
import { createAppServer } from '../src/server.js';
import { EchoService } from '../src/services/echo.service.js';

describe('EchoService', () => {
  let client: TestClient;
  beforeEach(async () => {
    client = await createTestClient({ server: createAppServer({ services: [EchoService] }), closeServer: true });
  });
  afterEach(() => client.close());

  it('lists the echo tool with an input schema made from EchoInput', async () => {
    const [echo] = await client.listTools();
    expect(echo).toMatchObject({ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } });
  });

  it('sends the text back', async () => {
    expect(textOf(await client.callTool('echo', { text: 'hi there' }))).toBe('hi there');
  });

  it('answers invalid input with a tool error the model can read', async () => {
    const result = await client.callTool('echo', { text: 42 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('`text` must be a string (got number 42)');
  });
});
