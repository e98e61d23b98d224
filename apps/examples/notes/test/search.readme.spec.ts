import { createTestClient, textOf, type TestClient } from '@typemcp/testing';
import { NotesRepository } from '../src/notes.repository';
import { NotesService } from '../src/notes.service';

let client: TestClient;
afterEach(() => client.close());

it('searches with a fake repository', async () => {
  client = await createTestClient({
    services: [NotesService],
    providers: [{ provide: NotesRepository, useValue: { search: () => [] } }],
    revision: '2025-06-18',
  });
  const result = await client.callTool('search_notes', { query: 'milk' });
  expect(result.isError).toBeUndefined();
  expect(textOf(result)).toBe('No note matches "milk".');
  expect(client.logs).toEqual([]);
});
