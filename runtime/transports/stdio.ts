/**
 * @module transports/stdio — newline-delimited JSON over a pair of streams (MCP stdio,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/transports).
 *
 * Lines are split on `\n` (a trailing `\r` is dropped). A line longer than `maxLineBytes` is reported through
 * `sink.oversize` as soon as it passes the limit and discarded up to its newline, so a runaway peer cannot grow memory without bound.
 * Writes go out whole, one message per line, in call order; stdout must carry protocol messages only. The
 * frames sent within one turn of the event loop go out in one write (at setImmediate: each write to a pipe
 * is a system call and a wake-up of the reader, so 16 answers in flight cost one, not 16); while the output
 * wants draining they wait for its 'drain' and go out then, and close() writes what is waiting first. The
 * output stream's buffer plus the frames waiting is the connection's outbound queue, bounded by
 * `OutboundLimits` (transport.ts): a client that stops reading gets its progress and log notifications left
 * out, then the connection closed.
 */
import type { Readable, Writable } from 'node:stream';
import { admitFrame, OUTBOUND_DEFAULTS, type OutboundLimits, type Transport, type TransportSink } from './transport.ts';

export interface StdioOptions extends OutboundLimits {
  /** Largest line accepted, in bytes. Default 4 MiB. */
  readonly maxLineBytes?: number;
  /** Where dropped notifications and a closed queue are reported. Default: stderr. */
  readonly log?: (line: string) => void;
}

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Splits a byte stream into lines, bounding each; returns a function to feed chunks and one to flush. */
export function lineSplitter(maxBytes: number, onLine: (line: string) => void, onOversize: () => void) {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  /** The line ending at `chunk[end]` (exclusive) from `start`, after the parts kept from earlier chunks. */
  const emit = (chunk: Buffer, start: number, end: number) => {
    if (parts.length) {
      // A line split across chunks: joined once (the usual line arrives whole and is decoded in place).
      parts.push(chunk.subarray(start, end));
      chunk = Buffer.concat(parts);
      start = 0;
      end = chunk.length;
      parts = [];
      size = 0;
    }
    if (end > start && chunk[end - 1] === 0x0d) end--;
    onLine(chunk.toString('utf8', start, end));
  };
  return {
    push(chunk: Buffer) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl < 0) {
          if (!skipping) {
            const rest = chunk.subarray(start);
            size += rest.length;
            // One byte of slack: a line of exactly maxBytes may still end in \r\n.
            if (size > maxBytes + 1) {
              // Reported now, not at its newline: a line that never ends must not wait forever.
              skipping = true;
              parts = [];
              size = 0;
              onOversize();
            } else if (rest.length) parts.push(rest);
          }
          return;
        }
        const last = nl > start ? chunk[nl - 1] : parts.at(-1)?.at(-1);
        const length = size + nl - start - (last === 0x0d ? 1 : 0);
        if (skipping) skipping = false;
        else if (length > maxBytes) {
          parts = [];
          size = 0;
          onOversize();
        } else emit(chunk, start, nl);
        start = nl + 1;
      }
    },
    end() {
      if (!skipping && size > 0) emit(Buffer.alloc(0), 0, 0);
    },
  };
}

/** A transport over `input` (e.g. process.stdin) and `output` (e.g. process.stdout). */
export function stdioTransport(input: Readable, output: Writable, options: StdioOptions = {}): Transport {
  const maxBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let sink: TransportSink | undefined;
  let closed = false;
  let failed = false;
  let dropped = 0;
  /** Frames sent this turn, not yet written, and their bytes (counted against the outbound queue's limit). */
  let pending: string[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending.length) return;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    pendingBytes = 0;
    if (!failed && output.writable) output.write(text);
  };
  /** At the turn's end; or, while the output wants draining, once it has drained (the frames stay counted). */
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    if (output.writableNeedDrain) output.once('drain', flush);
    else setImmediate(flush);
  };
  const finish = (reason?: string) => {
    if (closed) return;
    closed = true;
    sink?.close(reason);
  };
  const deliver = (line: string) => {
    try {
      sink?.message(line);
    } catch (err) {
      log(`stdio: a frame's handler failed: ${(err as Error)?.stack ?? String(err)}`);
    }
  };
  const splitter = lineSplitter(
    maxBytes,
    (line) => {
      if (line.trim() !== '') deliver(line);
    },
    () => sink?.oversize?.(maxBytes),
  );
  output.on('drain', () => {
    if (dropped === 0) return;
    log(`stdio: left out ${dropped} progress/log notification(s) while the client was not reading`);
    dropped = 0;
  });
  return {
    start(s) {
      sink = s;
      input.on('data', (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
      input.on('end', () => {
        splitter.end();
        flush();
        finish();
      });
      input.on('error', () => finish());
      output.on('error', (err) => {
        failed = true;
        finish(`output failed: ${err.message}`);
      });
    },
    send(text, meta) {
      if (failed || !output.writable) return;
      const verdict = admitFrame(output.writableLength + pendingBytes, meta, options);
      if (verdict === 'drop') dropped++;
      else if (verdict === 'send') {
        const frame = `${text}\n`;
        pending.push(frame);
        pendingBytes += Buffer.byteLength(frame);
        schedule();
      } else {
        failed = true;
        input.pause();
        const reason = `stdio: outbound queue over ${options.maxQueueBytes ?? OUTBOUND_DEFAULTS.maxQueueBytes} bytes (the client is not reading)`;
        if (closed) log(reason);
        else finish(reason);
      }
    },
    close() {
      flush();
      input.pause();
      finish();
    },
  };
}
