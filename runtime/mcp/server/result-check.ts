/**
 * @module mcp/server/result-check — the last step of either era: the result checked against the schema of the
 * revision in use (McpServerOptions.validateResults), or against the result shape an extension adds to the
 * method; a result the schema rejects is logged and answered -32603.
 */
import type { JsonObject } from '../../jsonrpc/message.ts';
import { isReusable } from '../../jsonrpc/reusable.ts';
import type { Check, MethodEntry } from '../../core/index.ts';
import type { Revision } from '../revisions.ts';
import { internalError } from './errors.ts';
import type { McpServerExtension } from './extensions.ts';
import type { McpServer } from './server.ts';

/** The schema check of a result shape an extension among `extensions` adds to `method` (its `resultType`), or undefined. */
function extensionResult(extensions: readonly McpServerExtension[], method: string, resultType: unknown): Check | undefined {
  if (typeof resultType !== 'string') return undefined;
  for (const ext of extensions) {
    const shape = ext.results?.[resultType];
    if (shape?.methods.includes(method)) return shape.check;
  }
  return undefined;
}

/**
 * The reusable results (jsonrpc/reusable.ts: deep-frozen, so still what was checked) each check has passed: a
 * catalog's page of tools/list is checked once per revision, not on every request.
 */
const PASSED = new WeakMap<Check, WeakSet<object>>();

function passed(validate: Check): WeakSet<object> {
  let set = PASSED.get(validate);
  if (!set) PASSED.set(validate, (set = new WeakSet()));
  return set;
}

const checkedBefore = (validate: Check, result: unknown): boolean => isReusable(result) && PASSED.get(validate)?.has(result) === true;

/** Validates an outgoing result; logs and throws -32603 when the schema rejects it. */
export function checkResult(server: McpServer, entry: MethodEntry, result: unknown, revision: Revision): void {
  const inputRequired = result !== null && typeof result === 'object' && (result as JsonObject)['resultType'] === 'input_required';
  const added = extensionResult(server.extensions, entry.method, (result as JsonObject | null)?.['resultType']);
  const validate = added ?? (inputRequired ? revision.validators['InputRequiredResult'] : entry.result);
  if (inputRequired && !validate) {
    server.log(`${entry.method} returned input_required, which ${revision.version} does not have (use ctx.input)`);
    throw internalError();
  }
  if (server.options.validateResults === false || !validate) return;
  if (checkedBefore(validate, result)) return;
  if (validate(result)) {
    if (isReusable(result)) passed(validate).add(result);
    return;
  }
  const e = validate.errors?.[0];
  server.log(`${entry.method} result does not match the ${revision.version} schema: ${e?.instancePath || '(root)'} ${e?.message}`);
  throw internalError();
}
