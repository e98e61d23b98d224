/**
 * The MCP revisions this engine serves over the `initialize` handshake, oldest first, and what
 * each one's schema allows. Results are shaped from these flags, never from string compares.
 */
export const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** A handshake-based (legacy-era) revision. */
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];

/** The newest handshake-based revision: the answer when a client asks for one we do not serve. */
export const LATEST_LEGACY_REVISION: LegacyRevision = '2025-11-25';

/** What a revision's schema has. */
export interface RevisionFeatures {
  readonly revision: LegacyRevision;
  /** True for the newest revision: results pass through unshaped. */
  readonly latest: boolean;
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
}

function features(revision: LegacyRevision): RevisionFeatures {
  const at = (since: LegacyRevision) => revision >= since;
  return Object.freeze({
    revision,
    latest: revision === LATEST_LEGACY_REVISION,
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
  });
}

const TABLE = new Map<string, RevisionFeatures>(LEGACY_REVISIONS.map((r) => [r, features(r)]));

/** The features of a revision this engine serves, or undefined. */
export function revisionFeatures(revision: string): RevisionFeatures | undefined {
  return TABLE.get(revision);
}

/** Version negotiation: the requested revision when we serve it, else the latest we serve. */
export function negotiateRevision(requested: string): RevisionFeatures {
  return TABLE.get(requested) ?? TABLE.get(LATEST_LEGACY_REVISION)!;
}
