/** Human-readable output of `typemcp list` and `typemcp call`. */
import type { CallToolResult, Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';

/** A skill as `skills/list` (io.modelcontextprotocol/skills) shows it. */
export interface ListedSkill {
  uri: string;
  frontmatter: { name: string; description: string; [field: string]: unknown };
  resources: { uri: string; digest: string; size: number }[] | 'dynamic';
}

/** Everything a server lists. */
export interface Listing {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** Present when the server declares the skills extension. */
  skills?: ListedSkill[];
}

/** `3 files, 2.1 kB` of a skill's manifest, or `generated` for a dynamic one. */
function filesOf(skill: ListedSkill): string {
  if (!Array.isArray(skill.resources)) return 'generated';
  const bytes = skill.resources.reduce((sum, r) => sum + (typeof r.size === 'number' ? r.size : 0), 0);
  const size = bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
  return `${skill.resources.length} file${skill.resources.length === 1 ? '' : 's'}, ${size}`;
}

type Schema = { type?: unknown; anyOf?: Schema[]; enum?: unknown[]; items?: Schema };

/** `string`, `"a" | "b"`, `number[]`, `string | null`... from a property schema. */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return 'unknown';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return typeof schema.type === 'string' ? schema.type : 'unknown';
}

function argumentsOf(tool: Tool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.entries(properties)
    .map(([name, schema]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(schema)}`)
    .join(', ');
}

function describe(description: string | undefined): string {
  return description ? `  ${description}` : '';
}

/** The listing as text: one section per kind, one line per item. */
export function formatListing(listing: Listing): string {
  const sections: string[] = [];
  const section = (title: string, lines: string[]) => {
    if (lines.length) sections.push(`${title}\n${lines.map((l) => `  ${l}`).join('\n')}`);
  };
  section(
    'Tools',
    listing.tools.map((t) => `${t.name}(${argumentsOf(t)})${describe(t.description)}`),
  );
  section(
    'Resources',
    listing.resources.map((r) => `${r.uri}${describe(r.description)}`),
  );
  section(
    'Resource templates',
    listing.resourceTemplates.map((r) => `${r.uriTemplate}${describe(r.description)}`),
  );
  section(
    'Prompts',
    listing.prompts.map((p) => `${p.name}(${(p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')})${describe(p.description)}`),
  );
  section(
    'Skills',
    (listing.skills ?? []).map((k) => `${k.uri} (${filesOf(k)})${describe(k.frontmatter?.description)}`),
  );
  return sections.length ? sections.join('\n\n') : 'The server offers no tools, resources or prompts.';
}

/** A tool result as text: text blocks as they are, other blocks as one line each, structured content as JSON. */
export function formatToolResult(result: CallToolResult): string {
  const lines = result.content.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
      case 'audio':
        return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
      case 'resource_link':
        return `[link ${block.uri}${block.name ? ` "${block.name}"` : ''}]`;
      case 'resource':
        return 'text' in block.resource ? `[resource ${block.resource.uri}]\n${block.resource.text}` : `[resource ${block.resource.uri}, binary]`;
      default:
        return JSON.stringify(block);
    }
  });
  if (result.structuredContent && !lines.length) lines.push(JSON.stringify(result.structuredContent, null, 2));
  return lines.join('\n');
}
