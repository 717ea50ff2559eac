/**
 * @module kit/transcript — the `.http` transcript of a scenario and its `*.events.json` files, in the
 * format kit/README.md describes: per exchange a `### n. title` line, notes as `#` lines, the request (request
 * line with the written URL, the headers that matter in a fixed order, the body as pretty-printed JSON),
 * then the response (status line, headers that matter, body); an event stream's frames go to
 * `<file>.<n>.events.json` and are listed one line each. Nothing in it depends on ports, time or chance.
 */
import { STATUS_CODES } from 'node:http';
import type { Exchange } from './recorder.ts';

/** Request headers written, in this order (others, e.g. Host or Content-Length, are left out). */
export const REQUEST_HEADERS = ['Authorization', 'A2A-Version', 'Content-Type', 'Accept', 'X-A2A-Notification-Token'] as const;
/** Headers written for a webhook delivery the receiver got (the sender's own defaults, e.g. Accept, are left out). */
export const WEBHOOK_HEADERS = ['Authorization', 'Content-Type', 'X-A2A-Notification-Token'] as const;
/** Response headers written, in this order (Date, Content-Length, Connection, Keep-Alive are left out). */
export const RESPONSE_HEADERS = ['Content-Type', 'WWW-Authenticate', 'Allow', 'Cache-Control', 'ETag'] as const;

/** JSON pretty-printed with two spaces (member order as sent); any other text as it is. */
export function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function headerLines(headers: Headers, names: readonly string[]): string[] {
  return names.flatMap((name) => {
    const value = headers.get(name);
    return value === null ? [] : [`${name}: ${value}`];
  });
}

type Json = Record<string, any>;

/** One line about a frame: what it is and the state or artifact it carries. */
export function describeFrame(data: string): string {
  let frame: Json;
  try {
    frame = JSON.parse(data) as Json;
  } catch {
    return 'not JSON';
  }
  if (frame.error) return `error ${frame.error.code} ${frame.error.message ?? ''}`.trim();
  const r: Json = frame.result ?? frame;
  if (r.task) return `task ${r.task.status?.state}`;
  if (r.message) return `message from ${r.message.role}`;
  if (r.statusUpdate) return `statusUpdate ${r.statusUpdate.status?.state}${r.statusUpdate.status?.message ? ' with a message' : ''}`;
  if (r.artifactUpdate) {
    const a = r.artifactUpdate;
    const flags = [a.append ? 'append' : '', a.lastChunk ? 'lastChunk' : ''].filter(Boolean).join(', ');
    return `artifactUpdate ${a.artifact?.name ?? a.artifact?.artifactId}${flags ? ` (${flags})` : ''}`;
  }
  return Object.keys(r).join(', ');
}

const CLOSED_BY = {
  server: 'then the server closed the stream',
  client: 'then the client closed the stream',
  error: 'then the connection failed',
} as const;

export interface Rendered {
  /** File name → contents: the transcript and its events files. */
  readonly files: Readonly<Record<string, string>>;
}

/** The transcript `<base>.http` (and `<base>.<n>.events.json` per event stream). */
export function renderTranscript(base: string, summary: string, exchanges: readonly Exchange[]): Rendered {
  const files: Record<string, string> = {};
  const out: string[] = [`# ${base}.http: ${summary}`, '# Written by `npm run a2a-kit`; kit/README.md describes the format. Do not edit.'];
  for (const x of exchanges) {
    out.push('', `### ${x.n}. ${x.title}`);
    if (x.direction === 'in') out.push("# received by the kit's webhook receiver");
    for (const note of x.notes) out.push(`# ${note}`);
    out.push(
      `${x.request.method} ${x.request.url} HTTP/1.1`,
      ...headerLines(x.request.headers, x.direction === 'in' ? WEBHOOK_HEADERS : REQUEST_HEADERS),
    );
    if (x.request.body !== undefined && x.request.body !== '') out.push('', pretty(x.request.body));
    out.push('');
    const r = x.response;
    if (!r) {
      out.push(`# no response: ${x.failure ?? 'the exchange did not finish'}`);
      continue;
    }
    out.push(`HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? ''}`.trimEnd(), ...headerLines(r.headers, RESPONSE_HEADERS));
    if (r.frames) {
      const name = `${base}.${x.n}.events.json`;
      files[name] = `${JSON.stringify(
        r.frames.map((f) => JSON.parse(f) as unknown),
        null,
        2,
      )}\n`;
      out.push('', `# ${r.frames.length} frame${r.frames.length === 1 ? '' : 's'} in ${name}; ${CLOSED_BY[r.closedBy ?? 'server']}:`);
      r.frames.forEach((f, i) => out.push(`#   ${i + 1}. ${describeFrame(f)}`));
    } else if (r.body) out.push('', pretty(r.body));
  }
  files[`${base}.http`] = `${out.join('\n')}\n`;
  return { files };
}
