/**
 * The skills extension through the testing kit (an in-memory pipe to a real engine), both eras:
 * capabilities, skills/list with every page, skills/get, reads of every file matching the
 * manifest's digest and size, resources/directory/read, a generated skill; reload().
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Context, McpService } from '@typemcp/core';
import { createTestClient, type TestClient } from '@typemcp/testing';
import { Skill, SKILLS_EXTENSION, skills, type SkillEntry } from '@typemcp/skills';

const FOLDER = path.join(__dirname, 'fixtures/skills');

@McpService()
class ReportSkills {
  @Skill({ name: 'daily', prefix: 'reports', description: "Assemble today's operational report from live data" })
  daily(ctx: Context) {
    return { body: `# Daily report\n\nFor ${ctx.clientInfo?.name ?? 'someone'}.\n`, files: { 'data/today.json': '{"open":3}' } };
  }
}

async function listAll(client: TestClient): Promise<{ skills: SkillEntry[]; pages: number }> {
  const out: SkillEntry[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.call<{ skills: SkillEntry[]; nextCursor?: string }>('skills/list', cursor ? { cursor } : {});
    out.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 20);
  return { skills: out, pages };
}

const bytesOf = (c: { text?: string; blob?: string }) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.blob ?? '', 'base64'));

describe.each(['2025-11-25', '2026-07-28'])('skills at %s', (revision) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient({ revision, services: [ReportSkills], extensions: [skills({ dir: FOLDER })], pageSize: 2 });
  });
  afterAll(() => client.close());

  it('lists every skill over pages, each whole, and every file reads back as the manifest says', async () => {
    expect(client.serverCapabilities.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
    const { skills: entries, pages } = await listAll(client);
    expect(pages).toBe(2);
    expect(entries.map((e) => e.uri)).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://reports/daily/SKILL.md',
    ]);
    const pdf = entries.find((e) => e.frontmatter.name === 'pdf-processing')!;
    expect(pdf.frontmatter).toEqual({
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      license: 'Apache-2.0',
      metadata: { version: '2.1.0', 'com.example/owner': 'documents-team' },
    });
    expect(entries.find((e) => e.frontmatter.name === 'daily')!.resources).toBe('dynamic');
    let checked = 0;
    for (const entry of entries) {
      if (entry.resources === 'dynamic') continue;
      expect(entry.resources[0].uri).toBe(entry.uri);
      for (const file of entry.resources) {
        const read = await client.readResource(file.uri);
        const bytes = bytesOf(read.contents[0] as { text?: string; blob?: string });
        expect({ uri: file.uri, size: bytes.length, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` }).toEqual(file);
        checked++;
      }
    }
    expect(checked).toBe(9);
    const logo = await client.readResource('skill://pdf-processing/assets/logo.png');
    expect(logo.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
    const script = await client.readResource('skill://pdf-processing/scripts/extract.py');
    expect(script.contents[0]).toMatchObject({ mimeType: 'text/x-python', text: expect.stringContaining('def main') });
  });

  it('gets one skill, refuses an unknown one with -32602', async () => {
    const got = await client.call<{ skill: SkillEntry; nextCursor?: string }>('skills/get', { uri: 'skill://git-workflow/SKILL.md' });
    expect(got.skill).toEqual((await listAll(client)).skills.find((e) => e.uri === 'skill://git-workflow/SKILL.md'));
    expect(got).not.toHaveProperty('nextCursor');
    await expect(client.call('skills/get', { uri: 'skill://nope/SKILL.md' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('No skill is served at skill://nope/SKILL.md'),
    });
    await expect(client.call('skills/get', {})).rejects.toMatchObject({ code: -32602 });
  });

  it('reads directories: direct children, subdirectories as inode/directory, -32602 for a file', async () => {
    const root = await client.call<{ resources: { uri: string; mimeType: string }[] }>('resources/directory/read', { uri: 'skill://pdf-processing/templates' });
    expect(root.resources).toEqual([
      { uri: 'skill://pdf-processing/templates/invoice.md', name: 'invoice.md', mimeType: 'text/markdown', size: expect.any(Number) },
      { uri: 'skill://pdf-processing/templates/regional', name: 'regional', mimeType: 'inode/directory' },
    ]);
    await expect(client.call('resources/directory/read', { uri: 'skill://pdf-processing/SKILL.md' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.call('resources/directory/read', { uri: 'skill://acme/billing' })).rejects.toMatchObject({ code: -32602 });
    const generated = await client.call<{ resources: { uri: string; mimeType: string }[] }>('resources/directory/read', { uri: 'skill://reports/daily' });
    expect(generated.resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['skill://reports/daily/SKILL.md', 'text/markdown'],
      ['skill://reports/daily/data', 'inode/directory'],
    ]);
  });

  it('generates a skill at request time: SKILL.md with the declared frontmatter, its files', async () => {
    const md = await client.readResource('skill://reports/daily/SKILL.md');
    expect((md.contents[0] as { text: string }).text).toBe(
      "---\nname: daily\ndescription: Assemble today's operational report from live data\n---\n\n# Daily report\n\nFor typemcp-test-client.\n",
    );
    const data = await client.readResource('skill://reports/daily/data/today.json');
    expect(data.contents[0]).toEqual({ uri: 'skill://reports/daily/data/today.json', mimeType: 'application/json', text: '{"open":3}' });
  });
});

describe('reload()', () => {
  it('serves what the folder holds now, tells clients the resources changed, and keeps the old skills when the folder is invalid', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'typemcp-skills-reload-'));
    try {
      mkdirSync(path.join(root, 'notes'));
      writeFileSync(path.join(root, 'notes/SKILL.md'), '---\nname: notes\ndescription: Take notes\n---\n\n# Notes\n');
      const extension = skills({ dir: root });
      const client = await createTestClient({ services: [], extensions: [extension] });
      try {
        expect((await client.listSkills()).map((s) => s.frontmatter.description)).toEqual(['Take notes']);
        writeFileSync(path.join(root, 'notes/SKILL.md'), '---\nname: notes\ndescription: Take better notes\n---\n\n# Notes\n');
        mkdirSync(path.join(root, 'notes/references'));
        writeFileSync(path.join(root, 'notes/references/style.md'), '# Style\n');
        extension.reload();
        const [entry] = await client.listSkills();
        expect(entry.frontmatter.description).toBe('Take better notes');
        expect(entry.resources).toHaveLength(2);
        expect((await client.readSkill(entry.uri)).files.get('skill://notes/references/style.md')!.toString()).toBe('# Style\n');
        await new Promise((r) => setTimeout(r, 20));
        expect(client.notifications('notifications/resources/list_changed').length).toBeGreaterThan(0);

        writeFileSync(path.join(root, 'notes/SKILL.md'), '# no frontmatter\n');
        expect(() => extension.reload()).toThrow(/does not begin with YAML frontmatter/);
        expect((await client.listSkills())[0].frontmatter.description).toBe('Take better notes');
      } finally {
        await client.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
