/** mount(): the entry point of the package. */
import type { TypeMcpServer } from '@typemcp/core';
import { clientLink } from '../upstream/client-link.js';
import { localLink } from '../upstream/local-link.js';
import { checkMountOptions } from './check-mount-options.js';
import { Mount } from './mount.js';
import type { MountOptions, Upstream } from './mount-options.interface.js';

/**
 * Mounts `upstream` on `server`: another TypeMCP server in this process (no client, its handlers
 * run with the caller's own request context), a stdio command or a Streamable HTTP URL (through
 * the official client, loaded now). Resolves once the upstream's features are served. Rejects
 * with an InvalidOptionError for bad options, a DefinitionError (`TYPEMCP_GATEWAY_NAME_TAKEN`)
 * when a mounted name or URI is already served, and a MountConnectError when the first
 * connection fails (unless `required: false`: the mount then connects in the background).
 * @publicApi
 */
export async function mount(server: TypeMcpServer, upstream: Upstream, options: MountOptions = {}): Promise<Mount> {
  checkMountOptions(upstream, options);
  const connect =
    'engine' in upstream
      ? (_mount: Mount, events: Parameters<typeof localLink>[1]) => Promise.resolve(localLink(upstream, events))
      : (m: Mount, events: Parameters<typeof localLink>[1]) =>
          clientLink(upstream, { label: m.naming.label, options, calls: m.calls, downstream: server.engine, events });
  const mounted = new Mount(server, connect, options);
  await mounted.start(options.required !== false);
  return mounted;
}
