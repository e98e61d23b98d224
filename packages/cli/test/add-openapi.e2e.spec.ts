/**
 * `typemcp add openapi`, run as the built command in a project made by create-typemcp, on the
 * vendored documents (test/fixtures/openapi, see LICENSES.md there; nothing is fetched): the
 * OpenAPI Initiative's Petstore (3.0, YAML), the Swagger Petstore in 3.1 (JSON) and GitHub's REST
 * API (1223 operations, filtered to the `issues` tag). The generated code type-checks, its own
 * tests pass, and a test written into the project calls the tools against a local HTTP server
 * that serves the described API: requests arrive as the document describes them, results come
 * back (structured where the response has a schema), every published schema compiles, and bad
 * input is refused before any HTTP call. Regenerating keeps what the user wrote outside the
 * generated regions.
 */
import { gunzipSync } from 'node:zlib';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { jest as runJest, makeProject, removeProject, typecheck, typemcp } from './support/project';

const FIXTURES = path.join(__dirname, 'fixtures/openapi');

/** Calls every generated service against one local server; written into the project's test folder. */
const API_SPEC = `import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createTestClient, textOf, type TestClient } from '@typemcp/testing';
import { GithubClient } from '../src/services/github.client.js';
import { GithubService } from '../src/services/github.service.js';
import { Petstore30Client } from '../src/services/petstore30.client.js';
import { Petstore30Service } from '../src/services/petstore30.service.js';
import { Petstore31Client } from '../src/services/petstore31.client.js';
import { Petstore31Service } from '../src/services/petstore31.service.js';

interface Seen { method: string; url: string; body: string; headers: IncomingMessage['headers'] }
const seen: Seen[] = [];
const PET = { id: 7, name: 'Rex', photoUrls: ['http://example.test/rex.png'], status: 'available' };

function answer(method: string, url: URL): [number, unknown] {
  const p = url.pathname;
  if (method === 'GET' && p === '/v1/pets') return [200, [{ id: 1, name: 'Tom' }]];
  if (method === 'GET' && p.startsWith('/v1/pets/')) return [200, [{ id: 2, name: decodeURIComponent(p.slice(9)) }]];
  if (method === 'GET' && p === '/v3/pet/7') return [200, PET];
  if (method === 'POST' && p === '/v3/pet') return [200, PET];
  if (method === 'GET' && p === '/v3/pet/findByStatus') return [200, [PET]];
  if (method === 'GET' && p === '/gh/repos/octo/hello/issues') return [200, [{ id: 1, number: 42, title: 'Found a bug', state: 'open' }]];
  return [404, { message: 'Not Found' }];
}

let server: Server;
let base: string;
let client: TestClient;

beforeAll(async () => {
  server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      const [status, value] = answer(req.method!, new URL(req.url!, 'http://x'));
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
  client = await createTestClient({
    services: [Petstore30Service, Petstore31Service, GithubService],
    providers: [
      { provide: Petstore30Client, useValue: Petstore30Client.with({ baseUrl: \`\${base}/v1\` }) },
      { provide: Petstore31Client, useValue: Petstore31Client.with({ baseUrl: \`\${base}/v3\`, apiKey: 'key-123' }) },
      { provide: GithubClient, useValue: GithubClient.with({ baseUrl: \`\${base}/gh\`, token: 'gh-token' }) },
    ],
  });
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

it('publishes schemas that compile (JSON Schema 2020-12)', async () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const tools = await client.listTools();
  expect(tools.length).toBe(3 + 19 + 58);
  for (const tool of tools) {
    expect(() => ajv.compile(tool.inputSchema as object)).not.toThrow();
    const output = tool.outputSchema;
    if (output) expect(() => ajv.compile(output)).not.toThrow();
  }
});

it('calls the Petstore 3.0 operations as the document describes them', async () => {
  seen.length = 0;
  expect(JSON.parse(textOf(await client.callTool('list_pets', { limit: 5 })))).toEqual([{ id: 1, name: 'Tom' }]);
  expect(JSON.parse(textOf(await client.callTool('show_pet_by_id', { petId: 'a b' })))).toEqual([{ id: 2, name: 'a b' }]);
  expect(seen.map((s) => [s.method, s.url])).toEqual([['GET', '/v1/pets?limit=5'], ['GET', '/v1/pets/a%20b']]);
});

it('calls the Petstore 3.1 operations: structured results, JSON bodies, the API key', async () => {
  seen.length = 0;
  const got = await client.callTool('get_pet_by_id', { petId: 7 });
  expect(got.structuredContent).toMatchObject({ id: 7, name: 'Rex', status: 'available' });
  await client.callTool('add_pet', { body: { name: 'Rex', photoUrls: ['http://example.test/rex.png'] } });
  await client.callTool('find_pets_by_status', { status: ['sold', 'pending'] });
  expect(seen.map((s) => [s.method, s.url])).toEqual([['GET', '/v3/pet/7'], ['POST', '/v3/pet'], ['GET', '/v3/pet/findByStatus?status=sold&status=pending']]);
  expect(JSON.parse(seen[1].body)).toEqual({ name: 'Rex', photoUrls: ['http://example.test/rex.png'] });
  expect(seen[0].headers.api_key).toBe('key-123');
});

it('calls a GitHub operation with its bearer token; an API error is a tool error', async () => {
  seen.length = 0;
  const issues = await client.callTool('issues_list_for_repo', { owner: 'octo', repo: 'hello', state: 'open', per_page: 5 });
  expect(JSON.parse(textOf(issues))).toEqual([expect.objectContaining({ number: 42, title: 'Found a bug' })]);
  expect(seen[0].url).toBe('/gh/repos/octo/hello/issues?state=open&per_page=5');
  expect(seen[0].headers.authorization).toBe('Bearer gh-token');
  const missing = await client.callTool('issues_list_for_repo', { owner: 'octo', repo: 'nope' });
  expect(missing).toMatchObject({ isError: true });
  expect(textOf(missing)).toContain('answered 404');
});

it('refuses bad input before any HTTP call', async () => {
  seen.length = 0;
  const bad = [
    ['list_pets', { limit: 'five' }],
    ['show_pet_by_id', {}],
    ['get_pet_by_id', { petId: 'seven' }],
    ['add_pet', { body: { name: 'Rex' } }],
    ['find_pets_by_status', { status: ['lost'] }],
    ['issues_get', { owner: 'octo', repo: 'hello', issue_number: 42, extra: true }],
  ] as const;
  for (const [name, args] of bad) expect(await client.callTool(name, args as never)).toMatchObject({ isError: true });
  expect(seen).toEqual([]);
});
`;

describe('typemcp add openapi', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('blank');
    writeFileSync(path.join(dir, 'github.json'), gunzipSync(readFileSync(path.join(FIXTURES, 'github-rest-api.json.gz'))));
  });
  afterAll(() => removeProject(dir));

  it('writes services for the Petstores (3.0 YAML, 3.1 JSON) and GitHub issues that compile, pass their tests and call the API', async () => {
    const petstore30 = await typemcp(['add', 'openapi', path.join(FIXTURES, 'petstore-3.0.yaml'), '--name', 'petstore30'], dir);
    expect(petstore30).toMatchObject({ code: 0, stderr: '' });
    expect(petstore30.stdout).toContain('created  src/services/petstore30.service.ts');
    expect(petstore30.stdout).toContain('3 tools');

    const petstore31 = await typemcp(['add', 'openapi', path.join(FIXTURES, 'petstore-3.1.json'), '--name', 'petstore31'], dir);
    expect(petstore31).toMatchObject({ code: 0, stderr: '' });
    expect(petstore31.stdout).toContain('19 tools');
    // Listed with the reason, never dropped silently.
    expect(petstore31.stdout).toContain(
      'not mapped: POST /pet/{petId}/uploadImage (uploadFile): its request body is application/octet-stream only (JSON and form bodies are supported)',
    );

    const github = await typemcp(['add', 'openapi', 'github.json', '--name', 'github', '--tag', 'issues'], dir);
    expect(github).toMatchObject({ code: 0, stderr: '' });
    expect(github.stdout).toContain('58 tools');
    expect(readFileSync(path.join(dir, 'src/services/index.ts'), 'utf8')).toContain('[EchoService, Petstore30Service, Petstore31Service, GithubService]');

    writeFileSync(path.join(dir, 'test/api-calls.spec.ts'), API_SPEC);
    const checked = await typecheck(dir);
    expect(checked.stdout + checked.stderr).toBe('');
    const tested = await runJest(dir);
    expect(tested.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(tested.stderr).not.toMatch(/failed/);
    expect(tested.code).toBe(0);
  }, 240_000);

  it('regenerates the generated parts only, and says so', async () => {
    const service = path.join(dir, 'src/services/petstore30.service.ts');
    const mine = '\n  /** Mine. */\n  describeStore() {\n    return "a shop";\n  }\n}\n';
    writeFileSync(service, readFileSync(service, 'utf8').replace(/\n}\n$/, mine));
    appendFileSync(path.join(dir, 'src/services/petstore30.client.ts'), '\n// my note\n');
    const again = await typemcp(['add', 'openapi', path.join(FIXTURES, 'petstore-3.0.yaml'), '--name', 'petstore30', '--operation', 'listPets'], dir);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toContain('note: rewrote the generated src/services/petstore30.dto.ts');
    expect(again.stdout).toContain('note: rewrote the generated src/services/petstore30.service.ts (its generated regions)');
    expect(again.stdout).toContain('kept     src/services/petstore30.client.ts (yours: not rewritten)');
    const text = readFileSync(service, 'utf8');
    expect(text).toContain('describeStore()');
    expect(text).toContain("name: 'list_pets'");
    expect(text).not.toContain("name: 'show_pet_by_id'");
    expect(readFileSync(path.join(dir, 'src/services/petstore30.client.ts'), 'utf8')).toContain('// my note');

    writeFileSync(path.join(dir, 'swagger.yaml'), 'swagger: "2.0"\ninfo: { title: Old, version: "1" }\npaths: {}\n');
    expect(await typemcp(['add', 'openapi', 'swagger.yaml'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'typemcp: swagger.yaml: typemcp add openapi reads OpenAPI 3.0 and 3.1 documents (found Swagger 2.0); convert Swagger 2.0 with a converter first\n',
    });
  }, 120_000);
});
