/**
 * Start-up refuses a skill that breaks a rule, with a DefinitionError that names the file or
 * skill, the rule and the fix: malformed or missing frontmatter, a name that is not the folder's,
 * reserved metadata keys, a file over the size limit, too many files, symbolic links, unknown
 * scope targets, clashing @Skill() methods. Each case builds a real folder and a real server.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createServer, DefinitionError, McpService } from '@typemcp/core';
import { MAX_FILES_PER_SKILL, MAX_SKILL_BYTES, Skill, skills, SkillsErrorCode } from '@typemcp/skills';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'typemcp-skills-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes files (path relative to the folder -> content). */
function folder(files: Record<string, string>): string {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

const skillMd = (frontmatter: string, body = '# Body\n') => `---\n${frontmatter}\n---\n\n${body}`;

/** What createServer throws with these skills (it must throw a DefinitionError). */
function refusal(options: Parameters<typeof skills>[0], services: (new () => object)[] = []): { code: string; message: string } {
  let error: unknown;
  try {
    createServer({ name: 't', version: '1.0.0', services, extensions: [skills(options)] });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DefinitionError);
  return { code: (error as DefinitionError).code, message: (error as DefinitionError).message };
}

it('a SKILL.md without frontmatter: names the file and says how to start it', () => {
  const dir = folder({ 'notes/SKILL.md': '# Notes\n' });
  expect(refusal({ dir })).toEqual({
    code: SkillsErrorCode.InvalidSkill,
    message: expect.stringMatching(/notes\/SKILL\.md: it does not begin with YAML frontmatter; start the file with a line "---"/),
  });
});

it('malformed YAML: the file, the line, the parser message', () => {
  const dir = folder({ 'notes/SKILL.md': skillMd('name: notes\ndescription: [unclosed') });
  expect(refusal({ dir })).toEqual({
    code: SkillsErrorCode.InvalidSkill,
    message: expect.stringMatching(/notes\/SKILL\.md: its frontmatter is not valid YAML \(line \d+ of the file\)/),
  });
});

it('frontmatter that is not a mapping, or a duplicate key', () => {
  expect(refusal({ dir: folder({ 'a/SKILL.md': skillMd('- just\n- a list') }) }).message).toContain('the frontmatter must be a YAML mapping');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root);
  expect(refusal({ dir: folder({ 'a/SKILL.md': skillMd('name: a\nname: a\ndescription: twice') }) }).message).toContain('not valid YAML');
});

it('a name that is not the folder name: both names and both fixes', () => {
  const dir = folder({ 'pdf-tools/SKILL.md': skillMd('name: pdf-processing\ndescription: Fill PDF forms') });
  expect(refusal({ dir })).toEqual({
    code: SkillsErrorCode.InvalidSkill,
    message: expect.stringContaining(
      'name "pdf-processing" is not the skill\'s folder name "pdf-tools"; rename the folder to pdf-processing or set name: pdf-tools',
    ),
  });
});

it('required fields: a missing name or description says what to add', () => {
  expect(refusal({ dir: folder({ 'notes/SKILL.md': skillMd('description: Notes') }) }).message).toContain('the frontmatter has no "name"; add name: notes');
  expect(refusal({ dir: folder({ 'notes/SKILL.md': skillMd('name: notes') }) }).message).toContain('the frontmatter has no "description"; add one');
});

it('the naming rule, on the folder', () => {
  expect(refusal({ dir: folder({ 'My_Notes/SKILL.md': skillMd('name: My_Notes\ndescription: Notes') }) }).message).toContain(
    'the folder name "My_Notes" breaks the Agent Skills naming rule',
  );
});

it('metadata keys under the reserved io.modelcontextprotocol/ prefix', () => {
  const dir = folder({ 'notes/SKILL.md': skillMd('name: notes\ndescription: Notes\nmetadata:\n  io.modelcontextprotocol/trust: high') });
  expect(refusal({ dir }).message).toContain(
    'metadata key "io.modelcontextprotocol/trust" uses the prefix io.modelcontextprotocol/, reserved for MCP extensions',
  );
});

