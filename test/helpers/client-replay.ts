/**
 * @module test/helpers/client-replay — plays one ClientIntent (test/mcp-client/intents.ts) with our McpClient
 * against the recorded server, records every frame on the wire, and compares what the client sent with what
 * the official SDK's client sent in the recording.
 *
 * The server is the real recorded server: a child process (`wiregen serve recorded-server --stdio`, or
 * WIREGEN_TEST_SERVER) whose stdio the client reaches through PeerChannel + stdioTransport, or the same
 * sample in-process over createLinkedPair(). Either way the client's Transport is wrapped so every frame it
 * sends and receives is kept, in order, as parsed JSON.
 *
 * Comparison (as for every replay of the recordings): both streams are renumbered (renumber.ts: request ids c1…/s1…, progress tokens) in
 * order of appearance, then the client's messages are compared pairwise as JSON, key order ignored.
 *
 * What the count (73 client messages over the 16 driven sessions) holds: every compared message is one our
 * client wrote; the server's messages are not compared. 45 stand one for one for an item of the intent (42
 * requests whose method and params the intent gives; 3 answers to a server request whose result it gives),
 * the client adding the envelope, ids, `_meta` and progress tokens; 28 the client makes on its own (8
 * initialize and 8 notifications/initialized, 1 server/discover, 8 tools/list after a structured tool
 * result, 3 input_required retries carrying the intent's answer).
 */
import { spawn } from 'node:child_process';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { catalogServerOptions } from '../../runtime/mcp/catalog/catalog.ts';
import { McpClient, type ServerRequestHandlers } from '../../runtime/mcp/client/client.ts';
import { PeerChannel } from '../../runtime/mcp/client/channels.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { stdioTransport } from '../../runtime/transports/stdio.ts';
import { createLinkedPair, type Transport } from '../../runtime/transports/transport.ts';
import sample from '../../samples/recorded-server.ts';
import { CLIENT_INFO, type ClientIntent, type IntentCall } from '../mcp-client/intents.ts';
import { describeDifference, firstDifference } from './json-diff.ts';
import { ROOT } from './project.ts';
import type { RecordedSession, Side } from './recordings.ts';
import { createRenumbering } from './renumber.ts';
import { EXIT_TIMEOUT_MS, SERVER_COMMAND } from './stdio-server.ts';

/** Where the recorded server runs. */
export type ServerKind = 'stdio' | 'memory';

/** One frame on the wire: who sent it, parsed (a frame that is not JSON is kept as `{raw}`). */
export interface WireFrame {
  readonly from: Side;
  readonly json: unknown;
}

export interface CallOutcome {
  readonly call: IntentCall;
  readonly result?: unknown;
  readonly error?: unknown;
}

export interface DriveResult {
  readonly frames: readonly WireFrame[];
  /** One per call of the intent that was made (fewer when connect() failed). */
  readonly outcomes: readonly CallOutcome[];
  /** connect() failed with this. */
  readonly connectError?: unknown;
  /** The child's stderr (stdio), for failure messages. */
  readonly stderr: string;
  /** The child's exit code (stdio); undefined in memory. */
  readonly exitCode?: number | null;
}

/**
 * How long one call may take before the client gives up. Generous: the first call also waits for the child
 * to start (tsx compiling the server), which takes seconds on a loaded two-core machine.
 */
const CALL_TIMEOUT_MS = 30_000;

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
};

/** `transport`, keeping every frame sent (by the client) and delivered (from the server) in `frames`. */
export function tapTransport(transport: Transport, frames: WireFrame[]): Transport {
  return {
    start(sink) {
      transport.start({
        ...sink,
        message(text) {
          frames.push({ from: 'server', json: parse(text) });
          sink.message(text);
        },
        close: () => sink.close(),
      });
    },
    send(text, meta) {
      frames.push({ from: 'client', json: parse(text) });
      transport.send(text, meta);
    },
    close: () => transport.close(),
  };
}

interface Started {
  readonly channel: PeerChannel;
  readonly stderr: () => string;
  readonly exitCode: () => number | null | undefined;
}

