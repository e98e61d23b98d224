/**
 * The catalogue of @typemcp/testing's stable codes, and the errors the test client raises on
 * its own (docs/errors.md says what each code means and how to fix it). An error the server
 * answered with is a {@link JsonRpcError}, which carries the server's numeric code instead.
 */
import type { JsonObject } from '@typemcp/protocol';

/**
 * Stable codes of the errors @typemcp/testing throws (`error.code`).
 * @publicApi
 */
export const TestingErrorCode = {
  /** The test client was asked to speak a revision it does not know (UnsupportedRevisionError). */
  UnsupportedRevision: 'TYPEMCP_ERR_UNSUPPORTED_REVISION',
  /** A 2026-07-28 request still asked for input after `maxInputRounds` answers (InputRoundsExceededError). */
  InputRounds: 'TYPEMCP_ERR_INPUT_ROUNDS',
} as const;

/** One of {@link TestingErrorCode}. */
export type TestingErrorCodeValue = (typeof TestingErrorCode)[keyof typeof TestingErrorCode];

/**
 * `createTestClient({ revision })` with a revision the test client cannot speak.
 * @publicApi
 */
export class UnsupportedRevisionError extends Error {
  override readonly name = 'UnsupportedRevisionError';
  readonly code = TestingErrorCode.UnsupportedRevision;
}

/**
 * A 2026-07-28 request answered with `input_required` more than `maxInputRounds` times.
 * @publicApi
 */
export class InputRoundsExceededError extends Error {
  override readonly name = 'InputRoundsExceededError';
  readonly code = TestingErrorCode.InputRounds;

  constructor(
    /** The request's method, e.g. `tools/call`. */
    readonly method: string,
    /** The last `input_required` result. */
    readonly result: JsonObject,
    maxRounds: number,
  ) {
    super(`${method} still required input after ${maxRounds} rounds; the test client answers at most ${maxRounds} (maxInputRounds)`);
  }
}
