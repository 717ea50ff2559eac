/**
 * @module evolve/findings — what `wiregen diff` reports: one finding per change between two pins, with a
 * rule id and a class in the manner of `buf breaking` (https://buf.build/docs/breaking/rules/).
 *
 * Classes:
 * - `wire-breaking`: a peer of one pin can send what a peer of the other rejects or misreads (a property
 *   that became required or optional, a removed method or enum value, a renamed or renumbered proto field);
 * - `source-breaking`: the messages on the wire still agree, but code compiled against the generated
 *   package of one pin does not compile against the other's (a definition removed or renamed);
 * - `compatible`: additions a peer can ignore (a new optional property, method, enum value, route).
 * Exit code 100 when anything is wire- or source-breaking, as buf exits 100 on a breaking change.
 */

export type FindingClass = 'wire-breaking' | 'source-breaking' | 'compatible';

export const CLASSES: readonly FindingClass[] = ['wire-breaking', 'source-breaking', 'compatible'];

/** One change between two pins. */
export interface Finding {
  /** Rule id, e.g. `METHOD_NO_DELETE`, `FIELD_SAME_NAME` (see {@link RULES}). */
  readonly rule: string;
  readonly class: FindingClass;
  /** The file the change is located in: the newer pin's, or the older pin's for what was removed. */
  readonly file: string;
  /** JSON pointer into `file` (schemas and manifests). */
  readonly pointer?: string;
  /** Line and column in `file` (protos, manifests). */
  readonly line?: number;
  readonly column?: number;
  /** What changed, by name: `Tool.outputSchema`, `tools/call`, `AgentInterface.url`, `A2AService.GetTask`. */
  readonly subject: string;
  readonly message: string;
}

