/**
 * @module bench/a2a/sdk-server — the peer for part 4: an @a2a-js/sdk 1.3 server (DefaultRequestHandler,
 * InMemoryTaskStore, the express JSON-RPC handler at `/`) running the seed 000 research agent's `summarise`
 * as fixtures/research-agent.ts does and the A2A recording `a2a_send` shows it: SendMessage creates a task
 * that completes at once with one artifact, `summary`, of two text parts. Prints `{"url": …}` when listening on 127.0.0.1; exits when stdin
 * closes.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, TaskState, type AgentCard, type Part } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { untilStdinCloses } from '../lib/stdin-stop.ts';

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });

function card(url: string): AgentCard {
  return {
    name: 'Research agent',
    description: 'Summarises documents and meetings for other agents.',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'summarise', name: 'Summarise', description: 'Summarise a document or a meeting.', tags: ['summary', 'text'], examples: ['summarise the design notes'], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    signatures: [],
  };
}

/**
 * What fixtures/research-agent.ts does for "summarise …": the task, working, the summary as one artifact in
 * two chunks (the second appended, lastChunk), then completed.
 */
const summarise: AgentExecutor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const part = ctx.userMessage.parts[0]?.content;
    const input = part?.$case === 'text' ? part.value : '';
    const subject = input.startsWith('summarise ') ? input.slice('summarise '.length) : input;
    const status = (state: TaskState) => ({ state, message: undefined, timestamp: new Date().toISOString() });
    bus.publish(AgentEvent.task({ id: taskId, contextId, status: status(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }));
    const artifactId = randomUUID();
    const chunk = (value: string, append: boolean) =>
      AgentEvent.artifactUpdate({ taskId, contextId, artifact: { artifactId, name: 'summary', description: '', parts: [text(value)], metadata: undefined, extensions: [] }, append, lastChunk: append, metadata: undefined });
    bus.publish(chunk(`Summary of ${subject}: `, false));
    bus.publish(chunk('three decisions, two actions, no blockers.', true));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined }));
    bus.finished();
  },
  async cancelTask() {},
};

const app = express();
const http = app.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  const requestHandler = new DefaultRequestHandler(card(url), new InMemoryTaskStore(), summarise);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  process.stdout.write(JSON.stringify({ url }) + '\n');
});
untilStdinCloses(() => new Promise<void>((r) => { http.closeAllConnections(); http.close(() => r()); }));
