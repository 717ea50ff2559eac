/**
 * @module samples/acts-agent/content — what the ACTS test agent puts in its artifacts and messages: the
 * texts of the behaviour contract's example file (generator/acts/suites/acts-specification.md §11, "Example SUT
 * Behaviors File") and, for the prefixes it gives no content, parts in A2A 1.0's Part shape (a2a.proto
 * `Part`: `text`, `raw` bytes, `url` or `data`, with `filename` and `mediaType`).
 */
import type { Part } from '../../runtime/a2a/types.ts';

/** The §11.2 prefixes (and `tck-auth-required`, which the auth-security suite names), longest first. */
export const PREFIXES = [
  'tck-artifact-file-url',
  'tck-artifact-file',
  'tck-artifact-text',
  'tck-artifact-data',
  'tck-complete-task',
  'tck-input-required',
  'tck-auth-required',
  'tck-reject-task',
  'tck-message-response',
  'tck-long-running',
  'tck-multi-turn',
  'tck-cancel',
  'tck-stream-basic',
  'tck-stream-chunked',
  'tck-task-failure',
] as const;

export type Prefix = (typeof PREFIXES)[number];

/** The behaviour a message's first text part asks for (§11: "the text content of the first message part"). */
export function prefixOf(parts: readonly Part[]): Prefix | undefined {
  const first = parts.find((part) => part.text !== undefined)?.text?.trimStart() ?? '';
  return PREFIXES.find((prefix) => first === prefix || first.startsWith(`${prefix} `));
}

/** §11 example: tck-artifact-text's artifact. */
export const TEXT_CONTENT = 'Generated text content';
/** §11 example: tck-stream-basic's artifact. */
export const STREAMED_CONTENT = 'Streamed content';
/** tck-stream-chunked: one artifact in three chunks. */
export const CHUNKS = ['Chunk one. ', 'Chunk two. ', 'Chunk three.'] as const;

/** tck-artifact-file: inline bytes (base64 in JSON, a2a.proto `Part.raw`). */
export const FILE_PART: Part = {
  raw: Buffer.from('ACTS inline file content\n').toString('base64'),
  filename: 'document.txt',
  mediaType: 'text/plain',
};

/** tck-artifact-file-url: a file by reference (a2a.proto `Part.url`). */
export const FILE_URL_PART: Part = { url: 'https://example.com/acts/document.pdf', filename: 'document.pdf', mediaType: 'application/pdf' };

/** tck-artifact-data: structured data (a2a.proto `Part.data`, a google.protobuf.Value). */
export const DATA_PART: Part = { data: { kind: 'acts-result', values: [1, 2, 3], ok: true }, mediaType: 'application/json' };

/** The text a follow-up message must carry to finish a tck-multi-turn conversation (the suites send "done"). */
export const DONE = 'done';
