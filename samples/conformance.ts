/**
 * @module samples/conformance — the behaviours of the sample the official MCP conformance runner
 * (@modelcontextprotocol/conformance@0.2.0-alpha.12, server leg) is run against, for 2026-07-28 and
 * 2025-11-25. Its catalog (names, descriptions, schemas, which scenario uses what) is
 * schemas/samples/conformance.yaml.
 *
 * Every function is era-neutral: ctx.input/ctx.inputs send elicitation, sampling or roots/list to the
 * client in the handshake era and end the round with input_required in 2026-07-28 (the function runs again
 * on the retry, with the answers); ctx.keepState/ctx.state carry data between 2026-07-28 rounds in the
 * signed requestState; ctx.log and ctx.progress send only what the client asked for.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '../runtime/jsonrpc/message.ts';
import { catalogServerOptions } from '../runtime/mcp/catalog/catalog.ts';
import { McpSkills } from '../runtime/mcp/ext/skills/index.ts';
import { McpTasks } from '../runtime/mcp/ext/tasks/index.ts';
import { McpServer } from '../runtime/mcp/server/server.ts';
import type { InputRequest, RequestContext } from '../runtime/mcp/server/types.ts';
import type { CreateMessageResult, ElicitRequestFormParams, ElicitResult, ListRootsResult } from '../generated/mcp-2026-07-28/index.ts';
import { defineServer } from '../generated/samples/conformance/index.ts';

/** A 1x1 red PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
/** A WAV of eight silent 8-bit samples at 8 kHz. */
const WAV = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

// ---- the input requests the tools ask for ----------------------------------------------------------------

/** A form elicitation: flat primitive fields, all listed in `required` unless `optional`. */
function form(
  message: string,
  properties: ElicitRequestFormParams['requestedSchema']['properties'],
  optional = false,
): InputRequest<'elicitation/create'> {
  const requestedSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties };
  if (!optional) requestedSchema.required = Object.keys(properties);
  return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } };
}
const askName = (message = 'What is your name?') => form(message, { name: { type: 'string' } });
const askConfirm = () => form('Please confirm', { ok: { type: 'boolean' } });
/** sampling/createMessage with one user text message. */
const sample = (text: string, maxTokens: number): InputRequest<'sampling/createMessage'> => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});
const LIST_ROOTS: InputRequest<'roots/list'> = { method: 'roots/list', params: {} };

// ---- reading the answers ---------------------------------------------------------------------------------

