/**
 * A SKILL.md's YAML frontmatter, parsed and checked against the Agent Skills specification and
 * SEP-2640: a mapping with `name` (the folder's name, 1-64 lowercase letters, digits and single
 * hyphens) and `description`, every value JSON-representable (the entry carries it verbatim as
 * JSON), no `metadata` key under the prefix reserved for MCP extensions. Each failure is a
 * DefinitionError that names the file and says the fix.
 */
import { DefinitionError, type JsonObject } from '@typemcp/protocol';
import { parse, stringify, YAMLParseError } from 'yaml';
import { SkillsErrorCode } from './errors.js';

/** The Agent Skills naming rule for `name` (and so for a skill's folder). */
export const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
/** Keys of `metadata` reserved for metadata defined by MCP extensions (none defined yet). */
export const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';
const MAX_DESCRIPTION = 1024;
const FRONTMATTER = /^(\uFEFF)?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The frontmatter fields every skill has; the others pass through as written. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

function invalid(where: string, detail: string): DefinitionError {
  return new DefinitionError(SkillsErrorCode.InvalidSkill, `Invalid skill ${where}: ${detail}.`);
}

/** Throws unless `value` is JSON as YAML's core schema gives it (no Infinity or NaN). */
function checkJson(where: string, value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(where, `frontmatter "${path}" is ${value}, which JSON cannot carry; quote it to keep it as text`);
    return;
  }
  if (Array.isArray(value)) return value.forEach((v, i) => checkJson(where, v, `${path}[${i}]`));
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) checkJson(where, v, path ? `${path}.${k}` : k);
    return;
  }
  throw invalid(where, `frontmatter "${path}" is not a JSON value`);
}

/**
 * Checks the fields of a frontmatter object (from a file, or given to `@Skill`): `name` equals
 * `folder` and follows the naming rule, `description` is a non-empty string, `metadata` (when
 * present) is a mapping without reserved keys.
 */
export function checkFrontmatter(where: string, value: unknown, folder: string): SkillFrontmatter {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(where, 'the frontmatter must be a YAML mapping with at least "name" and "description"');
  }
  checkJson(where, value, '');
  const fm = value as JsonObject;
  if (typeof fm.name !== 'string' || fm.name === '') throw invalid(where, `the frontmatter has no "name"; add name: ${folder}`);
  if (!SKILL_NAME.test(fm.name)) {
    throw invalid(
      where,
      `name "${fm.name}" breaks the Agent Skills naming rule (1-64 lowercase letters, digits and hyphens, no hyphen first, last or doubled)`,
    );
  }
  if (fm.name !== folder) {
    throw invalid(where, `name "${fm.name}" is not the skill's folder name "${folder}"; rename the folder to ${fm.name} or set name: ${folder}`);
  }
  if (typeof fm.description !== 'string' || fm.description.trim() === '') {
    throw invalid(where, 'the frontmatter has no "description"; add one that says what the skill does and when to use it');
  }
  if (fm.description.length > MAX_DESCRIPTION)
    throw invalid(where, `the description has ${fm.description.length} characters, more than the ${MAX_DESCRIPTION} allowed; shorten it`);
  const metadata = fm.metadata;
  if (metadata !== undefined) {
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) throw invalid(where, '"metadata" must be a mapping of keys to values');
    const reserved = Object.keys(metadata).filter((k) => k.startsWith(RESERVED_METADATA_PREFIX));
    if (reserved.length) {
      throw invalid(
        where,
        `metadata key${reserved.length > 1 ? 's' : ''} ${reserved.map((k) => `"${k}"`).join(', ')} use${reserved.length > 1 ? '' : 's'} the prefix ${RESERVED_METADATA_PREFIX}, reserved for MCP extensions (which define none); use a prefix of your own, e.g. com.example/`,
      );
    }
  }
  return fm as SkillFrontmatter;
}

/** The frontmatter of a SKILL.md's text, checked (see checkFrontmatter). */
export function parseFrontmatter(where: string, text: string, folder: string): SkillFrontmatter {
  const match = FRONTMATTER.exec(text);
  if (!match)
    throw invalid(where, 'it does not begin with YAML frontmatter; start the file with a line "---", the fields (name, description), then a line "---"');
  let value: unknown;
  try {
    value = parse(match[2], { schema: 'core', uniqueKeys: true, prettyErrors: true }) as unknown;
  } catch (error) {
    const detail = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    // The frontmatter starts on the file's second line.
    const line = error instanceof YAMLParseError && error.linePos ? ` (line ${error.linePos[0].line + 1} of the file)` : '';
    throw invalid(where, `its frontmatter is not valid YAML${line}: ${detail}`);
  }
  return checkFrontmatter(where, value, folder);
}

/** A SKILL.md's text for a frontmatter and a body: what a `@Skill` method's skill serves. */
export function skillMarkdown(frontmatter: JsonObject, body: string): string {
  return `---\n${stringify(frontmatter, { lineWidth: 0 })}---\n\n${body}`;
}
