import * as path from 'node:path';
import { Context, McpService } from '@typemcp/core';
import { Skill, skills } from '@typemcp/skills';
import { createTestClient } from '@typemcp/testing';

@McpService()
class ReleaseSkills {
  // Generated per request: its manifest says "resources": "dynamic" (no stable digests).
  @Skill({ name: 'release-notes', description: "Write release notes in this project's style" })
  notes(ctx: Context) {
    return {
      body: `# Release notes\n\nWritten for ${ctx.clientInfo?.name ?? 'you'}; the last release is in data/last.json.\n`,
      files: { 'data/last.json': '{"version":"1.4.0"}' },
    };
  }
}

it('serves a skills folder and a generated skill', async () => {
  const client = await createTestClient({
    services: [ReleaseSkills],
    extensions: [
      skills({
        // One folder per skill: fixtures/skills/<name>/SKILL.md and its files (nested folders too).
        dir: path.join(__dirname, 'fixtures/skills'),
        // Listed and readable only with this OAuth scope (over HTTP with auth).
        scopes: { 'acme/billing/refunds': ['billing:read'] },
      }),
    ],
  });
  try {
    const listed = await client.listSkills();
    expect(listed.map((s) => s.uri)).toEqual([
      'skill://acme/billing/refunds/SKILL.md',
      'skill://git-workflow/SKILL.md',
      'skill://pdf-processing/SKILL.md',
      'skill://release-notes/SKILL.md',
    ]);
    // Every file read back and checked against the manifest's size and SHA-256 digest.
    const { skill, files } = await client.readSkill('skill://pdf-processing/SKILL.md');
    expect(skill.frontmatter).toMatchObject({ name: 'pdf-processing', license: 'Apache-2.0' });
    expect([...files.keys()]).toContain('skill://pdf-processing/scripts/extract.py');
    const notes = await client.readResource('skill://release-notes/SKILL.md');
    expect(notes.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('Written for typemcp-test-client') });
  } finally {
    await client.close();
  }
});
