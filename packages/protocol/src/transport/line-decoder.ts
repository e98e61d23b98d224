/**
 * Newline-delimited framing in linear time: each chunk is scanned once for newlines and the
 * bytes of a partial line are kept as a list of chunks, joined once when the line completes.
 * (Re-concatenating a growing buffer on every chunk makes an 8 MiB message cost 64x a 1 MiB
 * one instead of 8x.) Lines longer than `maxMessageBytes` are skipped up to the next newline
 * and reported once.
 */
const NEWLINE = 0x0a;

/** Callbacks of a {@link LineDecoder}. */
export interface LineDecoderEvents {
  /** One complete line (without the newline and a trailing CR), UTF-8 decoded. Empty lines are skipped. */
  onLine(line: string): void;
  /** A line exceeded the limit; its bytes are being discarded. */
  onOversized(limit: number): void;
}

/** @publicApi */
export class LineDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly events: LineDecoderEvents,
  ) {}

  /** Feeds one chunk of bytes. */
  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      this.complete(chunk, start, nl);
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** Bytes of the incomplete line still held. */
  get pendingBytes(): number {
    return this.size;
  }

  private keep(part: Buffer): void {
    if (this.discarding) return;
    this.size += part.length;
    if (this.size > this.maxMessageBytes) {
      this.parts = [];
      this.size = 0;
      this.discarding = true;
      this.events.onOversized(this.maxMessageBytes);
      return;
    }
    this.parts.push(part);
  }

  private complete(chunk: Buffer, start: number, end: number): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    let line = chunk;
    if (this.parts.length) {
      this.parts.push(chunk.subarray(start, end));
      line = Buffer.concat(this.parts, this.size + end - start);
      this.parts = [];
      this.size = 0;
      start = 0;
      end = line.length;
    }
    if (end - start > this.maxMessageBytes) return this.events.onOversized(this.maxMessageBytes);
    if (end > start && line[end - 1] === 0x0d) end--;
    // Decoding straight from the chunk avoids a Buffer view per message.
    if (end > start) this.events.onLine(line.toString('utf8', start, end));
  }
}
