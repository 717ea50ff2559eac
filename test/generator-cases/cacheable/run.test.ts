/**
 * Case cacheable, run: a method whose result requires ttlMs and cacheScope is flagged cacheable, the result
 * validator requires them on the wire, and a handler may leave them out (the runtime adds them).
 */
import { describe, expect, it } from 'vitest';
import { lookup, validators, type CallResult, type HandlerResult, type ServerHandlers } from './expected/index.ts';

describe('cacheable: the generated package', () => {
  it('flags the method cacheable and validates the whole result', () => {
    const entry = lookup('notes/list')!;
    expect(entry.cacheable).toBe(true);
    expect(entry.result!({ notes: [], ttlMs: 0, cacheScope: 'private' })).toBe(true);
    expect(entry.result!({ notes: [] })).toBe(false);
    expect(validators.ListResult({ notes: [], ttlMs: -1, cacheScope: 'private' })).toBe(false);
  });

  it('what a handler returns and a call resolves to leave the cache fields and resultType optional', async () => {
    const bare: HandlerResult<'notes/list'> = { notes: ['a'] };
    const full: CallResult<'notes/list'> = { notes: [], ttlMs: 5, cacheScope: 'public', resultType: 'complete' };
    const handlers: ServerHandlers = { 'notes/list': () => bare };
    expect(await handlers['notes/list']!({}, undefined)).toEqual({ notes: ['a'] });
    expect(full.ttlMs).toBe(5);
    // @ts-expect-error the cache fields are optional, not free: a wrong cacheScope fails tsc
    const wrong: HandlerResult<'notes/list'> = { notes: [], cacheScope: 'everyone' };
    expect(wrong).toBeDefined();
  });
});
