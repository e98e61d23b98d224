/**
 * `typemcp add skill <name>` on a freshly generated project, run as the built command: it writes
 * skills/<name>/SKILL.md, which @typemcp/skills serves as it is (read here by the same code a
 * server runs at start-up, and served to a test client); names it cannot take are refused.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readSkillsFolder, skills } from '@typemcp/skills';
import { createTestClient } from '@typemcp/testing';
import { makeProject, removeProject, typemcp } from './support/project';

describe('typemcp add skill', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeProject('example');
  });
  afterAll(() => removeProject(dir));

  it("writes a SKILL.md that the skills extension serves beside the example project's own", async () => {
    const added = await typemcp(['add', 'skill', 'release-notes'], dir);
    // The example project serves its skills folder already: no note.
    expect(added).toEqual({ code: 0, stdout: 'created  skills/release-notes/SKILL.md\n', stderr: '' });
    expect(readFileSync(path.join(dir, 'skills/release-notes/SKILL.md'), 'utf8')).toMatch(
      /^---\nname: release-notes\ndescription: Say in one sentence what release-notes does/,
    );
    const folder = readSkillsFolder(path.join(dir, 'skills'));
    expect(folder.skills.map((s) => [s.uri, s.frontmatter.name])).toEqual([
      ['skill://greeting-etiquette/SKILL.md', 'greeting-etiquette'],
      ['skill://release-notes/SKILL.md', 'release-notes'],
    ]);
    const client = await createTestClient({ services: [], extensions: [skills({ dir: path.join(dir, 'skills') })] });
    try {
      const { skill, files } = await client.readSkill('skill://release-notes/SKILL.md');
      expect(skill.frontmatter.name).toBe('release-notes');
      expect(files.get(skill.uri)!.toString('utf8')).toContain('# Release Notes');
    } finally {
      await client.close();
    }
  });

  it('says how to serve the folder in a project that does not serve skills yet', async () => {
    const blank = makeProject('blank');
    try {
      const added = await typemcp(['add', 'skill', 'release-notes'], blank);
      expect(added.stdout.split('\n').filter(Boolean)).toEqual([
        'created  skills/release-notes/SKILL.md',
        expect.stringMatching(/^note: serve the skills folder: npm install @typemcp\/skills, then in createServer\(\) add extensions: \[skills\(/),
      ]);
    } finally {
      removeProject(blank);
    }
  });

  it('refuses a name outside the naming rule, and one that exists, writing nothing', async () => {
    expect(await typemcp(['add', 'skill', 'Release_Notes'], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"Release_Notes" is not a skill name'),
    });
    expect(await typemcp(['add', 'skill', 'release-notes'], dir)).toMatchObject({ code: 2, stderr: 'typemcp: skills/release-notes/SKILL.md already exists\n' });
  });
});