it('a value JSON cannot carry', () => {
  expect(refusal({ dir: folder({ 'notes/SKILL.md': skillMd('name: notes\ndescription: Notes\nweight: .inf') }) }).message).toContain(
    'frontmatter "weight" is Infinity, which JSON cannot carry; quote it',
  );
});

it('a file over the 16 MiB limit: the skill, the file, the limit, refused before it is read', () => {
  const dir = folder({ 'big/SKILL.md': skillMd('name: big\ndescription: Big'), 'big/data.bin': '' });
  truncateSync(path.join(dir, 'big/data.bin'), MAX_SKILL_BYTES + 1);
  expect(refusal({ dir })).toEqual({
    code: SkillsErrorCode.SkillLimit,
    message: `Skill "big" is over a limit of the skills extension: big/data.bin is ${MAX_SKILL_BYTES + 1} bytes, more than the ${MAX_SKILL_BYTES} bytes (16 MiB) a whole skill may hold.`,
  });
});

it('files that add up to more than 16 MiB', () => {
  const dir = folder({ 'big/SKILL.md': skillMd('name: big\ndescription: Big'), 'big/a.bin': '', 'big/b.bin': '' });
  truncateSync(path.join(dir, 'big/a.bin'), MAX_SKILL_BYTES / 2);
  truncateSync(path.join(dir, 'big/b.bin'), MAX_SKILL_BYTES / 2);
  expect(refusal({ dir }).message).toMatch(/^Skill "big" is over a limit of the skills extension: its files hold \d+ bytes, more than 16777216 \(16 MiB\)/);
});

it('more than 512 files', () => {
  const files: Record<string, string> = { 'many/SKILL.md': skillMd('name: many\ndescription: Many') };
  for (let i = 0; i < MAX_FILES_PER_SKILL; i++) files[`many/parts/${i}.txt`] = String(i);
  expect(refusal({ dir: folder(files) })).toEqual({
    code: SkillsErrorCode.SkillLimit,
    message: expect.stringContaining('Skill "many" is over a limit of the skills extension: it has 513 files, more than 512 (SKILL.md included)'),
  });
});

it('a missing folder, a symbolic link, a SKILL.md at the top', () => {
  expect(refusal({ dir: path.join(root, 'nope') })).toEqual({
    code: SkillsErrorCode.InvalidFolder,
    message: expect.stringContaining('does not exist; create it'),
  });
  const dir = folder({ 'notes/SKILL.md': skillMd('name: notes\ndescription: Notes') });
  symlinkSync('/etc/hostname', path.join(dir, 'notes/host'));
  expect(refusal({ dir }).message).toContain('notes/host is a symbolic link, which is not served');
  rmSync(path.join(dir, 'notes/host'));
  writeFileSync(path.join(dir, 'SKILL.md'), skillMd('name: x\ndescription: x'));
  expect(refusal({ dir }).message).toContain('is at the top of the folder');
});

it('scopes for a skill the folder does not have', () => {
  const dir = folder({ 'notes/SKILL.md': skillMd('name: notes\ndescription: Notes') });
  expect(refusal({ dir, scopes: { note: ['x'] } }).message).toContain('scopes for "note": the folder');
});

it('@Skill(): a bad name, and a path the folder already serves', () => {
  @McpService()
  class BadName {
    @Skill({ name: 'Daily Report', description: 'x' })
    report() {
      return '';
    }
  }
  expect(refusal({}, [BadName]).message).toContain('@Skill() BadName.report: name "Daily Report" breaks the Agent Skills naming rule');

  @McpService()
  class Clash {
    @Skill({ name: 'notes', description: 'Generated notes' })
    notes() {
      return '';
    }
  }
  const dir = folder({ 'notes/SKILL.md': skillMd('name: notes\ndescription: Notes') });
  expect(refusal({ dir }, [Clash])).toEqual({
    code: SkillsErrorCode.DuplicateSkill,
    message: expect.stringContaining('Skill skill://notes/SKILL.md of @Skill() Clash.notes is already served'),
  });
});
