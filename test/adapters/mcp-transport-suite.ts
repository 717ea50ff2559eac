/**
 * @module test/adapters/mcp-transport-suite — one transport conformance suite for the MCP Streamable HTTP
 * server, run by every way of serving it (targets.ts): `runMcpTransportSuite(name, target)` registers the
 * admission, header and limit cases (mcp-suite-admission.ts), the depth and backpressure cases
 * (mcp-suite-hardening.ts), the streamed, session and cancellation cases (mcp-suite-streams.ts) and the
 * resumability cases (mcp-suite-resume.ts) against servers that `target.start` serves.
 */
import { describe } from 'vitest';
import { admissionCases, limitCases } from './mcp-suite-admission.ts';
import { hardeningCases } from './mcp-suite-hardening.ts';
import { resumeCases } from './mcp-suite-resume.ts';
import { streamCases } from './mcp-suite-streams.ts';
import type { McpTarget } from './targets.ts';

export function runMcpTransportSuite(name: string, target: McpTarget): void {
  describe(`MCP transport suite: ${name}`, () => {
    describe('admission and 2026-07-28 headers', () => admissionCases(target));
    describe('limits', () => limitCases(target));
    // Its own fixture (a flood tool, a captured log): left out where another process serves the default one.
    describe.skipIf(!target.traits.inProcess)('hardening: depth and backpressure', () => hardeningCases(target));
    streamCases(target);
    resumeCases(target);
  });
}