/** A field of an accepted form, as text; undefined when declined, cancelled or absent. */
function field(answer: ElicitResult, name: string): string | undefined {
  if (answer.action !== 'accept') return undefined;
  const value = answer.content?.[name];
  return value === undefined ? undefined : Array.isArray(value) ? value.join(',') : String(value);
}
/** The text of a sampling answer (its first text block). */
function sampled(answer: CreateMessageResult): string {
  const blocks: unknown[] = Array.isArray(answer.content) ? answer.content : [answer.content];
  const text = blocks.find((b): b is { type: 'text'; text: string } => (b as JsonObject)?.['type'] === 'text');
  return text?.text ?? '(no text)';
}
const rootList = (answer: ListRootsResult) => answer.roots.map((r) => r.uri).join(', ') || '(none)';
const summary = (answer: ElicitResult) => `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

/** The state test_input_required_result_multi_round keeps between rounds (signed, so it can be trusted). */
interface MultiRoundState {
  readonly step: 1 | 2;
  readonly name?: string;
}
/** The marker the request_state, tampered_state and multiple_inputs tools keep in their requestState. */
const STATE_MARK = { issuedBy: 'wiregen-conformance' };
const stateVerified = (ctx: RequestContext) => (ctx.state as typeof STATE_MARK | undefined)?.issuedBy === STATE_MARK.issuedBy;

/** Every log level, lowest first. */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/**
 * The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) the tasks-* scenarios exercise: tasks kept in
 * memory, a suggested poll every 200 ms (the runner polls at that pace), an hour to live.
 */
const tasks = new McpTasks({ pollIntervalMs: 200 });

/**
 * The skills extension (io.modelcontextprotocol/skills, SEP-2640) the sep-2640-* scenarios read: one skill
 * with a subdirectory (sep-2640-skills-directory descends into it), one under an organizational prefix.
 */
const skills = new McpSkills({
  skills: [
    {
      path: 'conformance-review',
      files: {
        'SKILL.md':
          '---\nname: conformance-review\ndescription: Review a change against the conformance checklist\nlicense: Apache-2.0\n---\n\n# Review\n\nStart from `templates/checklist.md`.\n',
        'templates/checklist.md': '- [ ] tests\n- [ ] docs\n',
      },
    },
    {
      path: 'wiregen/release-notes',
      files: { 'SKILL.md': '---\nname: release-notes\ndescription: Write the release notes of a version\n---\n\nList what changed.\n' },
    },
  ],
});

const definition = defineServer({
  tools: {
    a_header_probe: () => 'ok',

    // ---- the tasks extension (tasks-* scenarios, 2026-07-28) ----
    greet: ({ name }) => `Hello, ${name}!`,
    slow_compute: async ({ seconds, label }, ctx) => {
      const task = await tasks.begin(ctx);
      await sleep(seconds * 1000, task.signal);
      return `Computed ${label ?? 'result'} in ${seconds} s`;
    },
    failing_job: async (_args, ctx) => {
      const task = await tasks.begin(ctx, { required: true });
      await sleep(1000, task.signal);
      throw new Error('the job failed');
    },
    protocol_error_job: async (_args, ctx) => {
      // As a task: the task fails with this JSON-RPC error (tasks-lifecycle). Inline (no extension): a tool error.
      if ((await tasks.begin(ctx)) === ctx) throw new Error('the job could not run');
      throw new JsonRpcError(ErrorCode.InternalError, 'Internal error: the job could not run');
    },
    confirm_delete: async ({ filename }, ctx) => {
      const task = await tasks.begin(ctx);
      const answer = await task.input('confirm', form(`Delete ${filename}?`, { confirm: { type: 'boolean' } }));
      return field(answer, 'confirm') === 'true' ? `Deleted ${filename}` : `Kept ${filename}`;
    },
    multi_input: async (_args, ctx) => {
      const task = await tasks.begin(ctx);
      const { name, confirm } = await task.inputs({ name: askName(), confirm: form('Proceed?', { confirm: { type: 'boolean' } }) });
      return `name=${field(name, 'name') ?? '(none)'}, confirm=${field(confirm, 'confirm') ?? '(none)'}`;
    },
    test_tool_with_task: async (_args, ctx) => {
      // Multi round-trip first (round 1 ends with input_required), the task on the final round.
      const name = field(await ctx.input('user_name', askName()), 'name') ?? 'stranger';
      const task = await tasks.begin(ctx, { required: true });
      await sleep(100, task.signal);
      return `Hello, ${name}, from a task!`;
    },
    custom_header_region: ({ region }) => `region=${region}`,
    json_schema_2020_12_tool: (args) => `accepted ${JSON.stringify(args)}`,

    // ---- content types (tools-call-*) ----
    test_simple_text: () => 'This is a simple text response for testing.',
    test_image_content: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
    test_audio_content: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
    test_embedded_resource: () => ({
      content: [
        { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
      ],
    }),
    test_multiple_content_types: () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
      ],
    }),
    test_error_handling: () => ({ content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true }),

    // ---- notifications ----
    test_tool_with_progress: async (_args, ctx) => {
      ctx.progress(0, 100, 'Starting');
      await sleep(50, ctx.signal);
      ctx.progress(50, 100, 'Half way');
      await sleep(50, ctx.signal);
      ctx.progress(100, 100, 'Done');
      return 'Progress reported: 0, 50, 100 of 100';
    },
    test_tool_with_logging: async (_args, ctx) => {
      ctx.log('info', 'Tool execution started', 'conformance');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool processing data', 'conformance');
      await sleep(50, ctx.signal);
      ctx.log('info', 'Tool execution completed', 'conformance');
      return 'Logged three info messages';
    },
    test_logging_tool: (_args, ctx) => {
      for (const level of LEVELS) ctx.log(level, `${level} message`, 'conformance');
      return 'Logged at every level';
    },
    test_trigger_tool_change: (_args, ctx) => {
      ctx.listChanged('tools');
      return 'notifications/tools/list_changed sent';
    },
    test_trigger_prompt_change: (_args, ctx) => {
      ctx.listChanged('prompts');
      return 'notifications/prompts/list_changed sent';
    },
    test_reconnection: async (_args, ctx) => {
      ctx.closeStream();
      await sleep(200, ctx.signal);
      return 'Reconnection test completed.';
    },

    // ---- input from the client, handshake-era scenarios ----
    test_sampling: async ({ prompt }, ctx) => `LLM response: ${sampled(await ctx.input('answer', sample(prompt, 100)))}`,
    test_elicitation: async ({ message }, ctx) => {
      const answer = await ctx.input(
        'user',
        form(message, {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        }),
      );
      return `User response: ${summary(answer)}`;
    },
    test_elicitation_sep1034_defaults: async (_args, ctx) => {
      const answer = await ctx.input(
        'defaults',
        form(
          'Please review and update the form fields with defaults',
          {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          true,
        ),
      );
      return `Elicitation completed: ${summary(answer)}`;
    },
    test_elicitation_sep1330_enums: async (_args, ctx) => {
      const answer = await ctx.input(
        'enums',
        form(
          'Please choose from the enum fields',
          {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          true,
        ),
      );
      return `Elicitation completed: ${summary(answer)}`;
    },

    // ---- input from the client, 2026-07-28 scenarios (server-stateless, input-required-result-*) ----
    test_missing_capability: async (_args, ctx) =>
      // Always needs sampling: a request without it is refused with -32021 before any input is asked.
      `Sampled: ${sampled(await ctx.input('summary', sample('Summarise the conformance run', 50)))}`,
    test_streaming_elicitation: async (_args, ctx) => `Hello, ${field(await ctx.input('user_name', askName()), 'name') ?? 'stranger'}!`,
    test_input_required_result_elicitation: async (_args, ctx) => `Hello, ${field(await ctx.input('user_name', askName()), 'name') ?? 'stranger'}!`,
    test_input_required_result_sampling: async (_args, ctx) =>
      `The model says: ${sampled(await ctx.input('capital_question', sample('What is the capital of France?', 100)))}`,
    test_input_required_result_list_roots: async (_args, ctx) => `Roots: ${rootList(await ctx.input('client_roots', LIST_ROOTS))}`,
    test_input_required_result_request_state: async (_args, ctx) => {
      ctx.keepState(STATE_MARK);
      const ok = field(await ctx.input('confirm', askConfirm()), 'ok');
      // The handshake era asks inline and has no requestState to verify.
      const verified = ctx.era === 'handshake' || stateVerified(ctx);
      return `${verified ? 'state-ok' : 'state-missing'}; confirmed=${ok ?? 'no'}`;
    },
    test_input_required_result_tampered_state: async (_args, ctx) => {
      ctx.keepState(STATE_MARK);
      const ok = field(await ctx.input('confirm', askConfirm()), 'ok');
      return `state verified; confirmed=${ok ?? 'no'}`;
    },
    test_input_required_result_multiple_inputs: async (_args, ctx) => {
      ctx.keepState(STATE_MARK);
      const answers = await ctx.inputs({ user_name: askName(), greeting: sample('Generate a greeting', 50), client_roots: LIST_ROOTS });
      const name = field(answers.user_name, 'name') ?? 'stranger';
      const greeting = sampled(answers.greeting);
      return `${greeting} ${name}; roots: ${rootList(answers.client_roots)}`;
    },
    test_input_required_result_multi_round: async (_args, ctx) => {
      // Round 1 keeps {step: 1} and asks step1; round 2 keeps {step: 2, name} (a new requestState) and asks
      // step2; round 3 carries only the step2 answer, so step1 is skipped by the state.
      const state = ctx.state as MultiRoundState | undefined;
      let name = state?.step === 2 ? state.name : undefined;
      if (name === undefined) {
        ctx.keepState({ step: 1 } satisfies MultiRoundState);
        name = field(await ctx.input('step1', askName('Step 1: What is your name?')), 'name') ?? 'stranger';
        ctx.keepState({ step: 2, name } satisfies MultiRoundState);
      }
      const color = field(await ctx.input('step2', form('Step 2: What is your favorite color?', { color: { type: 'string' } })), 'color');
      return `${name}'s favorite color is ${color ?? 'unknown'}`;
    },
    test_input_required_result_capabilities: async (_args, ctx) => {
      // Only what this request's client declares (capability-check sends {sampling: {}}: no elicitation).
      const caps = ctx.clientCapabilities;
      const wanted: Record<string, InputRequest> = {};
      if (caps['elicitation'] !== undefined) wanted['user_name'] = askName();
      if (caps['sampling'] !== undefined) wanted['greeting'] = sample('Generate a greeting', 50);
      if (caps['roots'] !== undefined) wanted['client_roots'] = LIST_ROOTS;
      if (Object.keys(wanted).length === 0) return 'The client declared no capability to ask through';
      const answers = await ctx.inputs(wanted);
      return `Received: ${Object.keys(answers).sort().join(', ')}`;
    },
  },

  resources: {
    'test://static-text': () => 'This is a static text resource for testing.',
    'test://static-binary': () => ({ blob: PNG }),
    'test://watched-resource': () => 'Watched resource content',
  },
  resourceTemplates: {
    'test://template/{id}/data': ({ id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  },

  prompts: {
    test_simple_prompt: () => 'This is a simple prompt for testing.',
    test_prompt_with_arguments: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
    test_prompt_with_embedded_resource: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
    test_prompt_with_image: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
    test_input_required_result_prompt: async (_args, ctx) => {
      const context = field(await ctx.input('user_context', form('What context should the prompt use?', { context: { type: 'string' } })), 'context');
      return `Use this context: ${context ?? '(none given)'}`;
    },
  },

  // completion-complete: ref/prompt test_prompt_with_arguments, argument arg1 value "test".
  complete: ({ ref, argument }) => {
    const candidates: Record<string, readonly string[]> = {
      'test_prompt_with_arguments/arg1': ['test', 'testValue1', 'testing'],
      'test_prompt_with_arguments/arg2': ['test', 'testValue2', 'tested'],
      'test://template/{id}/data/id': ['1', '123', '42'],
    };
    const key = `${String(ref['name'] ?? ref['uri'])}/${argument.name}`;
    return (candidates[key] ?? []).filter((v) => v.startsWith(argument.value));
  },
});

export default new McpServer(catalogServerOptions(definition, { extensions: [tasks, skills] }));
