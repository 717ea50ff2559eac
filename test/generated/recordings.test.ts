/**
 * The generated validators accept what the official MCP SDK put on the wire (seed 000 recordings): every
 * message of a normal session validates against its method's message or result validator, in the revision
 * the session negotiated. Raw sessions send deliberately broken requests, so only the server's replies count.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as m2024 from '../../generated/mcp-2024-11-05/index.ts';
import * as m2025 from '../../generated/mcp-2025-11-25/index.ts';
import * as m2026 from '../../generated/mcp-2026-07-28/index.ts';
import { ROOT } from '../helpers/project.ts';

interface Message {
  from: string;
  to: string;
  json?: Record<string, unknown>;
  raw?: string;
}
interface Session {
  name: string;
  mode?: string;
  messages: Message[];
}
interface Pkg {
  lookup(method: string): { message?: (d: unknown) => boolean; result?: (d: unknown) => boolean } | undefined;
  validators: Record<string, ((d: unknown) => boolean) & { errors?: unknown }>;
}

const sessions = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/recordings/mcp_sdk_exchanges.json'), 'utf8')) as Session[];
const PACKAGES: Record<string, Pkg> = {
  '2024-11-05': m2024 as unknown as Pkg,
  '2025-11-25': m2025 as unknown as Pkg,
  '2026-07-28': m2026 as unknown as Pkg,
};

/** The revision a session speaks: the one its initialize result agreed, else 2026-07-28. */
function revisionOf(session: Session): string {
  for (const m of session.messages) {
    const v = (m.json?.['result'] as { protocolVersion?: string } | undefined)?.protocolVersion;
    if (typeof v === 'string') return v;
  }
  return '2026-07-28';
}

interface Check {
  session: string;
  index: number;
  what: string;
  ok: boolean;
  errors: unknown;
}

function checkSession(session: Session): Check[] {
  const pkg = PACKAGES[revisionOf(session)]!;
  const pending = new Map<unknown, string>(); // request id → method, per direction
  const checks: Check[] = [];
  session.messages.forEach((m, index) => {
    const json = m.json;
    if (!json || (session.mode === 'raw' && m.from === 'client')) {
      if (json && typeof json['method'] === 'string' && 'id' in json) pending.set(`${m.from}:${String(json['id'])}`, json['method']);
      return;
    }
    const check = (what: string, v: ((d: unknown) => boolean) & { errors?: unknown }, data: unknown) =>
      checks.push({ session: session.name, index, what, ok: v(data), errors: v.errors });
    if (typeof json['method'] === 'string') {
      const entry = pkg.lookup(json['method']);
      if ('id' in json) pending.set(`${m.from}:${String(json['id'])}`, json['method']);
      if (!entry?.message) checks.push({ session: session.name, index, what: `unknown method ${json['method']}`, ok: false, errors: null });
      else check(json['method'], entry.message, json);
    } else if ('result' in json) {
      const method = pending.get(`${m.to}:${String(json['id'])}`);
      const entry = method ? pkg.lookup(method) : undefined;
      const result = json['result'] as { resultType?: string };
      if (result.resultType === 'input_required') check(`${method} → input_required`, pkg.validators['InputRequiredResult']!, result);
      else if (!entry?.result) checks.push({ session: session.name, index, what: `result of ${method}`, ok: false, errors: null });
      else check(`result of ${method}`, entry.result, result);
    } else if ('error' in json) {
      check('error', pkg.validators['JSONRPCErrorResponse'] ?? pkg.validators['JSONRPCError']!, json);
    }
  });
  return checks;
}

describe('seed 000 MCP recordings against the generated validators', () => {
  it('has the 18 recorded sessions, 160 messages', () => {
    expect(sessions).toHaveLength(18);
    expect(sessions.reduce((n, s) => n + s.messages.length, 0)).toBe(160);
  });

  it.each(sessions.map((s) => [s.name, s] as const))('%s', (_, session) => {
    const checks = checkSession(session);
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
  });
});
