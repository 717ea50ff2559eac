/**
 * @module test/sdk-compat/scenarios — what the tests ask each server of servers/, as a transcript of
 * labelled answers (results, or errors' code, message and data). The same transcript is taken of the server
 * on the official SDK and on wiregen; the SDK's is the expected one.
 */
import { outcome, type Connected } from './harness.ts';

export type Transcript = Record<string, unknown>;

/** Takes each answer in turn (they are ordered: the notes server's state changes along the way). */
async function take(steps: [string, () => Promise<unknown>][]): Promise<Transcript> {
  const out: Transcript = {};
  for (const [label, run] of steps) out[label] = await outcome(run());
  return out;
}

/** Calls a tool asking for progress; the answer, and whether progress arrived (counted apart, see notes.test.ts). */
async function withProgress(c: Connected, name: string, args: Record<string, unknown>): Promise<{ result: unknown; progress: unknown[] }> {
  const progress: unknown[] = [];
  const result = await outcome(c.callTool(name, args, { onprogress: (p) => void progress.push(p) }));
  return { result, progress };
}

/** Calls a tool and aborts the call after `ms`: whether it ended with an error (the abort), and the connection still answers. */
async function aborted(c: Connected, name: string, args: Record<string, unknown>, ms: number): Promise<unknown> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('the end user clicked Stop')), ms);
  const ended = await c.callTool(name, args, { signal: abort.signal }).then(
    () => 'answered',
    () => 'aborted',
  );
  clearTimeout(timer);
  return ended;
}

export const notes = (c: Connected) =>
  take([
    ['tools/list', () => c.listTools()],
    ['add_note', () => c.callTool('add_note', { title: 'Groceries', body: 'Milk, eggs', tags: ['home'] })],
    ['add_note, priority and due', () => c.callTool('add_note', { title: 'Taxes', body: 'File them', priority: 'high', due: '2026-04-15' })],
    ['add_note, bad arguments', () => c.callTool('add_note', { title: '', body: 'x', priority: 'urgent', due: 'tomorrow', tags: 'home' })],
    ['list_notes, limit 1', () => c.callTool('list_notes', { limit: 1 })],
    ['list_notes, next page', () => c.callTool('list_notes', { limit: 1, cursor: '1' })],
    ['list_notes, by tag', () => c.callTool('list_notes', { tag: 'home' })],
    ['list_notes, limit 0', () => c.callTool('list_notes', { limit: 0 })],
    ['delete_note, unknown', () => c.callTool('delete_note', { id: 'n99' })],
    ['summarize', async () => (await withProgress(c, 'summarize', {})).result],
    ['summarize, aborted', () => aborted(c, 'summarize', {}, 150)],
    ['resources/templates/list', () => c.listResourceTemplates()],
    ['read note://n1', () => c.readResource('note://n1')],
    ['read note://n99', () => c.readResource('note://n99')],
    ['prompts/list', () => c.listPrompts()],
    ['review_note', () => c.getPrompt('review_note', { id: 'n2' })],
    ['review_note, no id', () => c.getPrompt('review_note', {})],
    ['delete_note', () => c.callTool('delete_note', { id: 'n1' })],
    ['list_notes after delete', () => c.callTool('list_notes', {})],
    ['unknown tool', () => c.callTool('no_such_tool', {})],
    ['unknown prompt', () => c.getPrompt('no_such_prompt', {})],
  ]);

/** Progress of the notes server's summarize, counted apart from the transcript. */
export const notesProgress = async (c: Connected) => (await withProgress(c, 'summarize', {})).progress;

