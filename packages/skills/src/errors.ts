/**
 * The catalogue of @typemcp/skills' stable error codes (docs/errors.md says what each means and
 * how to fix it). Every error is a start-up error: a skill that breaks a rule is never served.
 */

/**
 * Stable codes of the errors @typemcp/skills throws (`error.code`).
 * @publicApi
 */
export const SkillsErrorCode = {
  /** The skills folder is missing, is not a folder, or holds something that cannot be served (a symbolic link) (DefinitionError). */
  InvalidFolder: 'TYPEMCP_ERR_SKILLS_FOLDER',
  /** A SKILL.md whose frontmatter is missing, not YAML, not JSON-like, or breaks the Agent Skills rules (name, description, metadata) (DefinitionError). */
  InvalidSkill: 'TYPEMCP_ERR_INVALID_SKILL',
  /** A skill over a limit of the extension: more than 512 files, or more than 16 MiB in all (DefinitionError). */
  SkillLimit: 'TYPEMCP_ERR_SKILL_LIMIT',
  /** Skill files changed since `typemcp build` recorded their digests (a warning): their digests are computed at start-up instead, never served stale. */
  StaleDigests: 'TYPEMCP_WARN_STALE_SKILL_DIGESTS',
  /** Two skills at one path (a folder skill and a `@Skill` method, or two methods) (DefinitionError). */
  DuplicateSkill: 'TYPEMCP_ERR_DUPLICATE_SKILL',
} as const;

/** One of {@link SkillsErrorCode}. */
export type SkillsErrorCodeValue = (typeof SkillsErrorCode)[keyof typeof SkillsErrorCode];
