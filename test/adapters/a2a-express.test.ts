/**
 * The A2A transport suite on the Express middleware: mounted with no body parser, and after `express.json()`
 * (with `agent.errors` after it, as documented).
 */
import { runA2aTransportSuite } from './a2a-transport-suite.ts';
import { A2A_TARGETS } from './targets.ts';

for (const name of ['a2aExpress (no body parser)', 'a2aExpress after express.json()']) runA2aTransportSuite(name, A2A_TARGETS[name]!);
