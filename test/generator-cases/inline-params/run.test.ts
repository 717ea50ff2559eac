/**
 * Case inline-params, run: params declared inside the message get a validator of their own, which the
 * dispatch table uses and whose type is the message's `params`.
 */
import { describe, expect, it } from 'vitest';
import { lookup, validators, type HandlerParams, type Params, type ServerHandlers } from './expected/index.ts';

describe('inline-params: the generated package', () => {
  it('exports the inline params validator, and the dispatch entry uses it', () => {
    expect(lookup('notes/add')!.params).toBe(validators.AddRequest_params);
    expect(validators.AddRequest_params({ title: 'a', tags: ['x'] })).toBe(true);
    expect(validators.AddRequest_params({ tags: ['x'] })).toBe(false);
    expect(validators.AddRequest_params.errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'title' } });
    expect(validators.AddRequest({ method: 'notes/add', params: { title: 'a' } })).toBe(true);
    expect(validators.AddRequest({ method: 'notes/add', params: { title: 1 } })).toBe(false);
  });

  it('draft-07: paramsRequired follows the message, and the envelope is the params of Request', async () => {
    expect(lookup('notes/add')!.paramsRequired).toBe(true);
    const params: Params<'notes/add'> = { title: 'a' };
    const asHandlerSees: HandlerParams<'notes/add'> = { title: 'b', _meta: {} };
    const handlers: ServerHandlers = { 'notes/add': (p) => ({ id: p.title }) };
    expect(await handlers['notes/add']!(params, undefined)).toEqual({ id: 'a' });
    expect(await handlers['notes/add']!(asHandlerSees, undefined)).toEqual({ id: 'b' });
  });
});
