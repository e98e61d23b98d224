/**
 * Seals the `requestState` of multi round-trip requests (2026-07-28). The state passes through
 * the client, so it is attacker-controlled input: it is encrypted and authenticated with
 * AES-256-GCM under a server key, carries an expiry, a digest of the request it belongs to
 * (method and salient params) and a digest of the authenticated principal's identity
 * (`principalKey`: issuer, subject and client of a verified token, so a refreshed token still fits), and
 * is refused when any of them does not match.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject } from '../jsonrpc/message.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { PROTOCOL_DEFAULTS } from '../options/defaults.js';
import { nodeCrypto } from '../util/node-crypto.js';
import { canonicalJson } from './principal-key.js';

/** Options for sealing request state. */
export interface RequestStateOptions {
  /**
   * Keys (any length; each is hashed to 32 bytes). The first seals; all are tried when opening,
   * so keys can be rotated. Every instance behind one load balancer needs the same keys.
   * Default: one random key per process, so a retry must reach the same process.
   */
  keys?: readonly (string | Uint8Array)[];
  /** How long a state stays valid, in ms (default 15 minutes: the user may take a while). */
  ttlMs?: number;
}

/** What a sealed state says. */
export interface OpenedRequestState {
  /** The answers gathered in earlier rounds, by input key. */
  readonly answers: JsonObject;
}

interface Payload {
  v: 1;
  /** Request digest. */
  r: string;
  /** Principal digest. */
  p: string;
  /** Expiry, ms since the epoch. */
  x: number;
  a: JsonObject;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const tampered = () => new McpError(ErrorCode.InvalidParams, 'Invalid params: requestState is not valid for this request');

/** The keys as they are now: a caller's later change to a byte array does not change them. */
const copy = (keys: readonly (string | Uint8Array)[]) => keys.map((k) => (typeof k === 'string' ? k : Uint8Array.from(k)));

/** A short digest of any JSON value. */
export function digest(value: unknown): string {
  return nodeCrypto().createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

/** @publicApi */
export class RequestStateSealer {
  /** The keys as given (undefined: one random key), hashed on first use: node:crypto loads then, not with the engine. */
  private given: readonly (string | Uint8Array)[] | undefined;
  private hashed: Buffer[] | undefined;
  private readonly ttlMs: number;

  constructor(options: RequestStateOptions = {}) {
    this.given = options.keys?.length ? copy(options.keys) : undefined;
    this.ttlMs = options.ttlMs ?? PROTOCOL_DEFAULTS.requestStateTtlMs;
  }

  private get keys(): Buffer[] {
    const { createHash, randomBytes } = nodeCrypto();
    return (this.hashed ??= (this.given ?? [randomBytes(32)]).map((k) => createHash('sha256').update(k).digest()));
  }

  /**
   * Replaces the keys (the first seals; all open). For keys known only after start-up, such as
   * those several instances share through a store.
   */
  useKeys(keys: readonly (string | Uint8Array)[]): void {
    if (keys.length === 0) throw new RangeError('useKeys needs at least one key');
    this.given = copy(keys);
    this.hashed = undefined;
  }

  /** Seals the answers so far, bound to a request and a principal. */
  seal(requestDigest: string, principalDigest: string, answers: JsonObject): string {
    const payload: Payload = { v: 1, r: requestDigest, p: principalDigest, x: Date.now() + this.ttlMs, a: answers };
    const iv = nodeCrypto().randomBytes(IV_BYTES);
    const cipher = nodeCrypto().createCipheriv('aes-256-gcm', this.keys[0], iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** Opens a state; -32602 when it was tampered with, expired, or belongs to another request or principal. */
  open(state: unknown, requestDigest: string, principalDigest: string): OpenedRequestState {
    if (typeof state !== 'string' || state.length > 1_000_000) throw tampered();
    const raw = Buffer.from(state, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) throw tampered();
    const payload = this.decrypt(raw);
    if (!payload || payload.v !== 1 || payload.r !== requestDigest || payload.p !== principalDigest) throw tampered();
    if (!(payload.x > Date.now())) {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid params: requestState has expired; send the request again without it');
    }
    return { answers: payload.a };
  }

  private decrypt(raw: Buffer): Payload | undefined {
    const iv = raw.subarray(0, IV_BYTES);
    const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const body = raw.subarray(IV_BYTES + TAG_BYTES);
    for (const key of this.keys) {
      try {
        const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        const text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
        return JSON.parse(text) as Payload;
      } catch {
        // wrong key or tampered: try the next key
      }
    }
    return undefined;
  }
}
