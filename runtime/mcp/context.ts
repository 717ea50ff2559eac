/**
 * @module mcp/context — builds the RequestContext a handler receives, from what the era knows about the
 * request: who to notify, whether progress and logs were asked for, and how input is obtained.
 */
import type { JsonObject, RequestId } from '../jsonrpc/message.ts';
import { LOGGING_LEVELS } from './protocol.ts';
import type { InputMethod, InputRequest, InputResult, InputResults, LoggingLevel, RequestContext, WireInputRequest } from './types.ts';

/** What a request's context is built from: the fields it passes on as they are, and what its methods use. */
export interface ContextInit extends Pick<
  RequestContext,
  'method' | 'id' | 'era' | 'protocolVersion' | 'signal' | 'clientCapabilities' | 'clientInfo'
> {
  readonly progressToken: RequestId | undefined;
  /** The lowest level the client wants, or undefined for none (no notifications/message at all). */
  readonly logLevel: LoggingLevel | undefined;
  readonly state: unknown;
  notify(method: string, params: JsonObject): void;
  /** Server-wide change notifications (see RequestContext.listChanged). */
  changed(kind: 'tools' | 'prompts' | 'resources' | { uri: string }): void;
  /** Ends the request's SSE stream for the client to resume (RequestContext.closeStream). Default a no-op. */
  closeStream?(): void;
  /** Obtains all `requests` (see RequestContext.input). */
  obtain(requests: Readonly<Record<string, WireInputRequest>>): Promise<Record<string, JsonObject>>;
}

/** A context plus what the handler asked to keep for the next round. */
export interface BuiltContext extends RequestContext {
  readonly kept: { readonly set: boolean; readonly data: unknown };
}

export function admits(threshold: LoggingLevel | undefined, level: LoggingLevel): boolean {
  return threshold !== undefined && LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}

export function createContext(init: ContextInit): BuiltContext {
  const kept = { set: false, data: undefined as unknown };
  return {
    method: init.method,
    id: init.id,
    era: init.era,
    protocolVersion: init.protocolVersion,
    get signal() {
      return init.signal;
    },
    clientCapabilities: init.clientCapabilities,
    clientInfo: init.clientInfo,
    state: init.state,
    kept,
    progress(progress, total, message) {
      if (init.progressToken === undefined || init.signal.aborted) return;
      const params: JsonObject = { progressToken: init.progressToken, progress };
      if (total !== undefined) params['total'] = total;
      if (message !== undefined) params['message'] = message;
      init.notify('notifications/progress', params);
    },
    log(level, data, logger) {
      if (!admits(init.logLevel, level) || init.signal.aborted) return;
      init.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data });
    },
    // The answers are checked against the schema of the revision in use before they are returned (handshake:
    // askClient; 2026-07-28: answersFor), so they are the typed results; the requests go out as they are.
    async input<M extends InputMethod>(key: string, request: InputRequest<M>): Promise<InputResult<M>> {
      return (await init.obtain({ [key]: request as WireInputRequest }))[key] as InputResult<M>;
    },
    async inputs<R extends Readonly<Record<string, InputRequest>>>(requests: R): Promise<InputResults<R>> {
      return (await init.obtain(requests as Readonly<Record<string, WireInputRequest>>)) as InputResults<R>;
    },
    listChanged(kind) {
      init.changed(kind);
    },
    resourceUpdated(uri) {
      init.changed({ uri });
    },
    keepState(data) {
      kept.set = true;
      kept.data = data;
    },
    closeStream() {
      init.closeStream?.();
    },
  };
}
