/**
 * @typemcp/protocol/internal: what the sibling @typemcp packages (core, http, testing) need from
 * the engine and users do not: message classification, option checks, revision lookup, the
 * 2026-07-28 request checks an HTTP transport runs before it streams, progress pacing, and the
 * start-up link between a framework and the transports that serve its engine.
 * Not covered by semver; applications import `@typemcp/protocol`.
 */
export { classifyMessage, errorMessage, isJsonObject } from './jsonrpc/message.js';
export { checkOption } from './options/invalid-option.error.js';
export { legacyRevisionFeatures, negotiateRevision, revisionFeatures } from './revisions.js';
export { headerMismatch, isModernRequest, MetaKey, modernMethodRefusal, readModernMeta } from './server/modern-request.js';
export { ProgressPacer } from './transport/progress-pacer.js';
export {
  admitModernPost,
  admitRequest,
  LEGACY,
  postEra,
  refuseModernBatch,
  type Admission,
  type LegacyAdmission,
  type NegotiatedState,
  type Refused,
} from './server/admission.js';
export { OutgoingRequests, type OutgoingChannel, type OutgoingStart } from './server/outgoing-requests.js';
export { linkStartUp, startUpLinkOf, type StartUpLink, type StartUpWarning } from './server/start-up-link.js';
export { isThenable } from './util/is-thenable.js';
export { nodeCrypto } from './util/node-crypto.js';
export { unref } from './util/unref.js';
export { canonicalJson } from './server/principal-key.js';
export { writeErrorLine } from './util/report-error.js';
export type { ListKind, ServerHost } from './server/server-host.js';
export type { Listener } from './server/handlers/subscriptions.handlers.js';
export { checkLogger } from './options/check-server-options.js';
export { isStructuredLogger } from './logging/structured-logger.js';
export { EXTENSION_ID } from './server/extensions/check-extension.js';
