/**
 * A2A schema evolution: both bundle layouts upstream has published, doc comments from a newer proto, the
 * proto ↔ bundle field cross-check, and `diff` of two protos in the manner of `buf breaking`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleA2a, protoDescription } from '../../generator/load/a2a.ts';
import { A2A_LEX } from '../../generator/load/index.ts';
import { parseProto } from '../../generator/load/proto.ts';
import { isObject, type Json, type JsonObject } from '../../generator/load/schema.ts';
import { diffProtos } from '../../generator/evolve/diff-proto.ts';
import { copyProject, ROOT, runCli } from '../helpers/project.ts';

const protoText = readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.proto'), 'utf8');
const proto = parseProto(protoText, 'a2a.proto', A2A_LEX);
const titled = JSON.parse(readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.json'), 'utf8')) as JsonObject;

/**
 * The pinned v1.0.0 bundle in the layout of upstream's newer build (A2A commit 2c3affc9:
 * protoc-gen-jsonschema `target=json-bundle` keys `$defs` by `<package>.<Message>.jsonschema.json` with
 * `#/$defs/<key>` refs; scripts/clean_schema_names.py strips the package and suffix from keys and refs and
 * pops each definition's `$schema`). `clean: false` leaves the plugin's own keys.
 */
function newerLayout(clean: boolean): JsonObject {
  const defs = titled['definitions'] as Record<string, JsonObject>;
  const keyOf = (title: string) => {
    const name = title.replace(/ /g, '');
    const wellKnown = ['Struct', 'Timestamp', 'Value'].includes(name);
    return clean ? name : `${wellKnown ? 'google.protobuf' : 'lf.a2a.v1'}.${name}.jsonschema.json`;
  };
  const refs = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(refs);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      const m = k === '$ref' && typeof v === 'string' ? /^(?:lf\.a2a\.v1|google\.protobuf)\.(\w+)\.jsonschema\.json$/.exec(v) : null;
      out[k] = m ? `#/$defs/${keyOf(m[1]!)}` : refs(v);
    }
    return out;
  };
  const $defs: JsonObject = {};
  for (const schema of Object.values(defs)) {
    const copy = refs(schema) as JsonObject;
    if (clean) delete copy['$schema'];
    $defs[keyOf(schema['title'] as string)] = copy;
  }
  return { $schema: titled['$schema']!, title: 'A2A Protocol Schemas', description: titled['description']!, version: 'v1', $defs };
}

describe('A2A bundle layouts', () => {
  const reference = bundleA2a(titled, 'a2a.json', proto);
  it.each([
    ['$defs keyed by message name, local refs (clean_schema_names.py)', true],
    ['$defs keyed by the plugin’s file names, local refs', false],
  ])('%s: the same definitions and validation-only keywords as the titled layout', (_name, clean) => {
    const bundle = bundleA2a(newerLayout(clean), 'a2a.json', proto);
    expect(bundle.defs).toEqual(reference.defs);
    expect(bundle.validationOnly).toEqual(reference.validationOnly);
    expect(bundle.defSource['AgentCard']).toBe(clean ? '/$defs/AgentCard' : '/$defs/lf.a2a.v1.AgentCard.jsonschema.json');
  });

  it('a local ref to no definition names it', () => {
    const doc = newerLayout(true);
    ((doc['$defs'] as JsonObject)['Task'] as JsonObject)['properties'] = { status: { $ref: '#/$defs/TaskStatuz' } };
    expect(() => bundleA2a(doc, 'a2a.json', proto)).toThrow('a2a.json /$defs/Task/properties/status/$ref: unresolved reference "#/$defs/TaskStatuz"');
  });

  it('neither layout: one line naming both', () => {
    expect(() => bundleA2a({ $schema: titled['$schema']!, defs: {} }, 'a2a.json', proto)).toThrow(
      /^a2a\.json \(root\): expected "definitions" .* or "\$defs"/,
    );
  });
});

