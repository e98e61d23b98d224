/** What a client link needs from its mount. */
import type { LoggingLevel } from '@typemcp/protocol';
import type { MountOptions } from '../mount/mount-options.interface.js';
import type { CallRegistry } from '../relay/call-registry.js';
import type { UpstreamEvents } from './upstream-link.js';

/** Where logs no request claims go: the gateway's sessions. */
export interface DownstreamLog {
  log(level: LoggingLevel, data: unknown, logger?: string): void;
}

/** What the link needs from its mount. */
export interface ClientLinkContext {
  readonly label: string;
  readonly options: MountOptions;
  readonly calls: CallRegistry;
  readonly downstream: DownstreamLog;
  readonly events: UpstreamEvents;
}
