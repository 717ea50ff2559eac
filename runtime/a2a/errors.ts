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

const precondition = { httpStatus: 400, grpcStatus: 'FAILED_PRECONDITION' } as const;

export const A2aErrors = {
  parse: () => new A2aError(-32700, 'Parse error', { httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT' }),
  invalidRequest: (message = 'Invalid Request') => new A2aError(-32600, message, { httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT' }),
  methodNotFound: () => new A2aError(-32601, 'Method not found', { httpStatus: 404, grpcStatus: 'UNIMPLEMENTED' }),
  invalidParams: (violations: readonly FieldViolation[]) =>
    new A2aError(-32602, 'Validation failed', { reason: 'INVALID_PARAMS', httpStatus: 400, grpcStatus: 'INVALID_ARGUMENT', violations }),
  internal: () => new A2aError(-32603, 'Internal error', { httpStatus: 500, grpcStatus: 'INTERNAL' }),
  taskNotFound: (taskId?: string) =>
    new A2aError(-32001, 'Task not found', {
      reason: 'TASK_NOT_FOUND',
      httpStatus: 404,
      grpcStatus: 'NOT_FOUND',
      ...(taskId ? { context: { taskId } } : {}),
    }),
  taskNotCancelable: (taskId: string) =>
    new A2aError(-32002, 'Task cannot be canceled', { reason: 'TASK_NOT_CANCELABLE', ...precondition, context: { taskId } }),
  pushNotSupported: () => new A2aError(-32003, 'Push Notification is not supported', { reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED', ...precondition }),
  unsupported: (message: string, context?: Record<string, unknown>) =>
    new A2aError(-32004, message, { reason: 'UNSUPPORTED_OPERATION', ...precondition, ...(context ? { context } : {}) }),
  terminal: (taskId: string, state: string) => A2aErrors.unsupported(`Task ${taskId} is in terminal state: ${state}`, { taskId }),
  contentType: (mediaType: string) =>
    new A2aError(-32005, 'Incompatible content types', {
      reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      httpStatus: 400,
      grpcStatus: 'INVALID_ARGUMENT',
      context: { mediaType },
    }),
  versionNotSupported: (requested: string, expected: string = pin.revision) =>
    new A2aError(-32009, `A2A version '${requested}' is not supported by this handler. Expected version '${expected}'.`, {
      reason: 'VERSION_NOT_SUPPORTED',
      ...precondition,
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
  extendedCardNotConfigured: () =>
    new A2aError(-32007, 'Extended Card not configured', { reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', ...precondition }),
};
