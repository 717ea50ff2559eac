/**
 * @module @wiregen/core — what every generated package shares and the runtime reads: the shape of a
 * dispatch-table entry, a precompiled validator, ProtoJSON field order, the error a typed client raises for a
 * result its schema rejects, and the JSON Schema format checks. Pin-independent, declared once, and a leaf: it
 * imports no other package, so the generated packages depend on it and the runtime depends on them and on it.
 */

/** An ajv error: where (instancePath, a JSON pointer into the data) and why. */
export interface ValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A precompiled validator: a type guard that leaves its errors on `.errors` when it returns false. */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ValidationError[] | null;
}

/** The least a validator offers: a verdict and, after a no, where and why. Every {@link Validator} is one. */
export interface Check {
  (data: unknown): boolean;
  errors?: readonly { readonly instancePath: string; readonly message?: string }[] | null;
}

/** A path into the capabilities that gate a method: the server's, the client's, or the A2A agent card's. */
export interface CapabilityGate {
  readonly side: 'server' | 'client' | 'agent';
  readonly path: readonly string[];
}

/** An HTTP+JSON route (A2A), from the proto's google.api.http annotation. */
export interface HttpRoute {
  readonly verb: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path template: `{name}` and `{name=*}` match one segment. */
  readonly path: string;
  /** `*` when the whole request message is the body. */
  readonly body?: string;
}

/** Everything the runtime needs to receive or send one method, all derived from the schema and the manifest. */
export interface MethodEntry {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: 'client-to-server' | 'server-to-client' | 'both';
  /** Validates the whole message (MCP). */
  readonly message?: Validator<unknown>;
  /** Validates `params`. */
  readonly params?: Validator<unknown>;
  /** Whether `params` must be present. */
  readonly paramsRequired: boolean;
  /** Validates the result (each stream event, when `streaming`). */
  readonly result?: Validator<unknown>;
  /** Capabilities that must be advertised for the method to be used. */
  readonly capabilities: readonly CapabilityGate[];
  /** The result carries ttlMs and cacheScope. */
  readonly cacheable: boolean;
  /** May be answered with an input_required result (multi round-trip). */
  readonly inputRequired: boolean;
  /** May carry `task` and be answered with a CreateTaskResult. */
  readonly taskAugmented: boolean;
  /** Never a JSON-RPC message of its own: carried inside an input_required result. */
  readonly embedded: boolean;
  /** Answered with a stream of results. */
  readonly streaming: boolean;
  /** The params property the HTTP `Mcp-Name` header mirrors. */
  readonly mcpName?: string;
  /** HTTP+JSON routes, primary first. */
  readonly http: readonly HttpRoute[];
}

/** The pin a generated package was made from. */
export interface PinInfo {
  readonly id: string;
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  readonly packageName: string;
  readonly version: string;
  readonly draft: 'draft-07' | '2020-12';
}

/** One field of a proto message in ProtoJSON order (by field number). */
export interface WireField {
  /** The ProtoJSON (lowerCamelCase) name. */
  readonly name: string;
  /** The message type the field holds (a single one, each element of a list, or each value of a map). */
  readonly message?: string;
  /** The field is a map: `message` applies to each of its values. */
  readonly map?: true;
}

/**
 * What a generated typed client needs from a transport: send a request and return its result (or throw the
 * error the server answered), and, for methods that stream, yield each result.
 */
export interface ClientTransport {
  request(method: string, params: unknown, entry: MethodEntry): Promise<unknown>;
  stream?(method: string, params: unknown, entry: MethodEntry): AsyncIterable<unknown>;
}

/** A result that does not match the schema of its method. */
export class InvalidResultError extends Error {
  readonly method: string;
  readonly result: unknown;
  readonly errors: unknown;
  /** `schema` names the schema, e.g. "MCP 2026-07-28". */
  constructor(method: string, result: unknown, errors: unknown, schema: string) {
    super(`${method}: the result does not match the ${schema} schema`);
    this.name = 'InvalidResultError';
    this.method = method;
    this.result = result;
    this.errors = errors;
  }
}

/** Throws {@link InvalidResultError} unless `entry`'s result validator accepts `result`. */
export function checkResult(method: string, entry: MethodEntry, result: unknown, schema: string): void {
  if (entry.result && !entry.result(result)) throw new InvalidResultError(method, result, entry.result.errors, schema);
}

/**
 * What a generated typed client does for one request: sends it through `transport` and returns its result,
 * checked against the method's result schema (`schema` names it in the error), except where the manifest
 * lets the method answer something else (input_required, a task).
 */
export async function requestChecked(
  transport: ClientTransport,
  method: string,
  entry: MethodEntry,
  params: unknown,
  schema: string,
): Promise<unknown> {
  const result = await transport.request(method, params, entry);
  if (!entry.inputRequired && !entry.taskAugmented) checkResult(method, entry, result, schema);
  return result;
}

/** What a generated typed client does for one streaming request: each result, checked as {@link requestChecked} checks one. */
export async function* streamChecked(
  transport: ClientTransport,
  method: string,
  entry: MethodEntry,
  params: unknown,
  schema: string,
): AsyncIterable<unknown> {
  if (!transport.stream) throw new Error('this transport cannot stream');
  for await (const result of transport.stream(method, params, entry)) {
    checkResult(method, entry, result, schema);
    yield result;
  }
}

/** A dispatch table's `lookup`: the entry of `method`, or undefined when the table has no such method (not a key of Object.prototype). */
export function lookupIn(methods: Readonly<Record<string, MethodEntry>>): (method: string) => MethodEntry | undefined {
  return (method) => (Object.hasOwn(methods, method) ? methods[method] : undefined);
}
export { formats, formatsUsed, type SchemaDialect } from './formats.ts';
