/**
 * `wiregen diff` over the real MCP history, 2024-11-05 → 2025-03-26 → 2025-06-18 → 2025-11-25 → 2026-07-28.
 * The expectations are written by hand from the pinned schemas (the `method` consts each revision's
 * definitions fix, their definitions and properties) and the specification's changelogs
 * (https://modelcontextprotocol.io/specification/2025-03-26/changelog and the later ones), not from the
 * tool's output: each names a change the revision is known for, with the class it must have.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { diffPins, loadForDiff } from '../../generator/evolve/diff.ts';
import type { Finding } from '../../generator/evolve/findings.ts';
import { runCli } from '../helpers/project.ts';

const IDS = ['mcp-2024-11-05', 'mcp-2025-03-26', 'mcp-2025-06-18', 'mcp-2025-11-25', 'mcp-2026-07-28'];
const loaded = loadForDiff(createContext({ log: () => {} }), IDS);
const step = (from: string) => {
  const i = IDS.indexOf(from);
  return diffPins(loaded[i]!, loaded[i + 1]!);
};
const subjects = (findings: readonly Finding[], rule: string) =>
  findings
    .filter((f) => f.rule === rule)
    .map((f) => f.subject)
    .sort();
/** The one finding of `rule` about `subject`, with its class. */
const one = (findings: readonly Finding[], rule: string, subject: string) => {
  const found = findings.filter((f) => f.rule === rule && f.subject === subject);
  expect(found, `${rule} ${subject}`).toHaveLength(1);
  return found[0]!;
};

describe('2024-11-05 → 2025-03-26', () => {
  const f = step('mcp-2024-11-05');
  it('no method added or removed; completion/complete now behind the completions capability', () => {
    expect(subjects(f, 'METHOD_ADDED')).toEqual([]);
    expect(subjects(f, 'METHOD_NO_DELETE')).toEqual([]);
    expect(one(f, 'METHOD_SAME_CAPABILITY', 'completion/complete').class).toBe('wire-breaking');
  });
  it('audio content, tool annotations and JSON-RPC batches; Annotated became Annotations', () => {
    expect(subjects(f, 'DEF_ADDED')).toEqual(['Annotations', 'AudioContent', 'JSONRPCBatchRequest', 'JSONRPCBatchResponse', 'ToolAnnotations']);
    expect(subjects(f, 'DEF_NO_DELETE')).toEqual(['Annotated']);
    expect(one(f, 'DEF_NO_DELETE', 'Annotated').class).toBe('source-breaking');
    expect(one(f, 'UNION_MEMBER_ADDED', 'CallToolResult.content[]').message).toContain('AudioContent');
  });
  it('progress notifications carry a message; servers declare completions; tools carry annotations', () => {
    for (const subject of ['ProgressNotification.params.message', 'ServerCapabilities.completions', 'Tool.annotations'])
      expect(one(f, 'PROPERTY_ADDED', subject).class).toBe('compatible');
    expect(one(f, 'PROPERTY_ADDED', 'Tool.annotations').pointer).toBe('/definitions/Tool/properties/annotations');
  });
});

describe('2025-03-26 → 2025-06-18', () => {
  const f = step('mcp-2025-03-26');
  it('adds elicitation/create and removes JSON-RPC batching', () => {
    expect(subjects(f, 'METHOD_ADDED')).toEqual(['elicitation/create']);
    expect(subjects(f, 'METHOD_NO_DELETE')).toEqual([]);
    expect(subjects(f, 'DEF_NO_DELETE')).toEqual(['JSONRPCBatchRequest', 'JSONRPCBatchResponse', 'ResourceReference']);
    expect(subjects(f, 'DEF_ADDED')).toEqual(
      expect.arrayContaining(['ElicitRequest', 'ElicitResult', 'ResourceLink', 'ResourceTemplateReference', 'ContentBlock', 'BaseMetadata']),
    );
  });
  it('structured tool output, titles, elicitation capability and completion context', () => {
    for (const subject of [
      'Tool.outputSchema',
      'Tool.title',
      'CallToolResult.structuredContent',
      'ClientCapabilities.elicitation',
      'CompleteRequest.params.context',
    ])
      expect(one(f, 'PROPERTY_ADDED', subject).class).toBe('compatible');
  });
});

describe('2025-06-18 → 2025-11-25', () => {
  const f = step('mcp-2025-06-18');
  it('adds the tasks methods and URL elicitation’s completion notification', () => {
    expect(subjects(f, 'METHOD_ADDED')).toEqual([
      'notifications/elicitation/complete',
      'notifications/tasks/status',
      'tasks/cancel',
      'tasks/get',
      'tasks/list',
      'tasks/result',
    ]);
    expect(subjects(f, 'METHOD_NO_DELETE')).toEqual([]);
    expect(subjects(f, 'DEF_ADDED')).toEqual(
      expect.arrayContaining(['Task', 'Icon', 'ToolUseContent', 'ToolResultContent', 'CallToolRequestParams']),
    );
    expect(subjects(f, 'DEF_NO_DELETE')).toEqual(['JSONRPCError']);
  });
  it('icons and execution on tools, tasks capabilities', () => {
    for (const subject of ['Tool.icons', 'Tool.execution', 'ClientCapabilities.tasks', 'ServerCapabilities.tasks'])
      expect(one(f, 'PROPERTY_ADDED', subject).class).toBe('compatible');
  });
});

