/**
 * `typemcp add skill <name>`: a new agent skill, `skills/<name>/SKILL.md`, with the frontmatter
 * the io.modelcontextprotocol/skills extension requires (`name` = the folder, `description`),
 * served by `@typemcp/skills` (a note says how when the server does not serve skills yet).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../usage.error.js';
import type { AddResult } from './add-item.js';

/** The Agent Skills naming rule (as @typemcp/skills checks it at start-up). */
const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** Options of {@link addSkill}. @publicApi */
export interface AddSkillOptions {
  /** The skill's name: its folder and `frontmatter.name` (`release-notes`). */
  name: string;
  /** The project folder. */
  cwd: string;
  /** The skills folder, relative to the project (default `skills`). */
  dir?: string;
}

/** Writes `skills/<name>/SKILL.md`. @publicApi */
export function addSkill(options: AddSkillOptions): AddResult {
  const { name, cwd } = options;
  if (!SKILL_NAME.test(name)) {
    throw new UsageError(`"${name}" is not a skill name: 1-64 lowercase letters, digits and hyphens, no hyphen first, last or doubled (e.g. release-notes)`);
  }
  const dir = options.dir ?? 'skills';
  const file = path.join(cwd, dir, name, 'SKILL.md');
  const shown = path.relative(cwd, file);
  if (existsSync(file)) throw new UsageError(`${shown} already exists`);
  const title = name
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `---\nname: ${name}\ndescription: Say in one sentence what ${name} does and when an agent should use it\n---\n\n` +
      `# ${title}\n\nThe steps an agent follows. Put long references in references/ and scripts in scripts/ beside\n` +
      `this file, and name them here by their relative path (references/guide.md).\n`,
  );
  const result: AddResult = { created: [shown], changed: [], notes: [] };
  const server = path.join(cwd, 'src', 'server.ts');
  if (!existsSync(server) || !readFileSync(server, 'utf8').includes('@typemcp/skills')) {
    result.notes.push(
      `serve the skills folder: npm install @typemcp/skills, then in createServer() add ` +
        `extensions: [skills({ dir: path.join(__dirname, '..', '${dir}') })] (import { skills } from '@typemcp/skills')`,
    );
  }
  return result;
}
