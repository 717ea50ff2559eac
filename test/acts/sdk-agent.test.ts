/**
 * The ACTS behaviours (agent-probes.ts) run against the SDK's ACTS agent (sdk-agent.ts, `@a2a-js/sdk` 1.3) on
 * both bindings, and the outcome of each recorded: the SDK agent need not pass, so this asserts only that every
 * probe ran to a verdict; the verdicts are printed and compared in docs/a2a-conformance.md.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Caller, endpointsOf, PROBES, type Binding, type Endpoints } from './agent-probes.ts';
import { startSdkActsAgent, type SdkActsAgent } from './sdk-agent.ts';

const LONG_RUNNING_MS = 300;
let agent: SdkActsAgent;
let endpoints: Endpoints;

beforeAll(async () => {
  agent = await startSdkActsAgent({ longRunningMs: LONG_RUNNING_MS });
  endpoints = endpointsOf((await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>);
});
afterAll(() => agent?.close());

it('runs every behaviour probe against the SDK agent on both bindings', async () => {
  const verdicts: Record<string, string> = {};
  for (const binding of ['jsonrpc', 'http-json'] as Binding[])
    for (const [name, probe] of Object.entries(PROBES)) {
      const caller = new Caller(binding, endpoints[binding]);
      verdicts[`${binding} ${name}`] = await Promise.race([
        probe(caller, LONG_RUNNING_MS).then(
          () => 'pass',
          (err: unknown) => `fail: ${(err as Error).message.slice(0, 300)}`,
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('fail: no answer in 5 s'), 5000)),
      ]);
    }
  console.log(JSON.stringify(verdicts, null, 2));
  expect(Object.keys(verdicts)).toHaveLength(2 * Object.keys(PROBES).length);
}, 60_000);