describe('2025-11-25 → 2026-07-28', () => {
  const f = step('mcp-2025-11-25');
  it('removes the handshake and what needed a session; adds server/discover and subscriptions/listen', () => {
    expect(subjects(f, 'METHOD_NO_DELETE')).toEqual([
      'initialize',
      'logging/setLevel',
      'notifications/elicitation/complete',
      'notifications/initialized',
      'notifications/roots/list_changed',
      'notifications/tasks/status',
      'ping',
      'resources/subscribe',
      'resources/unsubscribe',
      'tasks/cancel',
      'tasks/get',
      'tasks/list',
      'tasks/result',
    ]);
    expect(subjects(f, 'METHOD_ADDED')).toEqual(['notifications/subscriptions/acknowledged', 'server/discover', 'subscriptions/listen']);
    const initialize = one(f, 'METHOD_NO_DELETE', 'initialize');
    expect(initialize).toMatchObject({ class: 'wire-breaking', file: 'schemas/manifest/mcp-2025-11-25.yaml', pointer: '/methods/initialize' });
    expect(initialize.line).toBeGreaterThan(0);
    expect(one(f, 'METHOD_ADDED', 'server/discover')).toMatchObject({ class: 'compatible', file: 'schemas/manifest/mcp-2026-07-28.yaml' });
  });
  it('the definitions of what was removed go; results become cacheable', () => {
    for (const def of ['InitializeRequest', 'InitializeResult', 'PingRequest', 'SetLevelRequest', 'SubscribeRequest', 'UnsubscribeRequest'])
      expect(one(f, 'DEF_NO_DELETE', def)).toMatchObject({
        class: 'source-breaking',
        file: 'schemas/mcp/2025-11-25/schema.json',
        pointer: `/$defs/${def}`,
      });
    for (const prop of ['ListToolsResult.ttlMs', 'ListToolsResult.cacheScope', 'CallToolResult.resultType'])
      expect(one(f, 'PROPERTY_ADDED_REQUIRED', prop).class).toBe('wire-breaking');
    expect(one(f, 'PROPERTY_NO_DELETE', 'Tool.execution').file).toBe('schemas/mcp/2025-11-25/schema.json');
    expect(one(f, 'PROPERTY_ADDED', 'ServerCapabilities.extensions').class).toBe('compatible');
    const gone = f.filter((x) => x.rule === 'UNION_MEMBER_NO_DELETE' && x.subject === 'ClientRequest');
    expect(gone.map((x) => x.message.split(' ')[3]).sort()).toEqual([
      'CancelTaskRequest',
      'GetTaskPayloadRequest',
      'GetTaskRequest',
      'InitializeRequest',
      'ListTasksRequest',
      'PingRequest',
      'SetLevelRequest',
      'SubscribeRequest',
      'UnsubscribeRequest',
    ]);
    expect(gone.every((x) => x.class === 'wire-breaking')).toBe(true);
  });
});

describe('wiregen diff on the command line', () => {
  it('exits 100 on a breaking change, printing a summary and one line per finding', async () => {
    const { code, out } = await runCli(['diff', 'mcp-2025-11-25', 'mcp-2026-07-28']);
    expect(code).toBe(100);
    expect(out[0]).toMatch(/^mcp-2025-11-25 → mcp-2026-07-28: \d+ wire-breaking, \d+ source-breaking, \d+ compatible$/);
    expect(out).toContainEqual(
      expect.stringMatching(
        /^ {2}wire-breaking +METHOD_NO_DELETE +schemas\/manifest\/mcp-2025-11-25\.yaml:\d+:\d+ \/methods\/ping: method "ping" removed$/,
      ),
    );
  });

  it('--json: the same findings as one document', async () => {
    const { code, out } = await runCli(['diff', 'mcp-2024-11-05', 'mcp-2025-03-26', '--json']);
    expect(code).toBe(100);
    const doc = JSON.parse(out.join('\n')) as {
      comparisons: { from: string; to: string; counts: Record<string, number>; findings: Finding[] }[];
      breaking: boolean;
    };
    expect(doc.breaking).toBe(true);
    const [c] = doc.comparisons;
    expect(c!.from).toBe('mcp-2024-11-05');
    expect(c!.counts['wire-breaking']! + c!.counts['source-breaking']! + c!.counts['compatible']!).toBe(c!.findings.length);
    expect(c!.findings).toContainEqual(
      expect.objectContaining({ rule: 'DEF_ADDED', class: 'compatible', subject: 'AudioContent', file: 'schemas/mcp/2025-03-26/schema.json' }),
    );
  });

  it('a pin against itself: nothing, exit 0', async () => {
    const { code, out } = await runCli(['diff', 'mcp-2026-07-28', 'mcp-2026-07-28']);
    expect(code).toBe(0);
    expect(out).toEqual(['mcp-2026-07-28 → mcp-2026-07-28: 0 wire-breaking, 0 source-breaking, 0 compatible']);
  });
});
