/**
 * Rule pairs of a tool's schemas (inputSchema: what clients send; outputSchema: what they receive) and of its
 * annotations (MCP ToolAnnotations, defaults applied). Ours, written for test/evolve/spec-rules.test.ts.
 */
import { arg, type Case, str, tool } from './build.ts';

export const SCHEMA_CASES: Case[] = [
  // A tool's inputSchema: what clients send.
  {
    name: 'input: a required argument added',
    a: tool(arg({})),
    b: tool(arg({ id: str }, ['id'])),
    forward: ['PROPERTY_ADDED_REQUIRED wire-breaking'],
    reverse: ['PROPERTY_NO_DELETE wire-breaking'],
  },
  {
    name: 'input: an optional argument removed (no longer read)',
    a: tool(arg({ id: str })),
    b: tool(arg({})),
    forward: ['PROPERTY_NO_DELETE wire-breaking'],
    reverse: ['PROPERTY_ADDED compatible'],
  },
  {
    name: 'input: an argument made required',
    a: tool(arg({ id: str })),
    b: tool(arg({ id: str }, ['id'])),
    forward: ['PROPERTY_SAME_REQUIRED wire-breaking'],
    reverse: ['PROPERTY_SAME_REQUIRED compatible'],
  },
  {
    name: 'input: a required argument renamed',
    a: tool(arg({ id: str }, ['id'])),
    b: tool(arg({ noteId: { ...str, description: 'the note' } }, ['noteId'])),
    forward: ['PROPERTY_RENAMED wire-breaking'],
    reverse: ['PROPERTY_RENAMED wire-breaking'],
  },
  {
    name: 'input: not a rename when the schemas differ',
    a: tool(arg({ id: str }, ['id'])),
    b: tool(arg({ noteId: { type: 'integer' } }, ['noteId'])),
    forward: ['PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_ADDED_REQUIRED wire-breaking'],
    reverse: ['PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_ADDED_REQUIRED wire-breaking'],
  },
  {
    name: 'input: not a rename when the required-ness differs',
    a: tool(arg({ id: str })),
    b: tool(arg({ noteId: str }, ['noteId'])),
    forward: ['PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_ADDED_REQUIRED wire-breaking'],
    reverse: ['PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_ADDED compatible'],
  },
  {
    name: 'input: not a rename when two went and one came',
    a: tool(arg({ id: str, key: str })),
    b: tool(arg({ noteId: str })),
    forward: ['PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_ADDED compatible'],
    reverse: ['PROPERTY_NO_DELETE wire-breaking', 'PROPERTY_ADDED compatible', 'PROPERTY_ADDED compatible'],
  },
  {
    name: 'input: a type narrowed',
    a: tool(arg({ n: { type: ['string', 'number'] } })),
    b: tool(arg({ n: str })),
    forward: ['SCHEMA_SAME_TYPE wire-breaking'],
    reverse: ['SCHEMA_SAME_TYPE compatible'],
  },
  {
    name: 'input: an enum value removed',
    a: tool(arg({ tag: { enum: ['a', 'b'] } })),
    b: tool(arg({ tag: { enum: ['a'] } })),
    forward: ['ENUM_VALUE_NO_DELETE wire-breaking'],
    reverse: ['ENUM_VALUE_ADDED compatible'],
  },
  ...(
    [
      ['minimum', { type: 'number' }, 1],
      ['maximum', { type: 'number' }, 9],
      ['minLength', str, 1],
      ['maxLength', str, 80],
      ['maxItems', { type: 'array' }, 3],
      ['pattern', str, '^[a-z]+$'],
    ] as const
  ).map(([k, s, v]): Case => ({
    name: `input: ${k} added`,
    a: tool(arg({ x: s })),
    b: tool(arg({ x: { ...s, [k]: v } })),
    forward: ['CONSTRAINT_SAME wire-breaking'],
    reverse: ['CONSTRAINT_SAME compatible'],
  })),
  {
    name: 'input: a format added',
    a: tool(arg({ at: str })),
    b: tool(arg({ at: { ...str, format: 'date-time' } })),
    forward: ['FORMAT_SAME wire-breaking'],
    reverse: ['FORMAT_SAME compatible'],
  },
  {
    name: 'input: a const added',
    a: tool(arg({ v: str })),
    b: tool(arg({ v: { ...str, const: 'x' } })),
    forward: ['SCHEMA_SAME_CONST wire-breaking'],
    reverse: ['SCHEMA_SAME_CONST compatible'],
  },
  {
    name: 'input: unknown arguments refused',
    a: tool({}),
    b: tool({ additionalProperties: false }),
    forward: ['ADDITIONAL_PROPERTIES_CLOSED wire-breaking'],
    reverse: ['ADDITIONAL_PROPERTIES_OPENED compatible'],
  },
  {
    name: 'input: a union member removed',
    a: tool(arg({ v: { anyOf: [str, { type: 'number' }] } })),
    b: tool(arg({ v: { anyOf: [str] } })),
    forward: ['UNION_MEMBER_NO_DELETE wire-breaking'],
    reverse: ['UNION_MEMBER_ADDED compatible'],
  },

  // A tool's outputSchema: what clients receive.
  {
    name: 'output: a property removed',
    a: tool({}, arg({ id: str })),
    b: tool({}, arg({})),
    forward: ['PROPERTY_NO_DELETE wire-breaking'],
    reverse: ['PROPERTY_ADDED compatible'],
  },
  {
    name: 'output: a property made optional',
    a: tool({}, arg({ id: str }, ['id'])),
    b: tool({}, arg({ id: str })),
    forward: ['PROPERTY_SAME_REQUIRED wire-breaking'],
    reverse: ['PROPERTY_SAME_REQUIRED compatible'],
  },
  {
    name: 'output: a required property added',
    a: tool({}, arg({})),
    b: tool({}, arg({ id: str }, ['id'])),
    forward: ['PROPERTY_ADDED_REQUIRED compatible'],
    reverse: ['PROPERTY_NO_DELETE wire-breaking'],
  },
  {
    name: 'output: a property renamed',
    a: tool({}, arg({ id: str }, ['id'])),
    b: tool({}, arg({ noteId: str }, ['noteId'])),
    forward: ['PROPERTY_RENAMED wire-breaking'],
    reverse: ['PROPERTY_RENAMED wire-breaking'],
  },
  {
    name: 'output: a type widened',
    a: tool({}, arg({ n: str })),
    b: tool({}, arg({ n: { type: ['string', 'null'] } })),
    forward: ['SCHEMA_SAME_TYPE wire-breaking'],
    reverse: ['SCHEMA_SAME_TYPE compatible'],
  },
  {
    name: 'output: an enum value added',
    a: tool({}, arg({ s: { enum: ['open'] } })),
    b: tool({}, arg({ s: { enum: ['open', 'done'] } })),
    forward: ['ENUM_VALUE_ADDED wire-breaking'],
    reverse: ['ENUM_VALUE_NO_DELETE compatible'],
  },
  {
    name: 'output: a bound removed',
    a: tool({}, arg({ s: { ...str, maxLength: 80 } })),
    b: tool({}, arg({ s: str })),
    forward: ['CONSTRAINT_SAME wire-breaking'],
    reverse: ['CONSTRAINT_SAME compatible'],
  },
  {
    name: 'the outputSchema removed',
    a: tool({}, {}),
    b: tool({}),
    forward: ['TOOL_OUTPUT_NO_DELETE wire-breaking'],
    reverse: ['TOOL_OUTPUT_ADDED compatible'],
  },
  {
    name: 'the result made another way',
    a: tool({}),
    b: tool({}, undefined, { output: 'text' }),
    forward: ['TOOL_SAME_OUTPUT wire-breaking'],
    reverse: ['TOOL_SAME_OUTPUT wire-breaking'],
  },

  // ToolAnnotations, defaults applied (readOnlyHint false, destructiveHint true, idempotentHint false,
  // openWorldHint true).
  ...(
    [
      ['readOnlyHint true dropped', { readOnlyHint: true }, {}],
      ['readOnlyHint true → false', { readOnlyHint: true }, { readOnlyHint: false }],
      ['destructiveHint false dropped', { destructiveHint: false }, {}],
      ['idempotentHint true dropped', { idempotentHint: true }, {}],
      ['openWorldHint false → true', { openWorldHint: false }, { openWorldHint: true }],
      ['openWorldHint false dropped', { openWorldHint: false }, undefined],
    ] as const
  ).map(([name, x, y]): Case => ({
    name: `annotations: ${name}`,
    a: tool({}, undefined, { annotations: x }),
    b: tool({}, undefined, y ? { annotations: y } : {}),
    forward: ['TOOL_ANNOTATION_SAME wire-breaking'],
    reverse: ['TOOL_ANNOTATION_SAME compatible'],
  })),
  ...(
    [
      ['readOnlyHint false dropped (absent is false)', { readOnlyHint: false }],
      ['destructiveHint true dropped (absent is true)', { destructiveHint: true }],
      ['idempotentHint false dropped', { idempotentHint: false }],
      ['openWorldHint true dropped', { openWorldHint: true }],
      ['title changed', { title: 'T' }],
    ] as const
  ).map(([name, x]): Case => ({
    name: `annotations: ${name}, nothing`,
    a: tool({}, undefined, { annotations: x }),
    b: tool({}, undefined, { annotations: {} }),
    forward: [],
    reverse: [],
  })),
  {
    name: 'annotations: destructiveHint of a read-only tool (meaningful only when readOnlyHint is false), nothing',
    a: tool({}, undefined, { annotations: { readOnlyHint: true, destructiveHint: false } }),
    b: tool({}, undefined, { annotations: { readOnlyHint: true } }),
    forward: [],
    reverse: [],
  },
];