describe('doc comments from a proto newer than the bundle', () => {
  // Read off `git diff v1.0.0 v1.0.1 -- specification/a2a.proto` upstream: v1.0.1 rewrote only these comments.
  const CHANGED_IN_1_0_1 = [
    'AgentInterface',
    'TaskPushNotificationConfig',
    'SendMessageRequest',
    'GetTaskRequest',
    'ListTasksRequest',
    'CancelTaskRequest',
    'GetTaskPushNotificationConfigRequest',
    'DeleteTaskPushNotificationConfigRequest',
    'SubscribeToTaskRequest',
    'ListTaskPushNotificationConfigsRequest',
    'GetExtendedAgentCardRequest',
  ].map((m) => `${m}.tenant`);
  const raw = titled['definitions'] as Record<string, JsonObject>;
  const byName = Object.fromEntries(Object.values(raw).map((d) => [(d['title'] as string).replace(/ /g, ''), d]));

  it('read as protoc-gen-jsonschema reads them, every other comment equals the v1.0.0 bundle’s description', () => {
    let compared = 0;
    for (const message of proto.messages.values()) {
      const def = byName[message.name]!;
      expect(protoDescription(message.doc), message.name).toBe(def['description']);
      for (const field of message.fields) {
        const description = ((def['properties'] as JsonObject)[field.jsonName] as JsonObject)['description'];
        const where = `${message.name}.${field.name}`;
        if (CHANGED_IN_1_0_1.includes(where)) expect(protoDescription(field.doc), where).not.toBe(description);
        else expect(protoDescription(field.doc), where).toBe(description);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('the pinned proto (v1.0.1) is newer than the bundle (v1.0.0), so the generated types carry its comments', async () => {
    const a2a = readFileSync(join(ROOT, 'generated/a2a-1.0/types.ts'), 'utf8');
    expect(a2a).toContain('Optional. Opaque routing identifier. Must match the `tenant` value from');
    expect(a2a).not.toContain('Optional. Tenant ID, provided as a path parameter.');
    expect(a2a).toContain('Defines the possible lifecycle states of a `Task`.');
    const older = bundleA2a(titled, 'a2a.json', proto);
    const newer = bundleA2a(titled, 'a2a.json', proto, { docsFromProto: true });
    const tenant = (b: typeof older) => ((b.defs['GetTaskRequest']!['properties'] as JsonObject)['tenant'] as JsonObject)['description'];
    expect(tenant(older)).toBe('Optional. Tenant ID, provided as a path parameter.');
    expect(tenant(newer)).toBe(
      'Optional. Opaque routing identifier. Must match the `tenant` value from\n the selected `AgentInterface` in the Agent Card when that field is set.',
    );
  });

  it('protoc’s attachment rules: a blank line detaches, a same-line comment trails, dropped lines vanish', () => {
    const p = parseProto(
      [
        '// detached',
        '',
        '// leads A',
        'message A {',
        '  string a = 1; // trails a',
        '  // protolint:disable X',
        '  // leads b',
        '  string b = 2;',
        '  // trails b, then a blank line',
        '',
        '  string c = 3;',
        '}',
      ].join('\n'),
      'x.proto',
      A2A_LEX,
    );
    const a = p.messages.get('A')!;
    expect(a.doc).toBe(' leads A\n');
    expect(a.fields.map((f) => f.doc)).toEqual([undefined, ' leads b\n', undefined]);
    expect(a.fields.map((f) => [f.line, f.column])).toEqual([
      [5, 3],
      [8, 3],
      [11, 3],
    ]);
  });
});

describe('proto fields against the bundle', () => {
  it('a field the proto renames but the bundle does not: one error naming both', async () => {
    const project = copyProject();
    try {
      project.edit('schemas/a2a/1.0/a2a.proto', 'string url = 1', 'string endpoint = 1');
      project.repin('a2a/1.0/a2a.proto');
      const { code, err } = await runCli(['generate', '--check', '--only', 'a2a-1.0'], project.root);
      const line = protoText.slice(0, protoText.indexOf('string url = 1')).split('\n').length;
      expect(code).toBe(2);
      expect(err).toEqual([
        `schemas/a2a/1.0/a2a.proto:${line}:3: field AgentInterface.endpoint = 1 has no property "endpoint" in schemas/a2a/1.0/a2a.json /definitions/Agent Interface/properties, which has "url" instead (renamed?); pin the bundle built from this proto`,
      ]);
    } finally {
      project.dispose();
    }
  });
});

describe('diff of two protos', () => {
  const edit = (from: string, to: string, text: string) => {
    if (!text.includes(from)) throw new Error(`not in the proto: ${from}`);
    return text.replace(from, to);
  };
  let changed = protoText;
  const edits: [string, string][] = [
    ['string url = 1 [(google.api.field_behavior) = REQUIRED];', 'string endpoint = 1 [(google.api.field_behavior) = REQUIRED];'],
    ['repeated Message history = 5;', 'repeated Message history = 9;'],
    ['TaskState state = 1 [(google.api.field_behavior) = REQUIRED];', 'string state = 1 [(google.api.field_behavior) = REQUIRED];'],
    ['  TASK_STATE_REJECTED = 7;\n', ''],
    ['ROLE_AGENT = 2;', 'ROLE_ASSISTANT = 2;'],
    ['post: "/message:send"', 'post: "/v2/message:send"'],
  ];
  for (const [from, to] of edits) changed = edit(from, to, changed);
  const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
  const findings = diffProtos(proto, parseProto(changed, 'b.proto', A2A_LEX));
  const pick = (rule: string) =>
    findings.filter((f) => f.rule === rule).map((f) => ({ class: f.class, subject: f.subject, line: f.line, file: f.file }));

  it('a renamed field (same number) is FIELD_SAME_NAME, wire-breaking, at the new line', () => {
    expect(pick('FIELD_SAME_NAME')).toEqual([
      { class: 'wire-breaking', subject: 'AgentInterface.endpoint', line: lineOf(changed, 'string endpoint = 1'), file: 'b.proto' },
    ]);
  });
  it('renumbered, retyped', () => {
    expect(pick('FIELD_SAME_NUMBER')).toEqual([
      { class: 'wire-breaking', subject: 'Task.history', line: lineOf(changed, 'history = 9'), file: 'b.proto' },
    ]);
    expect(pick('FIELD_SAME_TYPE')).toEqual([
      { class: 'wire-breaking', subject: 'TaskStatus.state', line: lineOf(changed, 'string state = 1'), file: 'b.proto' },
    ]);
  });
  it('enum values removed (at the old line) and renamed', () => {
    expect(pick('ENUM_VALUE_NO_DELETE')).toEqual([
      { class: 'wire-breaking', subject: 'TaskState.TASK_STATE_REJECTED', line: lineOf(protoText, 'TASK_STATE_REJECTED = 7'), file: 'a2a.proto' },
    ]);
    expect(pick('ENUM_VALUE_SAME_NAME')).toEqual([
      { class: 'wire-breaking', subject: 'Role.ROLE_ASSISTANT', line: lineOf(changed, 'ROLE_ASSISTANT'), file: 'b.proto' },
    ]);
  });
  it('an HTTP route removed and one added', () => {
    expect(findings.filter((f) => f.rule.startsWith('HTTP_ROUTE')).map((f) => `${f.rule} ${f.class} ${f.message}`)).toEqual([
      'HTTP_ROUTE_NO_DELETE wire-breaking rpc A2AService.SendMessage route POST /message:send removed',
      'HTTP_ROUTE_ADDED compatible rpc A2AService.SendMessage route POST /v2/message:send added',
    ]);
  });
  it('nothing else', () => {
    expect(findings).toHaveLength(7);
  });
  it('cardinality, oneof, REQUIRED, a removed rpc and a field removed with its name and number reserved', () => {
    let text = protoText;
    text = edit('repeated Artifact artifacts = 4;', 'Artifact artifacts = 4;', text);
    text = edit(
      'string id = 1 [(google.api.field_behavior) = REQUIRED];\n  // Unique identifier (e.g. UUID) for the contextual',
      'string id = 1;\n  // Unique identifier (e.g. UUID) for the contextual',
      text,
    );
    text = edit('  google.protobuf.Struct metadata = 6;\n}', '  reserved 6;\n  reserved "metadata";\n}', text);
    const f = diffProtos(proto, parseProto(text, 'c.proto', A2A_LEX));
    expect(f.map((x) => `${x.rule} ${x.class} ${x.subject}`).sort()).toEqual([
      'FIELD_NO_DELETE source-breaking Task.metadata',
      'FIELD_SAME_CARDINALITY wire-breaking Task.artifacts',
      'FIELD_SAME_REQUIRED wire-breaking Task.id',
    ]);
    const noRpc = edit('  // Lists tasks that match the specified filter.\n  rpc ListTasks', '  rpc ListTasks', protoText).replace(
      / {2}rpc ListTasks\([\s\S]*?\n {2}}\n/,
      '',
    );
    expect(diffProtos(proto, parseProto(noRpc, 'd.proto', A2A_LEX)).map((x) => `${x.rule} ${x.subject}`)).toEqual([
      'RPC_NO_DELETE A2AService.ListTasks',
    ]);
  });
});
