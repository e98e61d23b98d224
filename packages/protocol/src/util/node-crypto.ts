/**
 * node:crypto, loaded on first use. Loading it takes 5-15 ms, which a stdio server started for
 * every client session would pay before its `initialize` answer although only task ids, sealed
 * 2026-07-28 request state and principal digests need it.
 */
import type * as Crypto from 'node:crypto';

let loaded: typeof Crypto | undefined;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
export const nodeCrypto = (): typeof Crypto => (loaded ??= require('node:crypto') as typeof Crypto);
