/**
 * Skills' digests in the schema manifest, end to end: a copy of the built everything app (with
 * its skills folder) gets its manifest from the real CLI; served over stdio to the official SDK
 * client, its skills carry the recorded digests (node:crypto never loaded at start-up, see
 * stdio-start.e2e.spec.ts) and they match the files. A skill file edited without a rebuild is
 * detected at start-up: one TYPEMCP_WARN_STALE_SKILL_DIGESTS naming it, and the digest served is
 * the new file's, never the recorded one. `typemcp build --check` names the difference.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { ONLY_THE_BANNER } from './support/banner';

const REPO = path.resolve(__dirname, '../../..');
const BUILT = path.join(REPO, 'apps/everything/dist');
const CLI = path.join(REPO, 'packages/cli/dist/bin.js');
const GUIDE = 'skill://everything-guide/SKILL.md';
const EDITED = 'everything-guide/references/tools.md';

interface Resource {
  uri: string;
  digest: string;
  size: number;
}
const GetResult = z.looseObject({
  skill: z.looseObject({ uri: z.string(), resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })) }),
});

/** Serves `dir`/main.js over stdio; the guide skill's manifest, each file as read (digest and size of the bytes received), and stderr. */
async function guide(dir: string): Promise<{ listed: Resource[]; read: Resource[]; stderr: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(dir, 'main.js'), '--transport', 'stdio'],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'skills-manifest-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { skill } = await client.request({ method: 'skills/get', params: { uri: GUIDE } }, GetResult as never);
    const listed = (skill as { resources: Resource[] }).resources;
    const read: Resource[] = [];
    for (const { uri } of listed) {
      const [content] = (await client.readResource({ uri })).contents as { text?: string; blob?: string }[];
      const bytes = content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob ?? '', 'base64');
      read.push({ uri, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.length });
    }
    return { listed, read, stderr };
  } finally {
    await client.close();
  }
}

const typemcp = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: REPO });

describe('skills digests in the schema manifest', () => {
  let root: string;
  let dist: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'typemcp-skills-manifest-'));
    dist = path.join(root, 'dist');
    cpSync(BUILT, dist, { recursive: true, filter: (source) => !path.basename(source).includes('typemcp.manifest.json') });
    cpSync(path.join(BUILT, '..', 'skills'), path.join(root, 'skills'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const built = typemcp('build', path.join(dist, 'main.js'));
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('typemcp build records every skill file: its SHA-256 digest and the fingerprint start-up checks', () => {
    const manifest = JSON.parse(readFileSync(path.join(dist, 'typemcp.manifest.json'), 'utf8'));
    const files = manifest.extensions['io.modelcontextprotocol/skills'].files as Record<string, { digest: string; fingerprint: string }>;
    expect(Object.keys(files).sort()).toEqual([
      'acme/support/refunds/SKILL.md',
      'acme/support/refunds/examples/email.md',
      'everything-guide/SKILL.md',
      'everything-guide/references/deep/resources.md',
      'everything-guide/references/tools.md',
      'everything-guide/scripts/call.sh',
    ]);
    for (const [file, recorded] of Object.entries(files)) {
      const bytes = readFileSync(path.join(root, 'skills', file));
      expect(recorded.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      expect(recorded.fingerprint).toMatch(new RegExp(`^${bytes.length}:[0-9a-f]+$`));
    }
  });

  it('served with it: the recorded digests, matching every byte read, and nothing on stderr but the banner', async () => {
    const { listed, read, stderr } = await guide(dist);
    expect(listed).toHaveLength(4);
    expect(read).toEqual(listed);
    expect(stderr).toMatch(ONLY_THE_BANNER);
  }, 30_000);

  it('a skill file edited without a rebuild: detected at start-up, its new digest served, --check names it', async () => {
    const before = await guide(dist);
    appendFileSync(path.join(root, 'skills', EDITED), '- `test_error_handling`: fails on purpose.\n');
    const after = await guide(dist);
    expect(after.stderr).toMatch(
      /\[typemcp\] warning TYPEMCP_WARN_STALE_SKILL_DIGESTS: The skills in \S+ changed since typemcp build recorded their digests \(everything-guide\/references\/tools\.md changed\)/,
    );
    expect(after.read).toEqual(after.listed);
    const edited = (r: { listed: Resource[] }) => r.listed.find((f) => f.uri === `skill://${EDITED}`)!;
    expect(edited(after).digest).not.toBe(edited(before).digest);
    expect(edited(after).size).toBeGreaterThan(edited(before).size);

    const check = typemcp('build', path.join(dist, 'main.js'), '--check');
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(`extension io.modelcontextprotocol/skills: differs at /files/${EDITED}/digest`);
  }, 30_000);
});
