/**
 * @module a2a/errors — A2A errors (specification §3.3.2, §5.4) with their JSON-RPC code, HTTP status and
 * gRPC status name, carried as google.rpc.ErrorInfo (and BadRequest for validation) details. Messages are
 * the official SDK's where the recordings show them.
 */
import { pin } from '@wiregen/a2a-1.0';
import type { A2aBehaviour } from './types.ts';

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
const DOMAIN = 'a2a-protocol.org';

export interface FieldViolation {
  readonly field: string;
  readonly message: string;
}

export class A2aError extends Error {
  readonly code: number;
  /** UPPER_SNAKE_CASE error type without "Error" (ErrorInfo.reason); undefined for plain JSON-RPC errors. */
  readonly reason: string | undefined;
  readonly httpStatus: number;
  readonly grpcStatus: string;
  /** ErrorInfo metadata the error carries when the behaviour asks for context (e.g. the task id). */
  readonly context: Record<string, unknown>;
  readonly violations: readonly FieldViolation[];

  constructor(
    code: number,
    message: string,
    options: { reason?: string; httpStatus: number; grpcStatus: string; context?: Record<string, unknown>; violations?: readonly FieldViolation[] },
  ) {
    super(message);
    this.name = 'A2aError';
    this.code = code;
    this.reason = options.reason;
    this.httpStatus = options.httpStatus;
    this.grpcStatus = options.grpcStatus;
    this.context = options.context ?? {};
    this.violations = options.violations ?? [];
  }

  /** The details array: an ErrorInfo, and a BadRequest with the field violations when there are any. */
  details(behaviour: A2aBehaviour): Record<string, unknown>[] | undefined {
    if (!this.reason) return undefined;
    const metadata: Record<string, unknown> = behaviour.errorMetadata === 'context' ? { ...this.context } : {};
    if (this.violations.length) metadata['errors'] = this.violations.map((v) => ({ field: v.field, message: v.message }));
    const details: Record<string, unknown>[] = [{ '@type': ERROR_INFO, domain: DOMAIN, metadata, reason: this.reason }];
    if (this.violations.length)
      details.push({ '@type': BAD_REQUEST, fieldViolations: this.violations.map((v) => ({ description: v.message, field: v.field })) });
    return details;
  }

  /** The JSON-RPC error object. */
  toJsonRpc(behaviour: A2aBehaviour): Record<string, unknown> {
    const data = this.details(behaviour);
    return data ? { code: this.code, data, message: this.message } : { code: this.code, message: this.message };
  }

  /** The HTTP+JSON body: google.rpc.Status. */
  toStatus(behaviour: A2aBehaviour): Record<string, unknown> {
    const details = this.details(behaviour);
    return { error: { code: this.httpStatus, status: this.grpcStatus, message: this.message, ...(details ? { details } : {}) } };
  }
}

/**
 * A2A 1.0's error types with their JSON-RPC code, HTTP status and gRPC status: the A2A-specific ones as §5.4
 * (Error Code Mappings) maps them; the standard JSON-RPC ones of §9.5 with the statuses of §3.3.2's categories
 * (validation: 400 INVALID_ARGUMENT; system: 500 INTERNAL) and, for an unknown method, the official SDK's
 * 404 UNIMPLEMENTED (kit/out/11-errors.http). The schema and proto define no errors, so this is the one table.
 */