export const catalog = (c: Connected) =>
  take([
    ['tools/list', () => c.listTools()],
    ['search', () => c.callTool('search', { query: 'mug' })],
    ['search, limit past its maximum', () => c.callTool('search', { query: 'mug', limit: 999 })],
    ['search, no query', () => c.callTool('search', {})],
    ['product-details', () => c.callTool('product-details', { name: 'Travel mug' })],
    ['product-details, thrown', () => c.callTool('product-details', { name: 'Teapot' })],
    ['broken-details', () => c.callTool('broken-details', {})],
    ['product-card', () => c.callTool('product-card', { name: 'Travel mug' })],
    ['clear-catalog', () => c.callTool('clear-catalog', {})],
    ['read-note, isError', () => c.callTool('read-note', { id: 'drafts' })],
    ['delete-note, thrown', () => c.callTool('delete-note', { id: 'drafts' })],
    ['whoami', () => c.callTool('whoami', {})],
    ['resources/list', () => c.listResources()],
    ['resources/templates/list', () => c.listResourceTemplates()],
    ['read config://app', () => c.readResource('config://app')],
    ['read report://latest', () => c.readResource('report://latest')],
    ['read users://7/profile', () => c.readResource('users://7/profile')],
    ['read teams://core/roster', () => c.readResource('teams://core/roster')],
    ['read note://welcome', () => c.readResource('note://welcome')],
    ['read note://42, ProtocolError', () => c.readResource('note://42')],
    ['read note://archived, ResourceNotFoundError', () => c.readResource('note://archived')],
    ['read unknown://x', () => c.readResource('unknown://x')],
    ['prompts/list', () => c.listPrompts()],
    ['review-code', () => c.getPrompt('review-code', { code: 'let x = 1', language: 'rust' })],
    ['review-code, no code', () => c.getPrompt('review-code', {})],
    ['explain-error', () => c.getPrompt('explain-error', { error: 'TS2322' })],
    ['daily-standup', () => c.getPrompt('daily-standup')],
    ['complete language', () => c.complete({ ref: { type: 'ref/prompt', name: 'review-code' }, argument: { name: 'language', value: 'ty' } })],
    [
      'complete code (not completable)',
      () => c.complete({ ref: { type: 'ref/prompt', name: 'review-code' }, argument: { name: 'code', value: 'x' } }),
    ],
    [
      'complete teamId',
      () => c.complete({ ref: { type: 'ref/resource', uri: 'teams://{teamId}/roster' }, argument: { name: 'teamId', value: 'g' } }),
    ],
    ['unknown tool', () => c.callTool('no_such_tool', {})],
  ]);

export const interactive = (c: Connected) =>
  take([
    ['tools/list', () => c.listTools()],
    ['collect-feedback (elicitation)', () => c.callTool('collect-feedback', { topic: 'the new editor' })],
    ['haiku (sampling)', () => c.callTool('haiku', { topic: 'autumn' })],
    ['process-files', () => c.callTool('process-files', { files: ['a.csv', 'b.csv', 'c.csv'] })],
    ['scan-archive, aborted', () => aborted(c, 'scan-archive', { pages: 200 }, 100)],
    ['scan-archive', () => c.callTool('scan-archive', { pages: 2 })],
    ['retire-report', () => c.callTool('retire-report')],
    ['tools/list, run-report disabled', () => c.listTools()],
    ['run-report, disabled', () => c.callTool('run-report')],
    ['restore-report', () => c.callTool('restore-report')],
    ['run-report', () => c.callTool('run-report')],
  ]);

/** Log messages at a level the client set (handshake era: logging/setLevel). */
export const logging = (c: Connected) =>
  take([
    ['setLevel info', () => c.setLoggingLevel('info')],
    ['validate-records', () => c.callTool('validate-records', { records: ['a.csv', 'b.txt'] })],
    ['setLevel warning', () => c.setLoggingLevel('warning')],
    ['validate-records, warning only', () => c.callTool('validate-records', { records: ['c.csv', 'd.txt'] })],
  ]);

export const adder = (c: Connected) =>
  take([
    ['tools/list', () => c.listTools()],
    ['add', () => c.callTool('add', { a: 2, b: 3 })],
    ['add, bad arguments', () => c.callTool('add', { a: 'two' })],
  ]);
