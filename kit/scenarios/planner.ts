/**
 * @module kit/scenarios/planner — scenario 19: the planner's run (kit/planner.ts) against the three agents,
 * its exchanges in 19-planner.http and its decisions in 19-planner.log. The kit plays the operator the
 * planner asks when the deploy waits for approval.
 */
import { seededIds } from '../ids.ts';
import { AGENT_NAMES, DEPLOY_TOKEN, WRITTEN } from '../network.ts';
import { runPlanner } from '../planner.ts';
import { CaptureError, expectStatus, type Scenario } from '../session.ts';

export const planner: Scenario = {
  base: '19-planner',
  summary: "the planner's run; its decisions are in 19-planner.log",
  async run(s) {
    const lines: string[] = [];
    const result = await runPlanner({
      agents: AGENT_NAMES.map((name) => WRITTEN[name]),
      fetch: s.rec.fetch,
      credentials: (card, scheme) => (card.name === 'Deployer' && scheme === 'bearer' ? DEPLOY_TOKEN : undefined),
      ids: seededIds('planner'),
      log: (line) => lines.push(line),
      mark: (title) => s.rec.step(`planner: ${title}`),
      escalate: async (base, taskId) => {
        s.rec.step(
          'the operator approves the deploy, outside A2A',
          'The planner asked a person; the kit plays the operator. The deploy stream stays open meanwhile.',
        );
        expectStatus(await s.raw('url', `${base}/approve/${taskId}`, { method: 'POST' }), 200);
      },
    });
    if (result.startsWith('stopped')) throw new CaptureError(`the planner ${result}`);
    const header = [
      "# 19-planner.log: the planner's run and its decisions (kit/planner.ts); its exchanges are in 19-planner.http.",
      '# Written by `npm run a2a-kit`. Do not edit.',
      '',
    ];
    s.write('19-planner.log', `${[...header, ...lines].join('\n')}\n`);
  },
};
