/**
 * @module transports/bounded-body — reading a fetch Response's body as UTF-8 text without holding more than a
 * limit: a declared Content-Length past it is refused before reading, a body that grows past it is cancelled
 * there. Shared by the MCP and A2A clients, which turn the errors below into their own.
 */

/** A body larger than `limit` bytes (declared or as it arrived). */
export class BodyLimitError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`the body is larger than ${limit} bytes`);
    this.name = 'BodyLimitError';
    this.limit = limit;
  }
}

/** A body with bytes that are not UTF-8 (JSON text is UTF-8: RFC 8259 §8.1). */
export class BodyEncodingError extends Error {
  constructor() {
    super('the body has bytes that are not UTF-8 (RFC 8259 §8.1)');
    this.name = 'BodyEncodingError';
  }
}

/** The body of `res` as UTF-8 text, at most `max` bytes (BodyLimitError past it, BodyEncodingError for bad bytes). */
export async function readBoundedText(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new BodyLimitError(max);
  }
  if (!res.body) return '';
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch {
      throw new BodyEncodingError();
    }
  };
  const reader = res.body.getReader();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) throw new BodyLimitError(max);
      text += decode(value);
    }
    return text + decode();
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  } finally {
    reader.releaseLock();
  }
}
