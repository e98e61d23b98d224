/**
 * The greeting service in memory: a real TypeMCP server and MCP client, no process or socket.
 * Each test gets a fresh server built by the app's own createAppServer() (its providers included),
 * serving only this service.
 */
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';
import { createAppServer } from '../src/server.js';
import { GreetingService } from '../src/services/greeting.service.js';

describe('GreetingService', () => {
  let client: TestClient;
  beforeEach(async () => {
    client = await createTestClient({ server: createAppServer({ services: [GreetingService] }), closeServer: true });
  });
  afterEach(() => client.close());

  describe('greet tool', () => {
    it('is listed with an input schema made from GreetInput', async () => {
      const [greet] = await client.listTools();
      expect(greet).toMatchObject({
        name: 'greet',
        annotations: { readOnlyHint: true },
        inputSchema: {
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100, description: 'Who to greet' },
            language: { description: 'Language of the greeting: en (default), fr, es or de' },
          },
          required: ['name'],
        },
      });
    });

    it('greets in the language asked for, English by default', async () => {
      expect(textOf(await client.callTool('greet', { name: 'Ada' }))).toBe('Hello, Ada!');
      expect(textOf(await client.callTool('greet', { name: 'Ada', language: 'fr' }))).toBe('Bonjour, Ada!');
    });

    it('answers invalid input with a tool error naming the field', async () => {
      const result = await client.callTool('greet', { name: '', language: 'xx' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('`name` must be at least 1 character long');
      expect(textOf(result)).toContain('`language` must be one of "en", "fr", "es", "de"');
    });
  });

  describe('greetings://{language} resource', () => {
    it('reads the phrase of one language', async () => {
      expect(textOf(await client.readResource('greetings://es'))).toBe('Hola');
    });

    it('completes the language variable', async () => {
      const completion = await client.complete({ type: 'ref/resource', uri: 'greetings://{language}' }, { name: 'language', value: 'e' });
      expect(completion.values).toEqual(['en', 'es']);
    });

    it('refuses a language it does not know with a protocol error', async () => {
      await expect(client.readResource('greetings://xx')).rejects.toBeInstanceOf(JsonRpcError);
    });
  });

  describe('welcome_message prompt', () => {
    it('asks the model for a welcome message', async () => {
      const prompt = await client.getPrompt('welcome_message', { name: 'Ada', team: 'the compiler team' });
      expect(textOf(prompt)).toBe('Write a short, friendly message welcoming Ada to the compiler team. Keep it under 80 words.');
    });
  });
});
