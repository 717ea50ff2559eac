/**
 * @module test/interop/tour — what an official client does with one of our servers, the same for the SDK
 * 1.32.2 `Client` and the v2 `Client` 2.4.0 (their public methods share names): every tool called with
 * arguments sampled from its schema (elicitation and sampling answered by the client's handlers, progress
 * asked for), every resource read, every template listed, every prompt got, a completion when the server
 * offers them. Each call's outcome is kept, not thrown: the test compares them with what the sample's spec
 * says each tool does.
 */
import { sampleArguments, sampleElicitation } from '../helpers/schema-sample.ts';

type Json = Record<string, unknown>;

/** The methods the tour uses, as both official clients have them. */
export interface OfficialClient {
  getServerCapabilities(): Json | undefined;
  listTools(): Promise<{ tools: Json[] }>;
  listResources(): Promise<{ resources: Json[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Json[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Json[] }>;
  listPrompts(): Promise<{ prompts: Json[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: Json[] }>;
  complete(params: Json): Promise<{ completion: { values: string[] } }>;
}

/** tools/call with per-request options: SDK 1.x takes them third (after a result schema), the v2 client second. */
export type CallTool = (
  params: { name: string; arguments?: Json },
  options: { onprogress: (p: unknown) => void; timeout: number; signal?: AbortSignal },
) => Promise<Json>;

/** A call's outcome: `ok`, `isError` (a tool result reporting an error), or the JSON-RPC error code. */
export type Outcome = 'ok' | 'isError' | number;

export interface Tour {
  readonly tools: Record<string, Outcome>;
  /** notifications/progress the client saw per tool. */
  readonly progress: Record<string, number>;
  readonly resources: Record<string, Outcome>;
  readonly templates: string[];
  readonly prompts: Record<string, Outcome>;
  readonly completion?: Outcome;
}

const codeOf = (err: unknown): number => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? code : -1;
};

/** The elicitation answer a person accepting every default gives: the form's fields, defaults first (SEP-1034). */
export function elicitationAnswer(params: Json): Json {
  if (params['mode'] === 'url') return { action: 'accept' };
  return { action: 'accept', content: sampleElicitation(params['requestedSchema']) };
}

export const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'A sampled reply.' }, model: 'interop-model', stopReason: 'endTurn' };

export async function tour(client: OfficialClient, callTool: CallTool, skip: readonly string[] = []): Promise<Tour> {
  const caps = client.getServerCapabilities() ?? {};
  const tools: Record<string, Outcome> = {};
  const progress: Record<string, number> = {};
  for (const tool of (await client.listTools()).tools) {
    const name = String(tool['name']);
    if (skip.includes(name)) continue;
    progress[name] = 0;
    try {
      const result = await callTool(
        { name, arguments: sampleArguments(tool['inputSchema']) },
        { onprogress: () => progress[name]!++, timeout: 30_000 },
      );
      tools[name] = result['isError'] === true ? 'isError' : 'ok';
    } catch (err) {
      tools[name] = codeOf(err);
    }
  }
  const resources: Record<string, Outcome> = {};
  const templates: string[] = [];
  if (caps['resources']) {
    for (const r of (await client.listResources()).resources) {
      const uri = String(r['uri']);
      try {
        resources[uri] = (await client.readResource({ uri })).contents.length ? 'ok' : -1;
      } catch (err) {
        resources[uri] = codeOf(err);
      }
    }
    templates.push(...(await client.listResourceTemplates()).resourceTemplates.map((t) => String(t['uriTemplate'])));
  }
  const prompts: Record<string, Outcome> = {};
  let completion: Outcome | undefined;
  if (caps['prompts']) {
    const listed = (await client.listPrompts()).prompts;
    for (const p of listed) {
      const name = String(p['name']);
      const declared = Array.isArray(p['arguments']) ? (p['arguments'] as Json[]) : [];
      // A URI-shaped value: a prompt may embed its argument as a resource's uri.
      const args = Object.fromEntries(declared.filter((a) => a['required']).map((a) => [String(a['name']), 'test://interop']));
      try {
        prompts[name] = (await client.getPrompt({ name, arguments: args })).messages.length ? 'ok' : -1;
      } catch (err) {
        prompts[name] = codeOf(err);
      }
    }
    const withArgument = listed.find((p) => Array.isArray(p['arguments']) && (p['arguments'] as Json[]).length);
    if (caps['completions'] && withArgument) {
      const argument = String(((withArgument['arguments'] as Json[])[0] as Json)['name']);
      try {
        await client.complete({ ref: { type: 'ref/prompt', name: withArgument['name'] }, argument: { name: argument, value: '' } });
        completion = 'ok';
      } catch (err) {
        completion = codeOf(err);
      }
    }
  }
  return { tools, progress, resources, templates, prompts, ...(completion !== undefined ? { completion } : {}) };
}
