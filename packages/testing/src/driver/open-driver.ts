/** Picks the driver for a revision: the one place that knows which era a revision belongs to. */
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '@typemcp/protocol';
import { UnsupportedRevisionError } from '../errors.js';
import type { ClientDriver, DriverSettings } from './client-driver.interface.js';
import { LegacyDriver } from './legacy.driver.js';
import { ModernDriver } from './modern.driver.js';

/** @internal Opens a connection to `settings.engine` at `settings.revision`. */
export function openDriver(settings: DriverSettings): Promise<ClientDriver> {
  if ((LEGACY_REVISIONS as readonly string[]).includes(settings.revision)) return LegacyDriver.open(settings);
  if ((MODERN_REVISIONS as readonly string[]).includes(settings.revision)) return ModernDriver.open(settings);
  const known = [...LEGACY_REVISIONS, ...MODERN_REVISIONS].join(', ');
  return Promise.reject(new UnsupportedRevisionError(`@typemcp/testing cannot speak revision "${settings.revision}"; use one of ${known}`));
}
