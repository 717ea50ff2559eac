/**
 * Case input-required, run: a method whose params accept inputResponses is flagged inputRequired, and a
 * handler may answer InputRequiredResult (a call resolves only to the result: the client runs the rounds).
 */
import { describe, expect, it } from 'vitest';
import { lookup, validators, type CallResult, type HandlerResult, type InputRequiredResult, type ServerHandlers } from './expected/index.ts';

describe('input-required: the generated package', () => {
  it('flags the method inputRequired; its params carry the answers of a retry', () => {
    const entry = lookup('notes/delete')!;
    expect(entry.inputRequired).toBe(true);
    expect(entry.params!({ id: 'n1', inputResponses: { confirm: { action: 'accept' } }, requestState: 's' })).toBe(true);
    expect(validators.InputRequiredResult({ resultType: 'input_required', inputRequests: { confirm: {} } })).toBe(true);
    expect(validators.InputRequiredResult({ resultType: 'complete' })).toBe(false);
  });

  it('a handler may ask for input; what a call resolves to may not', async () => {
    const ask: InputRequiredResult = { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } };
    const handlers: ServerHandlers = { 'notes/delete': (p) => (p.inputResponses ? { deleted: true } : ask) };
    expect(await handlers['notes/delete']!({ id: 'n1' }, undefined)).toBe(ask);
    expect(await handlers['notes/delete']!({ id: 'n1', inputResponses: {} }, undefined)).toEqual({ deleted: true });
    const answered: HandlerResult<'notes/delete'> = ask;
    // @ts-expect-error a call resolves to the result; input_required rounds are the client's
    const called: CallResult<'notes/delete'> = ask;
    expect([answered, called]).toHaveLength(2);
  });
});
