/** The extension's identifier (SEP-2640). @publicApi */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** The `_meta` prefix SEP-2640 reserves for this extension on skill resources. */
export const SKILLS_META_PREFIX = 'io.modelcontextprotocol.skills/';
