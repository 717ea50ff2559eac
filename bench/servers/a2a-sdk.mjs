// bench/servers/a2a-sdk — the A2A peer as its users run it: the official @a2a-js/sdk 1.3.0 server classes
// (DefaultRequestHandler, InMemoryTaskStore, the Express agent-card and JSON-RPC handlers, as its samples
// wire them), plain JavaScript, running the research agent of samples/research-agent.ts (the same executor
// test/a2a/sdk-agent.ts writes for the interop tests). The card is the sample's, read from the JSON file
// given as argv[2] (the bench writes it from the generated card) and pointed at this server.
// "summarise the design notes" gets the task completed with one `summary` artifact in two chunks.
// Prints `{"url": …}` (the base URL; JSON-RPC at /a2a, as ours) when listening on 127.0.0.1; exits when
// stdin closes.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AgentCard, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { untilStdinCloses } from './stop.mjs';

const textPart = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const textOf = (parts) => parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');
const agentMessage = (contextId, taskId, text) => ({
  messageId: randomUUID(),
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/** The research agent's executor in the SDK's terms: events published on the task's bus. */
class ResearchExecutor {
  #contexts = new Map();

  execute = async (ctx, bus) => {
    const { taskId, contextId } = ctx;
    const text = textOf(ctx.userMessage.parts);
    const status = (state, message) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: message === undefined ? undefined : agentMessage(contextId, taskId, message),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    const finish = (head, body) => {
      const artifactId = randomUUID();
      const chunk = (value, append, lastChunk) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId, name: 'summary', description: '', parts: [textPart(value)], metadata: undefined, extensions: [] },
            append,
            lastChunk,
            metadata: undefined,
          }),
        );
      chunk(head, false, false);
      chunk(body, true, true);
      status(TaskState.TASK_STATE_COMPLETED);
    };
    if (!ctx.task) {
      if (text.startsWith('hello')) return void bus.publish(AgentEvent.message(agentMessage(contextId, '', 'Hello. Ask me to summarise something.')));
      this.#contexts.set(taskId, contextId);
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
          artifacts: [],
          history: [ctx.userMessage],
          metadata: undefined,
        }),
      );
      if (text.startsWith('delete')) return status(TaskState.TASK_STATE_REJECTED, 'I only summarise; I do not delete files.');
      status(TaskState.TASK_STATE_WORKING);
      if (text === 'summarise the meeting') return status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which meeting: Monday's or Tuesday's?");
      if (text === 'check my calendar')
        return status(TaskState.TASK_STATE_AUTH_REQUIRED, 'Sign in to the calendar first: https://calendar.example.com/authorize');
      const subject = text.startsWith('summarise ') ? text.slice('summarise '.length) : text;
      return finish(`Summary of ${subject}: `, 'three decisions, two actions, no blockers.');
    }
    // A follow-up turn: the SDK wants the task published first on every execution.
    this.#contexts.set(taskId, contextId);
    const was = ctx.task.status?.state;
    bus.publish(AgentEvent.task(ctx.task));
    status(TaskState.TASK_STATE_WORKING);
    if (was === TaskState.TASK_STATE_AUTH_REQUIRED) return finish('Today: ', 'design review at 10:00, one-to-one at 15:00.');
    return finish(`Summary of ${text}'s meeting: `, 'three decisions, two actions, no blockers.');
  };

  cancelTask = async (taskId, bus) => {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: this.#contexts.get(taskId) ?? '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  };
}

const cardJson = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const http = createServer();
http.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${http.address().port}`;
  const card = AgentCard.fromJSON({ ...cardJson, supportedInterfaces: cardJson.supportedInterfaces.map((i) => ({ ...i, url: `${url}/a2a` })) });
  // As test/a2a/sdk-agent.ts: only INPUT_REQUIRED keeps a task's event bus alive (the agent resumes an
  // auth-required task on the client's next message, not in the same execution).
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new ResearchExecutor(),
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    {
      keepBusAliveStates: [TaskState.TASK_STATE_INPUT_REQUIRED],
    },
  );
  const app = express()
    .use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }))
    .use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  http.on('request', app);
  process.stdout.write(`${JSON.stringify({ url })}\n`);
});
untilStdinCloses(
  () =>
    new Promise((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
);
