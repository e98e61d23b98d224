/**
 * @typemcp/skills: the io.modelcontextprotocol/skills extension (SEP-2640). Serves agent skills
 * (a SKILL.md with YAML frontmatter and the files it refers to) from a folder, with a manifest of
 * SHA-256 digests and sizes, and from `@Skill()` methods generated at request time.
 */
export { SkillsErrorCode, type SkillsErrorCodeValue } from './errors.js';
export { SKILLS_EXTENSION } from './ids.js';
export { skills, type SkillEntry, type SkillResource, type SkillsExtension, type SkillsOptions } from './skills.extension.js';
export { Skill, type SkillContent, type SkillOptions } from './skill.decorator.js';
export type { SkillFrontmatter } from './frontmatter.js';
export {
  digestOf,
  fingerprintOf,
  MAX_FILES_PER_SKILL,
  MAX_SKILL_BYTES,
  readSkillsFolder,
  type DirectoryChild,
  type FolderSkill,
  type RecordedFile,
  type SkillFile,
  type SkillsFolder,
} from './folder.js';
