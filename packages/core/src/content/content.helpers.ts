/**
 * Helpers that build MCP content blocks, for tools and prompts that return more than text.
 * Binary data may be given as bytes; it is base64-encoded here.
 */
import type { Annotations, AudioContent, EmbeddedResource, ImageContent, ResourceLink, TextContent } from '@typemcp/protocol';

const base64 = (data: string | Uint8Array) => (typeof data === 'string' ? data : Buffer.from(data).toString('base64'));

/** A text block. @publicApi */
export function text(value: string, annotations?: Annotations): TextContent {
  return annotations ? { type: 'text', text: value, annotations } : { type: 'text', text: value };
}

/** An image block (base64 string or bytes). @publicApi */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return { type: 'image', data: base64(data), mimeType };
}

/** An audio block (base64 string or bytes); older clients receive a text note instead. @publicApi */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return { type: 'audio', data: base64(data), mimeType };
}

/** A resource embedded in the result, as text or bytes. @publicApi */
export function embeddedResource(uri: string, content: { text: string } | { blob: string | Uint8Array }, mimeType?: string): EmbeddedResource {
  const resource = 'text' in content ? { uri, text: content.text } : { uri, blob: base64(content.blob) };
  return { type: 'resource', resource: mimeType ? { ...resource, mimeType } : resource };
}

/** A link to a resource the client may read (older clients receive it as text). @publicApi */
export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  return { type: 'resource_link', ...link };
}
