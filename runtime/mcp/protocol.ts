/**
 * @module mcp/protocol — what the MCP schema fixes beside its types, as the runtime uses it: the error codes
 * of the 2026-07-28 schema's error definitions (and the HTTP status they require), its reserved `_meta` keys
 * and its limits. The generator reads them off the schema (generated/<pin>/protocol.ts); the registry
 * (@wiregen/revisions) carries them too, so none of this loads a revision's validators. Also the order of
 * the schema's logging levels, which the schema leaves to RFC 5424.
 */
import type { LoggingLevel } from '@wiregen/mcp-2026-07-28';
import { latest, mcp } from '@wiregen/revisions';

const newest = mcp[latest.stateless].protocol;

/**
 * The MCP error codes beyond JSON-RPC's (schema `$defs` HeaderMismatchError, MissingRequiredClientCapabilityError,
 * UnsupportedProtocolVersionError).
 */
export const MCP_ERRORS = {
  headerMismatch: newest.errors.HeaderMismatchError.code,
  missingClientCapability: newest.errors.MissingRequiredClientCapabilityError.code,
  unsupportedVersion: newest.errors.UnsupportedProtocolVersionError.code,
} as const;

/** The codes whose error definition requires HTTP 400 Bad Request ("For HTTP, the response status code MUST be `400 Bad Request`"). */
export const HTTP_400_CODES: ReadonlySet<number> = new Set(
  Object.values(newest.errors).flatMap((e) => ('httpStatus' in e && e.httpStatus === 400 ? [e.code] : [])),
);

/** The reserved `_meta` keys (schema `$defs` RequestMetaObject, ResultMetaObject, NotificationMetaObject), by name. */
export const META = newest.metaKeys;

/** The most values a completion/complete result carries (schema CompleteResult `completion.values.maxItems`). */
export const MAX_COMPLETION_VALUES: number = newest.limits['CompleteResult.completion.values'].maxItems;

/**
 * The schema's logging levels, least severe first: the schema lists them as an enum (alphabetically) and
 * says they "map to syslog message severities, as specified in RFC-5424", whose order
 * (https://www.rfc-editor.org/rfc/rfc5424#section-6.2.1) this is.
 */
export const LOGGING_LEVELS = everyLevel(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** `levels` as they are; fails to compile unless they are every level of the schema's LoggingLevel. */
function everyLevel<const L extends readonly LoggingLevel[]>(levels: L & ([Exclude<LoggingLevel, L[number]>] extends [never] ? unknown : never)): L {
  return levels;
}
