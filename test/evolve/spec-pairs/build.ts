/**
 * The specs the rule pairs are built from (test/evolve/spec-rules.test.ts): a server with one tool, a prompt,
 * an agent card. Ours, minimal: each holds only what its pair changes.
 */
export type Obj = Record<string, unknown>;

/** One pair: the findings (`RULE class`) from `a` to `b`, and from `b` to `a` (the reverse). */
export interface Case {
  readonly name: string;
  readonly a: Obj;
  readonly b: Obj;
  readonly forward: readonly string[];
  readonly reverse: readonly string[];
}

/** A server spec with one tool `t` of this input (and output) schema and these annotations. */
export const tool = (input: Obj, output?: Obj, extra: Obj = {}): Obj => ({
  name: 's',
  tools: [{ name: 't', inputSchema: { type: 'object', ...input }, ...(output ? { outputSchema: { type: 'object', ...output } } : {}), ...extra }],
});
export const arg = (p: Obj, required: string[] = []): Obj => ({ properties: p, required });
export const server = (rest: Obj): Obj => ({ name: 's', ...rest });
export const agent = (card: Obj, extra: Obj = {}): Obj => ({ name: 'a', card: { name: 'A', ...card }, ...extra });
export const prompt = (args: Obj[]): Obj => server({ prompts: [{ name: 'p', arguments: args }] });
export const iface = (url: string, binding = 'JSONRPC') => ({ url, protocolBinding: binding, protocolVersion: '1.0' });
export const str = { type: 'string' };
export const bearer = { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } };
