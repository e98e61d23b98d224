/**
 * io.modelcontextprotocol/skills over Streamable HTTP, driven by the official clients: SDK 1.x
 * (`@modelcontextprotocol/sdk`, 2025-11-25) and SDK 2.x (`@modelcontextprotocol/client`,
 * 2025-11-25 and 2026-07-28). Each lists every page of skills/list, gets each skill, reads every
 * file of every manifest and checks its digest and size against the bytes it received, reads a
 * directory; a skill guarded by a scope is invisible (listing) and refused (get, read) without
 * it, served with it. Every message the server sent is checked against the revision's closed
 * schema, the extension's results against SEP-2640's shapes (skills.schema.json).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { z } from 'zod';
import { Context, createServer, McpService, type HttpListenerHandle } from '@typemcp/core';
import type {} from '@typemcp/http';
import { Skill, SKILLS_EXTENSION, skills, type SkillEntry } from '@typemcp/skills';
import { HttpWireRecorder } from '../../../test/support/http-session';
import { describeFailures, validateServerTraffic } from '../../../test/support/spec-schemas';
import schema from './skills.schema.json';

const FOLDER = path.join(__dirname, 'fixtures/skills');
const REFUNDS = 'skill://acme/billing/refunds/SKILL.md';

@McpService()
class ReportSkills {
  @Skill({ name: 'daily', prefix: 'reports', description: "Assemble today's operational report from live data" })
  daily(ctx: Context) {
    return `# Daily\n\nFor ${ctx.clientInfo?.name ?? 'someone'}.\n`;
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(schema, 'skills');
const skillsSchema = (name: string) => {
  const validate = ajv.getSchema(`skills#/$defs/${name}`)!;
  return (value: unknown): ErrorObject[] => (validate(value) ? [] : [...(validate.errors ?? [])]);
};
const EXTENSION_RESULTS = {
  'skills/list': skillsSchema('ListSkillsResult'),
  'skills/get': skillsSchema('GetSkillResult'),
  'resources/directory/read': skillsSchema('ReadResourceDirectoryResult'),
};

const ListResult = z.looseObject({ skills: z.array(z.any()), nextCursor: z.string().optional() });
const GetResult = z.looseObject({ skill: z.any() });
const DirectoryResult = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional() })),
  nextCursor: z.string().optional(),
});

/** What both SDKs do alike, behind one face. */
interface SkillsClient {
  request(method: string, params: Record<string, unknown>, result: z.ZodType): Promise<Record<string, unknown>>;
  read(uri: string): Promise<{ text?: string; blob?: string; mimeType?: string }[]>;
  extensions(): Record<string, unknown> | undefined;
  close(): Promise<void>;
  recorder: HttpWireRecorder;
}

let listener: HttpListenerHandle;

beforeAll(async () => {
  const server = createServer({
    name: 'skills-e2e',
    version: '1.0.0',
    services: [ReportSkills],
    extensions: [skills({ dir: FOLDER, scopes: { 'acme/billing/refunds': ['billing:read'] } })],
    pageSize: 2,
  });
  listener = await server.listen({
    transport: 'http',
    port: 0,
    keepAliveMs: 0,
    auth: { verify: (token: string) => ({ ann: { sub: 'ann', scopes: [] }, bob: { sub: 'bob', scopes: ['billing:read'] } })[token] },
  });
});
afterAll(() => listener?.close(0));

/** The recorder's fetch with the user's bearer token. */
const authed =
  (recorder: HttpWireRecorder, token: string) =>
  (input: string | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return recorder.fetch(input, { ...init, headers });
  };

async function sdk1(token: string): Promise<SkillsClient> {
  const recorder = new HttpWireRecorder('2025-11-25');
  const client = new Client1({ name: 'sdk1-skills', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new Http1(new URL(listener.url), { fetch: authed(recorder, token) }));
  return {
    recorder,
    request: (method, params, result) => client.request({ method, params }, result as never) as Promise<Record<string, unknown>>,
    read: async (uri) => (await client.readResource({ uri })).contents as { text?: string; blob?: string }[],
    extensions: () => (client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions,
    close: () => client.close(),
  };
}

function sdk2(revision: string) {
  return async (token: string): Promise<SkillsClient> => {
    const recorder = new HttpWireRecorder('2025-11-25', true);
    const options = revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
    const client = new Client2({ name: 'sdk2-skills', version: '1.0.0' }, { ...options, capabilities: {} } as never);
    await client.connect(new Http2(new URL(listener.url), { fetch: authed(recorder, token) }));
    return {
      recorder,
      request: (method, params, result) => client.request({ method, params }, result as never) as Promise<Record<string, unknown>>,
      read: async (uri) => (await client.readResource({ uri })).contents as { text?: string; blob?: string }[],
      extensions: () => client.getServerCapabilities()?.extensions as Record<string, unknown> | undefined,
      close: () => client.close(),
    };
  };
}

const CLIENTS = [
  ['SDK 1.x', '2025-11-25', sdk1],
  ['SDK 2.x', '2025-11-25', sdk2('2025-11-25')],
  ['SDK 2.x', '2026-07-28', sdk2('2026-07-28')],
] as const;

async function listAll(client: SkillsClient): Promise<{ entries: SkillEntry[]; pages: number }> {
  const entries: SkillEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request('skills/list', cursor ? { cursor } : {}, ListResult);
    entries.push(...(page.skills as SkillEntry[]));
    cursor = page.nextCursor as string | undefined;
    pages++;
  } while (cursor !== undefined && pages < 20);
  return { entries, pages };
}

/** Reads every file of a manifest; each must have exactly the listed size and digest. */
async function verifyFiles(client: SkillsClient, entry: SkillEntry): Promise<number> {
  if (entry.resources === 'dynamic') return 0;
  for (const file of entry.resources) {
    const [content] = await client.read(file.uri);
    const bytes = content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob ?? '', 'base64');
    expect({ uri: file.uri, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.length }).toEqual(file);
  }
  return entry.resources.length;
}

function expectCleanTraffic(client: SkillsClient, revision: string): void {
  const report = validateServerTraffic(revision as never, client.recorder.wire, { extensionResults: EXTENSION_RESULTS });
  expect(describeFailures(report.failures)).toEqual([]);
  expect(report.byDefinition['skills/list']).toBeGreaterThan(0);
}

describe.each(CLIENTS)('skills with the %s client at %s', (_sdk, revision, connect) => {
  it('lists, gets, reads and verifies every file; reads a directory; the billing skill stays hidden without its scope', async () => {
    const client = await connect('ann');
    try {
      expect(client.extensions()?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
      expect(skillsSchema('ServerSettings')(client.extensions()?.[SKILLS_EXTENSION])).toEqual([]);
      const { entries, pages } = await listAll(client);
      expect(pages).toBe(2);
      expect(entries.map((e) => e.uri)).toEqual(['skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md', 'skill://reports/daily/SKILL.md']);
      let files = 0;
      for (const entry of entries) {
        const got = await client.request('skills/get', { uri: entry.uri }, GetResult);
        expect(got.skill).toEqual(entry);
        expect(got).not.toHaveProperty('nextCursor');
        files += await verifyFiles(client, entry);
      }
      expect(files).toBe(7);
      // The 2026-07-28 caching hints, as sent (the SDK drops resultType): a list's, and a read's (per principal: private).
      const sent = (key: string) => client.recorder.inbound().find((m) => (m.result as Record<string, unknown> | undefined)?.[key] !== undefined)?.result;
      if (revision === '2026-07-28') {
        expect(sent('skills')).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
        expect(sent('skill')).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      } else {
        expect(sent('skills')).not.toHaveProperty('ttlMs');
        expect(sent('skill')).not.toHaveProperty('ttlMs');
      }
      const daily = await client.read('skill://reports/daily/SKILL.md');
      expect(daily[0].text).toContain('For sdk');

      const dir = await client.request('resources/directory/read', { uri: 'skill://pdf-processing' }, DirectoryResult);
      expect((dir.resources as { uri: string; mimeType: string }[]).map((r) => [r.uri, r.mimeType])).toEqual([
        ['skill://pdf-processing/SKILL.md', 'text/markdown'],
        ['skill://pdf-processing/assets', 'inode/directory'],
      ]);
      // Two per page: the cursor round-trips until the last page.
      const rest = await client.request('resources/directory/read', { uri: 'skill://pdf-processing', cursor: dir.nextCursor }, DirectoryResult);
      expect((rest.resources as { uri: string }[]).map((r) => r.uri)).toEqual(['skill://pdf-processing/references', 'skill://pdf-processing/scripts']);

      // Scoped: not listed, and refused by name.
      await expect(client.request('skills/get', { uri: REFUNDS }, GetResult)).rejects.toThrow();
      await expect(client.read(REFUNDS)).rejects.toThrow();
      await expect(client.request('skills/get', { uri: 'skill://nope/SKILL.md' }, GetResult)).rejects.toMatchObject({ code: -32602 });
      expectCleanTraffic(client, revision);
    } finally {
      await client.close();
    }
  });

  it('a caller with the scope sees and reads the billing skill', async () => {
    const client = await connect('bob');
    try {
      const { entries } = await listAll(client);
      const refunds = entries.find((e) => e.uri === REFUNDS);
      expect(refunds?.frontmatter).toEqual({ name: 'refunds', description: 'Process customer refund requests per company policy' });
      expect(await verifyFiles(client, refunds!)).toBe(2);
      expectCleanTraffic(client, revision);
    } finally {
      await client.close();
    }
  });
});
