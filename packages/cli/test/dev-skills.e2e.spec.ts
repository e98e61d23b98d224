/**
 * `typemcp dev` and skills: in a generated example project (it serves its skills folder with
 * @typemcp/skills), an edited SKILL.md restarts the server (skills/ is watched by default) under
 * the same stdio client, which is sent `notifications/resources/list_changed` (the skills
 * extension defines no notification of its own; the skills' files are resources) and then lists
 * the edited skill, with the new file's digest.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, makeProject, removeProject, typemcp } from './support/project';

interface Listed {
  skills: { uri: string; frontmatter: { description: string }; resources: { uri: string; digest: string }[] }[];
}

describe('typemcp dev with a skills folder', () => {
  let dir: string;
  beforeAll(async () => {
    // The example project serves its skills folder (skills/greeting-etiquette); one more skill.
    dir = makeProject('example');
    expect((await typemcp(['add', 'skill', 'release-notes'], dir)).code).toBe(0);
  });
  afterAll(() => removeProject(dir));

  it('restarts on a SKILL.md edit, sends resources list_changed, and serves the edited skill', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'dev'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'dev-skills-test', version: '0.0.0' });
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => changed());
    await client.connect(transport);
    const list = async () => (await client.request({ method: 'skills/list', params: {} }, ResultSchema)) as unknown as Listed;
    try {
      const before = await list();
      expect(before.skills.map((s) => s.uri)).toEqual(['skill://greeting-etiquette/SKILL.md', 'skill://release-notes/SKILL.md']);
      const file = path.join(dir, 'skills/release-notes/SKILL.md');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Write release notes from the merged pull requests'));
      await listChanged;
      const after = (await list()).skills.find((s) => s.uri === 'skill://release-notes/SKILL.md');
      expect(after!.frontmatter.description).toBe('Write release notes from the merged pull requests');
      expect(after!.resources[0]!.digest).toBe(`sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`);
      expect(after!.resources[0]!.digest).not.toBe(before.skills[1]!.resources[0]!.digest);
      expect(stderr).toMatch(/\[typemcp dev\] (skills\/)?release-notes\/SKILL\.md changed: restarting/);
    } finally {
      await client.close();
    }
  }, 30_000);
});
