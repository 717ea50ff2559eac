/** The A2A transport suite on node:http: `listenA2aHttp`, and `a2aNodeHandler` on the test's own `http.createServer`. */
import { runA2aTransportSuite } from './a2a-transport-suite.ts';
import { A2A_TARGETS } from './targets.ts';

for (const name of ['listenA2aHttp', 'a2aNodeHandler on http.createServer']) runA2aTransportSuite(name, A2A_TARGETS[name]!);
