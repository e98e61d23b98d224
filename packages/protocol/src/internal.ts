/**
 * @typemcp/protocol/internal: what the sibling @typemcp packages (core, http, testing) need from
 * the engine and users do not: message classification, option checks, revision lookup, the
 * 2026-07-28 request checks an HTTP transport runs before it streams, and progress pacing.
 * Not covered by semver; applications import `@typemcp/protocol`.
 */
export { classifyMessage, isJsonObject } from './jsonrpc/message.js';
export { checkOption } from './options/invalid-option.error.js';
export { legacyRevisionFeatures, negotiateRevision, revisionFeatures } from './revisions.js';
export { headerMismatch, isModernRequest, MetaKey, modernMethodRefusal, readModernMeta } from './server/modern-request.js';
export { ProgressPacer } from './transport/progress-pacer.js';
