/**
 * `@Skill()`: a method of a served class that produces a skill at request time. The frontmatter
 * is fixed (it is in `skills/list` before any call); the method returns the body of SKILL.md and,
 * optionally, more files. The manifest says `"resources": "dynamic"`: such content has no stable
 * digests (SEP-2640 "Resources").
 */
import { ExtensionData } from '@typemcp/core';
import { SKILLS_EXTENSION } from './ids.js';

/** What `@Skill()` declares. @publicApi */
export interface SkillOptions {
  /** The skill's name: the last segment of its path, and `frontmatter.name`. */
  name: string;
  /** `frontmatter.description`: what the skill does and when to use it. */
  description: string;
  /** A prefix of folders before the name (`acme/billing` for `skill://acme/billing/<name>/SKILL.md`). */
  prefix?: string;
  /** More frontmatter fields (`license`, `metadata`...), served as given. */
  frontmatter?: Record<string, unknown>;
  /** OAuth scopes a caller needs to see and read the skill (with the class's `@McpService({ scopes })`). */
  scopes?: readonly string[];
}

/**
 * What a `@Skill()` method returns (or a promise of it): SKILL.md's body (markdown after the
 * frontmatter), or the body and more files by path relative to the skill (`references/x.md`).
 * @publicApi
 */
export type SkillContent = string | { body: string; files?: Readonly<Record<string, string | Uint8Array>> };

/** Marks a method as a skill generated at request time. @publicApi */
export function Skill(options: SkillOptions): MethodDecorator {
  return ExtensionData(SKILLS_EXTENSION, { skill: options }) as MethodDecorator;
}
