/**
 * The MCP revisions this engine serves, and what each one's schema allows. Results are shaped
 * from these flags, never from string compares.
 *
 * Legacy revisions are negotiated once with `initialize` and hold for a session; modern ones
 * (2026-07-28 on) are stateless: every request names its revision in `_meta`.
 */
export const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** The stateless (modern-era) revisions, oldest first. */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

/** Every revision served, newest first: what `server/discover` and -32022 errors list. */
export const SUPPORTED_REVISIONS: readonly string[] = Object.freeze([...LEGACY_REVISIONS, ...MODERN_REVISIONS].reverse());

/** A handshake-based (legacy-era) revision. */
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];

/** A stateless (modern-era) revision. */
export type ModernRevision = (typeof MODERN_REVISIONS)[number];

/** Any revision this engine serves. */
export type Revision = LegacyRevision | ModernRevision;

/** The newest handshake-based revision: the answer when a client asks for one we do not serve. */
export const LATEST_LEGACY_REVISION: LegacyRevision = '2025-11-25';

/** What a revision's schema has. */
export interface RevisionFeatures {
  readonly revision: Revision;
  /** True from 2025-11-25 on: definitions and results pass through unshaped. */
  readonly latest: boolean;
  /**
   * Stateless 2026-07-28 semantics: per-request `_meta`, `resultType`, caching hints, multi
   * round-trip requests instead of server->client requests, -32602 for unknown resources.
   */
  readonly modern: boolean;
  /** JSON-RPC batches (2025-03-26 only). */
  readonly batching: boolean;
  /** Audio content blocks, tool annotations, progress `message`, the `completions` capability. */
  readonly audio: boolean;
  readonly toolAnnotations: boolean;
  readonly progressMessage: boolean;
  readonly completionsCapability: boolean;
  /** `title`, `_meta` on definitions and content, `outputSchema`/`structuredContent`, resource links, elicitation, `lastModified`. */
  readonly titles: boolean;
  readonly contentMeta: boolean;
  readonly structuredOutput: boolean;
  readonly resourceLinks: boolean;
  readonly elicitation: boolean;
  readonly lastModified: boolean;
  /** Icons, `Implementation.description`/`websiteUrl`, URL-mode elicitation. */
  readonly icons: boolean;
  readonly urlElicitation: boolean;
  /** Elicitation defaults on every primitive (SEP-1034), titled and multi-select enums (SEP-1330). */
  readonly richElicitation: boolean;
  /** 2025-11-25's experimental tasks (`tasks` capability, `execution.taskSupport`, `params.task`); 2026-07-28 has the tasks extension instead. */
  readonly legacyTasks: boolean;
}

function features(revision: Revision): RevisionFeatures {
  const at = (since: Revision) => revision >= since;
  return Object.freeze({
    revision,
    latest: at(LATEST_LEGACY_REVISION),
    modern: at('2026-07-28'),
    batching: revision === '2025-03-26',
    audio: at('2025-03-26'),
    toolAnnotations: at('2025-03-26'),
    progressMessage: at('2025-03-26'),
    completionsCapability: at('2025-03-26'),
    titles: at('2025-06-18'),
    contentMeta: at('2025-06-18'),
    structuredOutput: at('2025-06-18'),
    resourceLinks: at('2025-06-18'),
    elicitation: at('2025-06-18'),
    lastModified: at('2025-06-18'),
    icons: at('2025-11-25'),
    urlElicitation: at('2025-11-25'),
    richElicitation: at('2025-11-25'),
    legacyTasks: revision === '2025-11-25',
  });
}

const TABLE = new Map<string, RevisionFeatures>([...LEGACY_REVISIONS, ...MODERN_REVISIONS].map((r) => [r, features(r)]));

/** The features of a revision this engine serves (either era), or undefined. */
export function revisionFeatures(revision: string): RevisionFeatures | undefined {
  return TABLE.get(revision);
}

/** The features of a legacy revision, or undefined (modern revisions have no handshake). */
export function legacyRevisionFeatures(revision: string): RevisionFeatures | undefined {
  const f = TABLE.get(revision);
  return f && !f.modern ? f : undefined;
}

/** `initialize` negotiation: the requested legacy revision when we serve it, else the latest legacy one. */
export function negotiateRevision(requested: string): RevisionFeatures {
  return legacyRevisionFeatures(requested) ?? TABLE.get(LATEST_LEGACY_REVISION)!;
}
