/**
 * The generated validators accept what the official MCP SDK put on the wire (its recordings, test/fixtures/recordings/): every
 * message of a normal session validates against its method's message or result validator, in the revision
 * the session negotiated. Raw sessions send deliberately broken requests, so only the server's replies count.
 */
import { describe, expect, it } from 'vitest';
import * as m2024 from '../../generated/mcp-2024-11-05/index.ts';
import * as m2025 from '../../generated/mcp-2025-11-25/index.ts';
import * as m2026 from '../../generated/mcp-2026-07-28/index.ts';
import { loadMcpSessions, MCP_RECORDED_MESSAGES, recordedChecks, revisionOf, type McpPackage, type RecordedSession } from '../helpers/recordings.ts';

const sessions = loadMcpSessions();
const PACKAGES: Record<string, McpPackage> = {
  '2024-11-05': m2024 as unknown as McpPackage,
  '2025-11-25': m2025 as unknown as McpPackage,
  '2026-07-28': m2026 as unknown as McpPackage,
};

interface Check {
  session: string;
  index: number;
  what: string;
  ok: boolean;
  errors: unknown;
}

function checkSession(session: RecordedSession): Check[] {
  const pkg = PACKAGES[revisionOf(session)]!;
  return recordedChecks(session, pkg)
    .filter((c) => !c.handWritten)
    .map((c) => {
      const what =
        c.kind === 'message'
          ? c.def
            ? c.method!
            : `unknown method ${c.method}`
          : c.kind === 'result'
            ? c.def === 'InputRequiredResult'
              ? `${c.method} → input_required`
              : `result of ${c.method}`
            : 'error';
      if (!c.def) return { session: session.name, index: c.index, what, ok: false, errors: null };
      const v = pkg.validators[c.def]!;
      return { session: session.name, index: c.index, what, ok: v(c.data), errors: v.errors };
    });
}

describe('the official SDK MCP recordings against the generated validators', () => {
  it(`has the 18 recorded sessions, ${MCP_RECORDED_MESSAGES} messages`, () => {
    expect(sessions).toHaveLength(18);
    expect(sessions.reduce((n, s) => n + s.messages.length, 0)).toBe(160);
  });

  it.each(sessions.map((s) => [s.name, s] as const))('%s', (_, session) => {
    const checks = checkSession(session);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
  });
});
