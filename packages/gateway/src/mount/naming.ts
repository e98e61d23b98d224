/**
 * The naming rule of mounted features. A namespace is a lower-case letter followed by up to 31
 * lower-case letters, digits or hyphens: it holds neither `_` nor `+`, so the first `_` of a
 * mounted name and the first `+` of a mounted URI end it, and two mounts can never produce the
 * same name or URI. Under namespace `ns`:
 * - tools and prompts: `ns_<name>` (at most 128 characters, the tool-name limit);
 * - resource URIs and templates, with `uris: 'prefix'` (the default): `ns+<uri>`, a URI whose
 *   scheme is `ns+<scheme>` (`ns+file:///notes.md`); with `uris: 'keep'` they are left as they are.
 * Without a namespace nothing is renamed. The same rule maps URIs inside results (resource links,
 * embedded resources, read contents) and `resources/updated`, and maps them back on the way up.
 */
import type { ContentBlock, PromptMessage } from '@typemcp/protocol';

/** What a namespace must look like. */
export const NAMESPACE = /^[a-z][a-z0-9-]{0,31}$/;

/** The longest tool or prompt name clients are told to accept. */
const MAX_NAME = 128;

/** How one mount names what it exposes. */
export class Naming {
  private readonly namePrefix: string;
  private readonly uriPrefix: string;

  constructor(
    /** The namespace, or undefined for none. */
    readonly namespace: string | undefined,
    uris: 'prefix' | 'keep',
  ) {
    this.namePrefix = namespace === undefined ? '' : `${namespace}_`;
    this.uriPrefix = namespace === undefined || uris === 'keep' ? '' : `${namespace}+`;
  }

  /** What the mount is called in errors and logs. */
  get label(): string {
    return this.namespace ?? 'upstream';
  }

  /** The exposed name of an upstream tool or prompt, or undefined when it would be too long. */
  name(upstream: string): string | undefined {
    const exposed = this.namePrefix + upstream;
    return exposed.length <= MAX_NAME ? exposed : undefined;
  }

  /** The upstream name of an exposed tool or prompt name, or undefined when it is not this mount's. */
  upstreamName(exposed: string): string | undefined {
    return exposed.startsWith(this.namePrefix) ? exposed.slice(this.namePrefix.length) : undefined;
  }

  /** The exposed form of an upstream URI (or URI template). */
  uri(upstream: string): string {
    return this.uriPrefix + upstream;
  }

  /** The upstream URI of an exposed one, or undefined when it is not this mount's. */
  upstreamUri(exposed: string): string | undefined {
    return exposed.startsWith(this.uriPrefix) ? exposed.slice(this.uriPrefix.length) : undefined;
  }

  /** True when URIs are rewritten (a prefix is added). */
  get rewritesUris(): boolean {
    return this.uriPrefix !== '';
  }

  /** Content blocks with the URIs of resource links and embedded resources mapped. */
  blocks(blocks: readonly ContentBlock[]): ContentBlock[] {
    if (!this.rewritesUris) return blocks as ContentBlock[];
    return blocks.map((block) => {
      if (block.type === 'resource_link') return { ...block, uri: this.uri(block.uri) };
      if (block.type === 'resource') return { ...block, resource: { ...block.resource, uri: this.uri(block.resource.uri) } };
      return block;
    });
  }

  /** Prompt messages with their content's URIs mapped. */
  messages(messages: readonly PromptMessage[]): PromptMessage[] {
    if (!this.rewritesUris) return messages as PromptMessage[];
    return messages.map((m) => ({ ...m, content: this.blocks([m.content])[0] }));
  }
}