/** Every rule: its class (or how the class is chosen) and what it reports. */
export const RULES: Readonly<Record<string, string>> = {
  PIN_NO_DELETE: 'wire-breaking: a pin (a protocol revision) is no longer generated',
  PIN_ADDED: 'compatible: a new pin',
  PIN_SAME_SERVED: 'wire-breaking when a served pin becomes a draft; compatible when a draft becomes served',
  DEF_NO_DELETE: 'source-breaking: a definition (a type and its validator) is removed',
  DEF_ADDED: 'compatible: a new definition',
  PROPERTY_NO_DELETE: 'wire-breaking when the object is closed (additionalProperties false), else source-breaking',
  PROPERTY_ADDED: 'compatible: a new optional property',
  PROPERTY_ADDED_REQUIRED: 'wire-breaking: a new required property',
  PROPERTY_RENAMED: 'wire-breaking: in a user’s spec, the sole property removed and the sole one added are alike (one schema, one required-ness)',
  PROPERTY_SAME_REQUIRED: 'wire-breaking: a property became required, or became optional',
  SCHEMA_SAME_TYPE: 'wire-breaking: the JSON type(s) changed',
  SCHEMA_SAME_REF: 'source-breaking: refers to another definition (a renamed type); its shape is compared too',
  SCHEMA_SAME_CONST: 'wire-breaking: the const changed, was added or removed',
  ENUM_VALUE_NO_DELETE: 'wire-breaking: an enum value is removed',
  ENUM_VALUE_ADDED: 'compatible: a new enum value',
  UNION_MEMBER_NO_DELETE: 'wire-breaking: an anyOf/oneOf member is removed',
  UNION_MEMBER_ADDED: 'compatible: a new anyOf/oneOf member',
  ADDITIONAL_PROPERTIES_CLOSED: 'wire-breaking: unknown properties are no longer allowed',
  ADDITIONAL_PROPERTIES_OPENED: 'compatible: unknown properties are now allowed',
  FORMAT_SAME: 'wire-breaking when a format is added or changed; compatible when removed',
  CONSTRAINT_SAME: 'wire-breaking when pattern, minimum, maximum, min/maxLength or min/maxItems is added or changed; compatible when removed',
  METHOD_NO_DELETE: 'wire-breaking: a method is removed',
  METHOD_ADDED: 'compatible: a new method',
  METHOD_SAME_KIND: 'wire-breaking: a request became a notification or the reverse',
  METHOD_SAME_DIRECTION: 'wire-breaking: the side that sends the method changed',
  METHOD_SAME_PARAMS: 'source-breaking: the params are another definition; their shapes are compared too',
  METHOD_SAME_RESULT: 'source-breaking: the result is another definition; their shapes are compared too',
  METHOD_SAME_CAPABILITY: 'wire-breaking when a capability gate is added or changed; compatible when removed',
  FILE_SAME_PACKAGE: 'wire-breaking: the proto package changed (gRPC method paths and type URLs name it)',
  MESSAGE_NO_DELETE: 'source-breaking: a proto message is removed',
  MESSAGE_ADDED: 'compatible: a new proto message',
  FIELD_NO_DELETE: 'wire-breaking: a proto field is removed (source-breaking when its name and number are reserved)',
  FIELD_ADDED: 'compatible: a new proto field (wire-breaking when it is REQUIRED)',
  FIELD_SAME_NAME: 'wire-breaking: a field number has a new name (ProtoJSON writes names)',
  FIELD_SAME_NUMBER: 'wire-breaking: a field name has a new number (the binary encoding writes numbers)',
  FIELD_SAME_TYPE: 'wire-breaking: a field’s type changed',
  FIELD_SAME_CARDINALITY: 'wire-breaking: a field became or stopped being repeated, optional or a map',
  FIELD_SAME_ONEOF: 'wire-breaking: a field moved into, out of or between oneofs',
  FIELD_SAME_REQUIRED: 'wire-breaking: google.api.field_behavior REQUIRED added or removed',
  ENUM_NO_DELETE: 'source-breaking: a proto enum is removed',
  ENUM_ADDED: 'compatible: a new proto enum',
  ENUM_VALUE_SAME_NAME: 'wire-breaking: an enum number has a new name (ProtoJSON writes names)',
  ENUM_VALUE_SAME_NUMBER: 'wire-breaking: an enum name has a new number',
  SERVICE_NO_DELETE: 'wire-breaking: a service is removed',
  RPC_NO_DELETE: 'wire-breaking: an rpc is removed',
  RPC_ADDED: 'compatible: a new rpc',
  RPC_SAME_REQUEST_TYPE: 'wire-breaking: an rpc takes another message',
  RPC_SAME_RESPONSE_TYPE: 'wire-breaking: an rpc returns another message',
  RPC_SAME_CLIENT_STREAMING: 'wire-breaking: an rpc’s request became or stopped being a stream',
  RPC_SAME_SERVER_STREAMING: 'wire-breaking: an rpc’s response became or stopped being a stream',
  HTTP_ROUTE_NO_DELETE: 'wire-breaking: an HTTP route (google.api.http binding) is removed',
  HTTP_ROUTE_ADDED: 'compatible: a new HTTP route',
  HTTP_ROUTE_SAME_BODY: 'wire-breaking: an HTTP route takes another body',
  // A user's spec (evolve/spec/diff.ts). Its schemas use the rules above, classed by the way their values
  // travel: a tool's inputSchema as what clients send, its outputSchema as what they receive.
  SPEC_SAME_KIND: 'wire-breaking: the spec became an A2A agent, or an MCP server',
  CAPABILITY_NO_DELETE: 'wire-breaking: a capability section or flag is removed or turned off',
  CAPABILITY_ADDED: 'compatible: a capability section or flag is added',
  CAPABILITY_SAME: 'wire-breaking: a capability value changed',
  SERVER_SAME_CHOICE: 'wire-breaking: a wire choice of the spec (unknownTool, isErrorFalse, …) changed',
  TOOL_NO_DELETE: 'wire-breaking: a tool is removed',
  TOOL_ADDED: 'compatible: a new tool',
  TOOL_OUTPUT_NO_DELETE: 'wire-breaking: a tool no longer has an outputSchema (no structuredContent)',
  TOOL_OUTPUT_ADDED: 'compatible: a tool now has an outputSchema',
  TOOL_ANNOTATION_SAME:
    'wire-breaking when a hint leaves its safe value (defaults applied: readOnlyHint true→false, destructiveHint false→true, idempotentHint true→false, openWorldHint false→true); compatible the other way',
  TOOL_SAME_OUTPUT: 'wire-breaking: a tool’s result is made another way (output: wrapped, structured, text, result)',
  RESOURCE_NO_DELETE: 'wire-breaking: a resource is removed',
  RESOURCE_ADDED: 'compatible: a new resource',
  RESOURCE_SAME_MIME_TYPE: 'wire-breaking: a resource’s mimeType changed',
  TEMPLATE_NO_DELETE: 'wire-breaking: a resource template is removed',
  TEMPLATE_ADDED: 'compatible: a new resource template',
  TEMPLATE_SAME_MIME_TYPE: 'wire-breaking: a resource template’s mimeType changed',
  PROMPT_NO_DELETE: 'wire-breaking: a prompt is removed',
  PROMPT_ADDED: 'compatible: a new prompt',
  PROMPT_ARGUMENT_NO_DELETE: 'wire-breaking: a prompt argument is removed',
  PROMPT_ARGUMENT_ADDED: 'compatible: a new optional prompt argument',
  PROMPT_ARGUMENT_ADDED_REQUIRED: 'wire-breaking: a new required prompt argument',
  PROMPT_ARGUMENT_RENAMED: 'wire-breaking: the sole prompt argument removed and the sole one added have one required-ness',
  PROMPT_ARGUMENT_SAME_REQUIRED: 'wire-breaking when an argument became required; compatible when it became optional',
  INTERFACE_NO_DELETE: 'wire-breaking: an agent interface (a protocol binding) is removed',
  INTERFACE_ADDED: 'compatible: a new agent interface',
  INTERFACE_SAME: 'wire-breaking: an interface’s url or protocolVersion changed',
  EXTENSION_NO_DELETE: 'wire-breaking: an agent extension is removed',
  EXTENSION_ADDED: 'compatible: a new optional agent extension',
  EXTENSION_ADDED_REQUIRED: 'wire-breaking: a new required agent extension',
  EXTENSION_SAME_REQUIRED: 'wire-breaking when an extension became required; compatible when it became optional',
  MODE_NO_DELETE: 'wire-breaking: an input or output media type is removed (the card’s defaults or a skill’s)',
  MODE_ADDED: 'compatible: a new input or output media type',
  SKILL_NO_DELETE: 'wire-breaking: a skill is removed',
  SKILL_ADDED: 'compatible: a new skill',
  SECURITY_ADDED_REQUIRED: 'wire-breaking: requests need credentials, and needed none',
  SECURITY_ADDED: 'compatible: another security requirement satisfies requests',
  SECURITY_NO_DELETE: 'wire-breaking when a security requirement is removed; compatible when none is left',
  SECURITY_SCHEME_SAME: 'wire-breaking: a security scheme changed',
};

/** Whether a finding breaks anyone (wire or source). */
export function isBreaking(f: Pick<Finding, 'class'>): boolean {
  return f.class !== 'compatible';
}

/** Counts of findings by class. */
export function countByClass(findings: readonly Finding[]): Record<FindingClass, number> {
  const counts: Record<FindingClass, number> = { 'wire-breaking': 0, 'source-breaking': 0, compatible: 0 };
  for (const f of findings) counts[f.class]++;
  return counts;
}

/** Sorts findings: wire-breaking first, then source-breaking, then compatible; within a class by place. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const rank = (f: Finding) => CLASSES.indexOf(f.class);
  const place = (f: Finding) => `${f.file}\u0000${String(f.line ?? 0).padStart(8, '0')}\u0000${f.pointer ?? ''}\u0000${f.rule}`;
  return [...findings].sort((a, b) => rank(a) - rank(b) || (place(a) < place(b) ? -1 : place(a) > place(b) ? 1 : 0));
}
