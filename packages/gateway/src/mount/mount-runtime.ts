/** What a mount's registered handlers reach at call time. */
import type { UpstreamLink } from '../upstream/upstream-link.js';
import type { MountOptions } from './mount-options.interface.js';
import type { Naming } from './naming.js';

/** The live side of a mount, as its features see it. */
export interface MountRuntime {
  readonly naming: Naming;
  readonly options: MountOptions;
  /** The current link; throws the upstream-unavailable GatewayError while the mount is down. */
  link(): UpstreamLink;
}