/** The recorded server as a child process; closing the channel ends its stdin and waits (killing it if it lingers). */
function startStdio(frames: WireFrame[]): Started {
  const [program, ...args] = SERVER_COMMAND;
  const child = spawn(program!, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let code: number | null | undefined;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.on('error', (e) => (stderr += `\n[client-replay] stdin: ${e.message}\n`));
  const exited = new Promise<void>((resolve) => child.on('close', (c) => resolve(void (code = c))));
  const channel = new PeerChannel(tapTransport(stdioTransport(child.stdout, child.stdin), frames), async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  });
  return { channel, stderr: () => stderr, exitCode: () => code };
}

/** The same sample in this process, over an in-memory pair. */
function startMemory(frames: WireFrame[]): Started {
  const [clientSide, serverSide] = createLinkedPair();
  const server = new McpServer(catalogServerOptions(sample, { log: () => {} }));
  server.connect(serverSide);
  return { channel: new PeerChannel(tapTransport(clientSide, frames)), stderr: () => '', exitCode: () => undefined };
}

function handlersFor(intent: ClientIntent): ServerRequestHandlers {
  // The recorded answers, replayed as they were recorded (the server checks each against its schema).
  return Object.fromEntries(
    Object.entries(intent.answers ?? {}).map(([method, answer]) => [method, () => structuredClone(answer)]),
  ) as ServerRequestHandlers;
}

/** Plays `intent` with a new McpClient against a new recorded server; never throws for a failed call. */
export async function driveIntent(intent: ClientIntent, kind: ServerKind = 'stdio'): Promise<DriveResult> {
  const frames: WireFrame[] = [];
  const started = kind === 'stdio' ? startStdio(frames) : startMemory(frames);
  const client = new McpClient(started.channel, {
    clientInfo: { ...CLIENT_INFO },
    capabilities: structuredClone(intent.capabilities),
    mode: intent.mode,
    ...(intent.protocolVersion ? { protocolVersion: intent.protocolVersion } : {}),
    handlers: handlersFor(intent),
    timeoutMs: CALL_TIMEOUT_MS,
  });
  const outcomes: CallOutcome[] = [];
  let connectError: unknown;
  try {
    await client.connect();
    for (const call of intent.calls) {
      try {
        outcomes.push({ call, result: await client.call(call.method, call.params, call.progress ? { progress: true } : {}) });
      } catch (error) {
        outcomes.push({ call, error });
      }
    }
  } catch (error) {
    connectError = error;
  } finally {
    await client.close();
  }
  const exitCode = started.exitCode();
  return {
    frames,
    outcomes,
    stderr: started.stderr(),
    ...(connectError !== undefined ? { connectError } : {}),
    ...(exitCode !== undefined ? { exitCode } : {}),
  };
}

export interface ClientComparison {
  /** The recorded client messages. */
  readonly total: number;
  /** Recorded client messages equal (after renumbering) to the client message at the same position. */
  readonly matched: number;
  /** One line per position that differs (or is missing, or is extra). */
  readonly mismatches: readonly string[];
}

const label = (m: unknown): string => {
  const o = (typeof m === 'object' && m !== null ? m : {}) as JsonObject;
  return typeof o['method'] === 'string'
    ? `${String(o['method'])}${'id' in o ? ` id ${JSON.stringify(o['id'])}` : ''}`
    : `response id ${JSON.stringify(o['id'])}`;
};

/** The client messages of both streams, renumbered, compared position by position. */
export function compareClientMessages(session: RecordedSession, frames: readonly WireFrame[]): ClientComparison {
  const recorded = createRenumbering();
  const actual = createRenumbering();
  const expected = session.messages.flatMap((m) => {
    const json = recorded.apply(m.from, m.json ?? { raw: m.raw });
    return m.from === 'client' ? [json] : [];
  });
  const sent = frames.flatMap((f) => {
    const json = actual.apply(f.from, f.json);
    return f.from === 'client' ? [json] : [];
  });
  let matched = 0;
  const mismatches: string[] = [];
  for (let i = 0; i < Math.max(expected.length, sent.length); i++) {
    const where = `${session.name}, client message #${i + 1}`;
    if (i >= sent.length) mismatches.push(`${where} (${label(expected[i])}): never sent`);
    else if (i >= expected.length) mismatches.push(`${where}: extra message ${JSON.stringify(sent[i])}`);
    else {
      const d = firstDifference(expected[i], sent[i]);
      if (d) mismatches.push(`${where} (${label(expected[i])}): ${describeDifference(d)}`);
      else matched++;
    }
  }
  return { total: expected.length, matched, mismatches };
}
