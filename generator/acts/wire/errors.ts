/**
 * @module acts/wire/errors — naming the A2A error an answer carries (§6.2: the abstract error types and their
 * transport mappings). The runtime's client reads the JSON-RPC code or the google.rpc.Status with its
 * ErrorInfo reason (A2A 1.0 §9.5, §11.6) the way it reads them for its users; a bare HTTP status (no Status
 * body, or one without a reason) is named by ACTS §6.2's REST column where that column names one type.
 */
import { A2aClientError } from '@wiregen/runtime/a2a';

/** The error of an answer, as expectations read it. */
export interface AnsweredError {
  /** The A2A error type (`TaskNotFoundError`), when the answer says which. */
  readonly type: string | undefined;
  /** Its JSON-RPC code (§9.5), the same on both bindings. */
  readonly code: number | undefined;
  readonly message: unknown;
  /** JSON-RPC `error.data`, or the google.rpc.Status `details`. */
  readonly data: unknown;
}

/** ACTS §6.2's REST column, where a status stands for one type. */
const TYPE_OF_HTTP: Readonly<Record<number, string>> = {
  404: 'TaskNotFoundError',
  409: 'TaskNotCancelableError',
  405: 'UnsupportedOperationError',
  415: 'ContentTypeNotSupportedError',
  406: 'VersionNotSupportedError',
  500: 'InternalError',
};

/**
 * Names ACTS §6.2 uses for types A2A 1.0 names otherwise (§6.2's note: the A2A specification takes
 * precedence); an expectation of either name accepts the other.
 */
export const TYPE_ALIASES: Readonly<Record<string, string>> = {
  ExtendedCardNotSupportedError: 'ExtendedAgentCardNotConfiguredError',
};

/** A JSON-RPC error object's meaning. */
export function jsonRpcError(error: { code?: unknown; message?: unknown; data?: unknown }): AnsweredError {
  const code = typeof error.code === 'number' ? error.code : Number.NaN;
  const named = new A2aClientError(code, String(error.message ?? ''), error.data);
  return { type: named.type, code: typeof error.code === 'number' ? error.code : undefined, message: error.message, data: error.data };
}

/** An HTTP+JSON error answer's meaning: a google.rpc.Status body, else the status alone. */
export function restError(status: number, body: unknown): AnsweredError {
  const e = body !== null && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (e !== null && typeof e === 'object' && typeof (e as { code?: unknown }).code === 'number') {
    const s = e as { code: number; status?: unknown; message?: unknown; details?: unknown };
    const named = new A2aClientError(s.code, String(s.message ?? ''), s.details, status, undefined, typeof s.status === 'string' ? s.status : '');
    const type = named.reason !== undefined ? named.type : (TYPE_OF_HTTP[status] ?? named.type);
    return { type, code: named.code, message: s.message, data: s.details };
  }
  const message =
    body !== null && typeof body === 'object'
      ? ((body as { title?: unknown; detail?: unknown }).detail ?? (body as { title?: unknown }).title)
      : body;
  return { type: TYPE_OF_HTTP[status], code: undefined, message, data: body };
}
