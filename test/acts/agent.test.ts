/**
 * The ACTS test agent (samples/acts-agent.ts) exhibits every SUT behaviour of acts-specification.md §11.2 on
 * both JSON bindings, probed on the wire as the suites state them (agent-probes.ts), served in-process on
 * loopback with tck-long-running shortened to 300 ms (the served sample's default is the §11 example's 5 s).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { actsAgent } from '../../samples/acts-agent.ts';
import { Caller, endpointsOf, PROBES, type Binding, type Endpoints } from './agent-probes.ts';

const LONG_RUNNING_MS = 300;
let running: RunningA2aServer;
let server: A2aServer;
let endpoints: Endpoints;

beforeAll(async () => {
  server = new A2aServer(actsAgent({ longRunningMs: LONG_RUNNING_MS }));
  running = await listenA2aHttp(server);
  server.advertiseAt(running.url);
  endpoints = endpointsOf((await (await fetch(`${running.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>);
});
afterAll(async () => {
  await running?.close();
});

for (const binding of ['jsonrpc', 'http-json'] as Binding[])
  describe(`ACTS agent on ${binding}`, () => {
    for (const [name, probe] of Object.entries(PROBES)) it(name, () => probe(new Caller(binding, endpoints[binding]), LONG_RUNNING_MS));
  });
