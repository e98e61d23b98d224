/** What a mount leaves out of its upstream's lists. */

/** A feature left out, and why. @publicApi */
export interface SkippedFeature {
  readonly kind: 'tool' | 'resource' | 'template' | 'prompt';
  /** Its upstream name or URI. */
  readonly name: string;
  readonly reason: string;
}
