/** The checks of mount()'s arguments, before anything connects (InvalidOptionError, `TYPEMCP_ERR_INVALID_OPTION`). */
import { InvalidOptionError, LOGGING_LEVELS } from '@typemcp/protocol';
import type { MountOptions, Upstream } from './mount-options.interface.js';
import { NAMESPACE } from './naming.js';

/** Headers a gateway never copies onto upstream requests: they carry the client's credentials. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const fail = (option: string, why: string): never => {
  throw new InvalidOptionError(option, `Invalid option "${option}": ${why}`);
};

function positive(options: MountOptions, name: 'requestTimeoutMs' | 'parkTimeoutMs' | 'maxParked'): void {
  const value = options[name];
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) fail(name, `${String(value)} is not a positive integer.`);
}

/** Throws for an upstream or an option mount() cannot work with. */
export function checkMountOptions(upstream: Upstream, options: MountOptions): void {
  if (upstream === null || typeof upstream !== 'object') fail('upstream', 'give a TypeMCP server, { command, args } or { url }.');
  if (!('engine' in upstream)) {
    if ('command' in upstream) {
      if (typeof upstream.command !== 'string' || upstream.command === '') fail('upstream.command', 'give the command that starts the server.');
    } else if ('url' in upstream) {
      let url: URL | undefined;
      try {
        url = new URL(upstream.url);
      } catch {
        fail('upstream.url', `${String(upstream.url)} is not a URL.`);
      }
      if (url!.protocol !== 'http:' && url!.protocol !== 'https:') fail('upstream.url', `${url!.protocol} is not http: or https:.`);
    } else {
      fail('upstream', 'give a TypeMCP server, { command, args } or { url }.');
    }
    const era = upstream.era;
    if (era !== undefined && era !== 'auto' && era !== 'legacy' && era !== 'modern') fail('upstream.era', `"${String(era)}" is not auto, legacy or modern.`);
  }
  const ns = options.namespace;
  if (ns !== undefined && (typeof ns !== 'string' || !NAMESPACE.test(ns))) {
    fail(
      'namespace',
      `"${String(ns)}" is not a namespace: a lower-case letter, then up to 31 lower-case letters, digits or hyphens (no "_" or "+": they end a namespace in names and URIs).`,
    );
  }
  if (options.uris !== undefined && options.uris !== 'prefix' && options.uris !== 'keep') fail('uris', `"${String(options.uris)}" is not prefix or keep.`);
  positive(options, 'requestTimeoutMs');
  positive(options, 'parkTimeoutMs');
  positive(options, 'maxParked');
  const level = options.upstreamLogLevel;
  if (level !== undefined && !LOGGING_LEVELS.includes(level)) fail('upstreamLogLevel', `"${String(level)}" is not one of ${LOGGING_LEVELS.join(', ')}.`);
  for (const header of options.forwardHeaders ?? []) {
    if (CREDENTIAL_HEADERS.has(header.toLowerCase())) {
      fail('forwardHeaders', `"${header}" carries the client's credentials, which a gateway must not pass on; give the upstream its own with upstream.auth.`);
    }
  }
}