export const A2A_ERROR_TYPES = {
  JSONParseError: { code: -32700, httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT' },
  InvalidRequestError: { code: -32600, httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT' },
  MethodNotFoundError: { code: -32601, httpStatus: 404, grpcStatus: 'UNIMPLEMENTED' },
  InvalidParamsError: { code: -32602, httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT' },
  InternalError: { code: -32603, httpStatus: 500, grpcStatus: 'INTERNAL' },
  TaskNotFoundError: { code: -32001, httpStatus: 404, grpcStatus: 'NOT_FOUND' },
  TaskNotCancelableError: { code: -32002, httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' },
  PushNotificationNotSupportedError: { code: -32003, httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' },
  UnsupportedOperationError: { code: -32004, httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' },
  ContentTypeNotSupportedError: { code: -32005, httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT' },
  InvalidAgentResponseError: { code: -32006, httpStatus: 500, grpcStatus: 'INTERNAL' },
  ExtendedAgentCardNotConfiguredError: { code: -32007, httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' },
  ExtensionSupportRequiredError: { code: -32008, httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' },
  VersionNotSupportedError: { code: -32009, httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' },
} as const satisfies Record<string, { code: number; httpStatus: number; grpcStatus: string }>;

export type A2aErrorType = keyof typeof A2A_ERROR_TYPES;

/** A type's google.rpc.ErrorInfo `reason` (§11.6): its name in UPPER_SNAKE_CASE without "Error" (TaskNotFoundError → TASK_NOT_FOUND). */
export function reasonOf(type: string): string {
  return type
    .replace(/Error$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}

/** An error of `type` (its code and statuses from the table); `reason` adds the ErrorInfo detail (§9.5, §11.6). */
function typed(
  type: A2aErrorType,
  message: string,
  options: { reason?: boolean; context?: Record<string, unknown>; violations?: readonly FieldViolation[] } = {},
): A2aError {
  const { code, httpStatus, grpcStatus } = A2A_ERROR_TYPES[type];
  return new A2aError(code, message, {
    httpStatus,
    grpcStatus,
    ...(options.reason === false ? {} : { reason: reasonOf(type) }),
    ...(options.context ? { context: options.context } : {}),
    ...(options.violations ? { violations: options.violations } : {}),
  });
}

/** The errors the agent answers; the standard JSON-RPC ones without an ErrorInfo but Validation failed (as the official SDK, recordings a2a_errors). */
export const A2aErrors = {
  parse: () => typed('JSONParseError', 'Parse error', { reason: false }),
  invalidRequest: (message = 'Invalid Request') => typed('InvalidRequestError', message, { reason: false }),
  methodNotFound: () => typed('MethodNotFoundError', 'Method not found', { reason: false }),
  invalidParams: (violations: readonly FieldViolation[]) => typed('InvalidParamsError', 'Validation failed', { violations }),
  internal: () => typed('InternalError', 'Internal error', { reason: false }),
  /**
   * The task store is unreachable (store.ts StoreUnavailableError): an internal error by its JSON-RPC code, but
   * HTTP 503 (with Retry-After) and gRPC UNAVAILABLE, the statuses a client retries on.
   */
  unavailable: () =>
    new A2aError(A2A_ERROR_TYPES.InternalError.code, 'The task store is unavailable: retry shortly', { httpStatus: 503, grpcStatus: 'UNAVAILABLE' }),
  taskNotFound: (taskId?: string) => typed('TaskNotFoundError', 'Task not found', taskId ? { context: { taskId } } : {}),
  taskNotCancelable: (taskId: string) => typed('TaskNotCancelableError', 'Task cannot be canceled', { context: { taskId } }),
  pushNotSupported: () => typed('PushNotificationNotSupportedError', 'Push Notification is not supported'),
  unsupported: (message: string, context?: Record<string, unknown>) => typed('UnsupportedOperationError', message, context ? { context } : {}),
  terminal: (taskId: string, state: string) => A2aErrors.unsupported(`Task ${taskId} is in terminal state: ${state}`, { taskId }),
  contentType: (mediaType: string) => typed('ContentTypeNotSupportedError', 'Incompatible content types', { context: { mediaType } }),
  versionNotSupported: (requested: string, expected: string = pin.revision) =>
    typed('VersionNotSupportedError', `A2A version '${requested}' is not supported by this handler. Expected version '${expected}'.`, {
      context: { requested },
    }),
  noExtendedCard: () => A2aErrors.unsupported('The agent does not support authenticated extended cards'),
  /** A capability gate of the dispatch table that the card does not open: its own error where A2A names one. */
  capabilityMissing: (method: string, path: readonly string[]): A2aError =>
    path[0] === 'pushNotifications'
      ? A2aErrors.pushNotSupported()
      : path[0] === 'extendedAgentCard'
        ? A2aErrors.noExtendedCard()
        : A2aErrors.unsupported(`${method} is not supported by this agent (capability ${path.join('.')})`),
  /** The card declares `capabilities.extendedAgentCard` but the server was given no extended card (§3.3.4). */
  extendedCardNotConfigured: () => typed('ExtendedAgentCardNotConfiguredError', 'Extended Card not configured'),
};
