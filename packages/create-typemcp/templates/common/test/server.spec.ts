/**
 * The whole server, built as `npm start` builds it (createAppServer(), with the app's providers):
 * every service in src/services/index.ts together. It fails, as the server would at start-up,
 * when two services declare the same tool, resource or prompt, or a service cannot be built.
 */
import { createTestClient, type TestClient } from '@typemcp/testing';
import { createAppServer } from '../src/server.js';
import { services } from '../src/services/index.js';

describe('the server', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient({ server: createAppServer(), closeServer: true });
  });
  afterAll(() => client?.close());

  it('starts with every service and serves the tools of each', async () => {
    expect(client.serverInfo).toMatchObject({ name: '{{name}}', version: '0.1.0' });
    const served = (await client.listTools()).map((tool) => tool.name);
    for (const service of services) {
      const alone = await createTestClient({ server: createAppServer({ services: [service] }), closeServer: true });
      try {
        expect(served).toEqual(expect.arrayContaining((await alone.listTools()).map((tool) => tool.name)));
      } finally {
        await alone.close();
      }
    }
  });
});
