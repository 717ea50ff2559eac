/**
 * @module test/consumer/a2a-agent.suite — examples/a2a-agent installed from the tarballs: generated again with
 * the packed CLI, type-checked strictly, run on plain Node and called by the `@a2a-js/sdk` 1.3.0 client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, start, tree, tsc, wiregen, writeDocBlocks } from './harness.ts';
import { consumerProject, type ConsumerProject, type Packed } from './packages.ts';

export function a2aAgentSuite(packed: () => Packed): void {
  describe('examples/a2a-agent, installed from the tarballs', () => {
    let project: ConsumerProject;

    beforeAll(() => {
      // @types/pg for @wiregen/runtime/a2a/postgres's declarations (docs/deployment.md's code imports it).
      project = consumerProject('a2a-agent', packed(), ['@types/pg@8']);
    }, 300_000);

    afterAll(() => project?.dispose());

    it('generates with the packed CLI exactly what the example commits, and type-checks strictly (with the agent code of the README and docs/)', () => {
      const committed = tree(project.path('src/generated'));
      wiregen(project, ['generate', '--spec', 'agent.yaml', '--out', 'src/generated']);
      expect(tree(project.path('src/generated'))).toEqual(committed);
      // Every ```ts block that imports @wiregen/runtime/a2a, createAgent or ./agent.js compiles in this example.
      const { written } = writeDocBlocks(project, 'agent');
      expect(written.length).toBeGreaterThanOrEqual(1);
      tsc(project);
    });

    it('the @a2a-js/sdk 1.3.0 client reads the card, sends, streams, and gets a message back', async () => {
      const { ClientFactory } = await import('@a2a-js/sdk/client');
      const { SendMessageRequest, taskStateToJSON } = await import('@a2a-js/sdk');
      const port = await freePort();
      const { url, child } = await start(project, ['dist/main.js', String(port)]);
      try {
        const client = await new ClientFactory().createFromUrl(url);
        const ask = (text: string) =>
          SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
        const result = await client.sendMessage(ask('forecast for Lisbon'));
        expect('status' in result).toBe(true);
        const task = result as import('@a2a-js/sdk').Task;
        expect(taskStateToJSON(task.status!.state)).toBe('TASK_STATE_COMPLETED');
        expect(task.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('')).toBe(
          'Lisbon: sunny today, cloudy tomorrow, rain after.',
        );
        const hello = await client.sendMessage(ask('hello'));
        expect('status' in hello).toBe(false);
        const frames: string[] = [];
        for await (const event of client.sendMessageStream(ask('forecast for Oslo'))) frames.push(String(event.payload?.$case));
        expect(frames).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
      } finally {
        child.kill('SIGTERM');
      }
    });
  });
}
