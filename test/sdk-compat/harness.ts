/**
 * @module test/sdk-compat/harness — runs a server of servers/ on either runtime (the official SDK v2, or
 * wiregen through on-wiregen.mjs, which changes nothing but the server file's imports of the SDK's server
 * package) and connects an official client to it: `@modelcontextprotocol/sdk` 1.32.2 (handshake era) or
 * `@modelcontextprotocol/client` 2.4.0 (legacy: handshake; auto: 2026-07-28), over stdio or Streamable HTTP
 * on 127.0.0.1. Every process started here is killed by `stopAll`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../helpers/project.ts';

export type Runtime = 'sdk' | 'wiregen';
export type Flavour = 'sdk-1.32.2' | 'v2-legacy' | 'v2-auto';
export const RUNTIMES: readonly Runtime[] = ['sdk', 'wiregen'];
export const FLAVOURS: readonly Flavour[] = ['sdk-1.32.2', 'v2-legacy', 'v2-auto'];

const HERE = join(ROOT, 'test', 'sdk-compat');
/** The node arguments that run `server` (a file of servers/) on `runtime`. */
export function serverArgs(server: string, runtime: Runtime): string[] {
  return ['--import', 'tsx', ...(runtime === 'wiregen' ? ['--import', join(HERE, 'on-wiregen.mjs')] : []), join(HERE, 'servers', server)];
}

const children: ChildProcess[] = [];
export function stopAll(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Starts an HTTP server of servers/ and resolves with its URL (its ready line on stderr). */
export function startHttp(server: string, runtime: Runtime, timeoutMs = 60_000): Promise<URL> {
  const child = spawn(process.execPath, serverArgs(server, runtime), { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${server} on ${runtime}: not ready in ${timeoutMs} ms\n${seen}`)), timeoutMs);
    child.stderr.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = seen.match(/\{"ready":true,"url":"([^"]+)"\}/);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${server} on ${runtime} exited ${code}\n${seen}`));
    });
  });
}

/** What a scenario reads of a call: its result, or the error's code, message and data. */
export async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return await call;
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown };
    return { error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
  }
}

/** The calls a scenario makes, the same on either client. */
export interface Connected {
  readonly flavour: Flavour;
  readonly version: string | undefined;
  /** Every notification received, in order: method and params. */
  readonly notifications: { method: string; params: unknown }[];
  listTools(): Promise<unknown>;
  callTool(name: string, args?: Record<string, unknown>, options?: { onprogress?: (p: unknown) => void; signal?: AbortSignal }): Promise<unknown>;
  listResources(): Promise<unknown>;
  listResourceTemplates(): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  listPrompts(): Promise<unknown>;
  getPrompt(name: string, args?: Record<string, string>): Promise<unknown>;
  complete(params: Record<string, unknown>): Promise<unknown>;
  setLoggingLevel(level: 'debug' | 'info' | 'warning'): Promise<unknown>;
  close(): Promise<void>;
}

const INFO = { name: 'sdk-compat', version: '1.0.0' };
const CAPABILITIES = { capabilities: { elicitation: { form: {} }, sampling: {} } };
/** The client's answers: an elicitation form filled in, a sampled message. */
export const ELICITED = { action: 'accept', content: { rating: 5, comment: 'Smooth setup' } } as const;
export const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'Autumn moonlight' },
  model: 'test-model',
  stopReason: 'endTurn',
} as const;

export async function connect(flavour: Flavour, target: { stdio: string } | { http: URL }, runtime: Runtime): Promise<Connected> {
  const notifications: { method: string; params: unknown }[] = [];
  const stdio =
    'stdio' in target ? { command: process.execPath, args: serverArgs(target.stdio, runtime), cwd: ROOT, stderr: 'pipe' as const } : undefined;
  if (flavour === 'sdk-1.32.2') {
    const c = new V1Client(INFO, CAPABILITIES);
    c.setRequestHandler(ElicitRequestSchema, () => ELICITED);
    c.setRequestHandler(CreateMessageRequestSchema, () => SAMPLED);
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notifications.push({ method: n.method, params: n.params }));
    c.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void notifications.push({ method: n.method, params: n.params }));
    await c.connect(stdio ? new V1Stdio(stdio) : new V1Http((target as { http: URL }).http));
    return {
      flavour,
      version: undefined,
      notifications,
      listTools: () => c.listTools(),
      callTool: (name, args = {}, options) => c.callTool({ name, arguments: args }, undefined, options as never),
      listResources: () => c.listResources(),
      listResourceTemplates: () => c.listResourceTemplates(),
      readResource: (uri) => c.readResource({ uri }),
      listPrompts: () => c.listPrompts(),
      getPrompt: (name, args) => c.getPrompt({ name, ...(args ? { arguments: args } : {}) }),
      complete: (params) => c.complete(params as never),
      setLoggingLevel: (level) => c.setLoggingLevel(level),
      close: () => c.close(),
    };
  }
  const c = new V2Client(INFO, { ...CAPABILITIES, versionNegotiation: { mode: flavour === 'v2-legacy' ? 'legacy' : 'auto' } });
  c.setRequestHandler('elicitation/create', () => ELICITED);
  c.setRequestHandler('sampling/createMessage', () => SAMPLED);
  c.setNotificationHandler('notifications/message', (n) => void notifications.push({ method: n.method, params: n.params }));
  c.setNotificationHandler('notifications/tools/list_changed', (n) => void notifications.push({ method: n.method, params: n.params }));
  await c.connect(stdio ? new V2Stdio(stdio) : new V2Http((target as { http: URL }).http));
  return {
    flavour,
    version: c.getNegotiatedProtocolVersion(),
    notifications,
    listTools: () => c.listTools(),
    callTool: (name, args = {}, options) => c.callTool({ name, arguments: args }, options as never),
    listResources: () => c.listResources(),
    listResourceTemplates: () => c.listResourceTemplates(),
    readResource: (uri) => c.readResource({ uri }),
    listPrompts: () => c.listPrompts(),
    getPrompt: (name, args) => c.getPrompt({ name, ...(args ? { arguments: args } : {}) }),
    complete: (params) => c.complete(params as never),
    setLoggingLevel: (level) => c.setLoggingLevel(level),
    close: () => c.close(),
  };
}
