/**
 * MIME types of skill files, by extension: what agents meet in skills (markdown, scripts, data,
 * images). A file of another extension is `text/plain` when its bytes are UTF-8, else
 * `application/octet-stream`.
 */

const BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  text: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  xml: 'application/xml',
  json: 'application/json',
  jsonl: 'application/jsonl',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  ps1: 'text/plain',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  wasm: 'application/wasm',
};

/** The MIME type of directory resources (SEP-2640). */
export const DIRECTORY_MIME = 'inode/directory';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` as text when they are UTF-8 (a BOM kept, so the text encodes back to the same bytes), else undefined. */
export function asText(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The MIME type of a file named `name` with these bytes. */
export function mimeTypeOf(name: string, bytes: Uint8Array): string {
  const dot = name.lastIndexOf('.');
  const known = dot > 0 ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined;
  if (known) return known;
  return asText(bytes) === undefined ? 'application/octet-stream' : 'text/plain';
}

/** Whether contents of this type are sent as `text` (when the bytes are UTF-8) rather than `blob`. */
export function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /^application\/(json|jsonl|yaml|toml|xml|sql)$/.test(mimeType) || mimeType === 'image/svg+xml';
}
