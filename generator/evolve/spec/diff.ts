/**
 * @module evolve/spec/diff — what changed for a user's clients between two versions of their own spec (the
 * server.yaml or agent.yaml `wiregen generate --spec` reads), in the findings `wiregen diff` reports for pins:
 * an MCP server's by evolve/spec/server.ts, an A2A agent's by evolve/spec/agent.ts.
 * Descriptions, titles and examples are not compared: clients do not depend on them. A tool's annotations are
 * (evolve/spec/annotations.ts): clients decide on them whether to ask the user before calling it.
 */
import { sortFindings, type Finding } from '../findings.ts';
import { diffAgent } from './agent.ts';
import { isAgentSpec, SpecDiff, type SpecVersion } from './compare.ts';
import { diffServer } from './server.ts';

export { isAgentSpec, type SpecVersion } from './compare.ts';

/** Every change from spec version `a` to `b` (both servers or both agents), sorted: wire-breaking first. */
export function diffSpecs(a: SpecVersion, b: SpecVersion): Finding[] {
  const d = new SpecDiff(a, b);
  if (isAgentSpec(a.data) !== isAgentSpec(b.data))
    d.push(
      'SPEC_SAME_KIND',
      'wire-breaking',
      'b',
      '',
      'spec',
      `the spec is ${isAgentSpec(b.data) ? 'an A2A agent' : 'an MCP server'}, was ${isAgentSpec(a.data) ? 'an A2A agent' : 'an MCP server'}`,
    );
  else if (isAgentSpec(b.data)) diffAgent(d);
  else diffServer(d);
  return sortFindings(d.out);
}
