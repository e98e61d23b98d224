/** Declares the fixture afresh for each test and closes every client the test opened. */
import { getMetadataStorage } from '@typemcp/core';
import { createTestClient, type TestClient, type TestClientOptions } from '@typemcp/testing';
import { defineFixture, type Fixture } from './fixture';

const open: TestClient[] = [];

/** The fixture of the current test. */
export let fx: Fixture;

beforeEach(() => {
  getMetadataStorage().reset();
  fx = defineFixture();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** A client on a fresh server serving ShopService (unless `services` or `server` says otherwise). */
export async function connect(options: Partial<TestClientOptions> = {}): Promise<TestClient> {
  const client = await createTestClient({ services: [fx.ShopService], ...options } as TestClientOptions);
  open.push(client);
  return client;
}
