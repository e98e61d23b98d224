/**
 * One upstream tool as clients see it: renamed, redescribed, with arguments renamed, given
 * defaults, fixed or hidden. The definition is rebuilt once per sync; each call maps the client's
 * arguments back to the upstream's (fixed values added, defaults filled in).
 */
import { DefinitionError, ToolError, type JsonObject, type ToolDefinition } from '@typemcp/protocol';
import { GatewayErrorCode } from '../errors.js';
import type { ArgumentTransform, ToolMatcher, ToolsOptions, ToolTransform } from './tool-options.interface.js';

const matches = (matchers: readonly ToolMatcher[], name: string) => matchers.some((m) => (typeof m === 'string' ? m === name : m.test(name)));

/** Whether the mount serves the upstream tool `name`. */
export function toolSelected(options: ToolsOptions | undefined, name: string): boolean {
  if (!options) return true;
  if (options.include && !matches(options.include, name)) return false;
  if (options.exclude && matches(options.exclude, name)) return false;
  return options.transform?.[name]?.hidden !== true;
}

/** A tool's exposed definition (before the namespace) and the mapping of its arguments. */
export class TransformedTool {
  /** The client's argument name -> the upstream's, for renamed arguments. */
  private readonly renamed = new Map<string, string>();
  private readonly fixed: [string, unknown][] = [];
  private readonly defaults: [string, unknown][] = [];
  private readonly hidden = new Set<string>();
  readonly definition: ToolDefinition;

  constructor(
    upstream: ToolDefinition,
    readonly transform: ToolTransform = {},
  ) {
    const schema = upstream.inputSchema;
    const properties = { ...((schema.properties ?? {}) as Record<string, JsonObject>) };
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, change] of Object.entries(transform.arguments ?? {})) this.reshape(upstream.name, name, change, properties, required);
    const inputSchema = { ...schema, properties } as ToolDefinition['inputSchema'];
    if (required.size) inputSchema.required = [...required];
    else delete inputSchema.required;
    const definition: ToolDefinition = { ...upstream, name: transform.name ?? upstream.name, inputSchema };
    if (transform.title !== undefined) definition.title = transform.title;
    if (transform.description !== undefined) definition.description = transform.description;
    this.definition = definition;
  }

  private reshape(tool: string, name: string, change: ArgumentTransform, properties: Record<string, JsonObject>, required: Set<string>): void {
    const property = properties[name];
    if (!property)
      throw new DefinitionError(GatewayErrorCode.InvalidMount, `tools.transform["${tool}"].arguments names "${name}", which the tool does not take.`);
    delete properties[name];
    const wasRequired = required.delete(name);
    if ('value' in change) return void this.fixed.push([name, change.value]);
    if (change.hidden) {
      if (wasRequired)
        throw new DefinitionError(
          GatewayErrorCode.InvalidMount,
          `tools.transform["${tool}"].arguments["${name}"] hides a required argument; give it a fixed value instead.`,
        );
      return void this.hidden.add(name);
    }
    const exposed = change.name ?? name;
    if (exposed in properties)
      throw new DefinitionError(GatewayErrorCode.InvalidMount, `tools.transform["${tool}"].arguments renames "${name}" to "${exposed}", which is taken.`);
    const reshaped: JsonObject = { ...property };
    if (change.description !== undefined) reshaped.description = change.description;
    if ('default' in change) {
      reshaped.default = change.default as JsonObject;
      this.defaults.push([exposed, change.default]);
    } else if (wasRequired) required.add(exposed);
    properties[exposed] = reshaped;
    if (exposed !== name) this.renamed.set(exposed, name);
  }

  /** The upstream's arguments for a client's; a fixed or hidden argument sent by the client is refused. */
  arguments(args: JsonObject): JsonObject {
    if (this.renamed.size === 0 && this.fixed.length === 0 && this.defaults.length === 0 && this.hidden.size === 0) return args;
    const out: JsonObject = {};
    for (const [name, value] of Object.entries(args)) {
      if (this.hidden.has(name) || this.fixed.some(([f]) => f === name)) throw new ToolError(`Invalid arguments: "${name}" is not an argument of this tool`);
      out[this.renamed.get(name) ?? name] = value;
    }
    for (const [name, value] of this.defaults) {
      const upstream = this.renamed.get(name) ?? name;
      if (!(upstream in out)) out[upstream] = value as JsonObject;
    }
    for (const [name, value] of this.fixed) out[name] = value as JsonObject;
    return out;
  }
}
