/**
 * @module samples/golden — the behaviours of the Golden Server, the reference server of the wire
 * corpus in test/golden/. The default export is the `base` handler set (schemas/samples/golden.yaml);
 * `handlerSets.extended` (schemas/samples/golden-extended.yaml) is the base set plus the resource template,
 * completions, `echo_structured` and `annotated_probe`, served with `wiregen serve golden --handlers extended`.
 * Both sets share the base behaviours below.
 */
import { defineServer, type Behaviours } from '../generated/samples/golden/index.ts';
import { defineServer as defineExtended } from '../generated/samples/golden-extended/index.ts';
import { ErrorCode, JsonRpcError } from '../runtime/jsonrpc/message.ts';

const base: Behaviours = {
  tools: {
    echo: ({ text }) => `echo: ${text}`,
    boom: () => ({ content: [{ type: 'text', text: 'kaboom' }], isError: true }),
  },
  resources: { 'resource://info': () => 'The golden info' },
  prompts: {
    greet: ({ name }) => ({ description: 'A greeting', messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] }),
  },
};

/** Completion values (the reference corpus): these two, filtered by the prefix typed so far, for any ref and argument. */
const COMPLETIONS = ['alpha', 'beta'];

export default defineServer(base);

export const handlerSets = {
  extended: defineExtended({
    ...base,
    tools: {
      ...base.tools,
      // The length in Unicode code points, not UTF-16 units: what "its length" means to any client language.
      echo_structured: ({ input }) => ({ echoedText: input, echoedLength: [...input].length }),
      annotated_probe: ({ probe }) => ({
        content: [{ type: 'text', text: `probed: ${probe}`, annotations: { audience: ['user'], priority: 0.5 } }],
      }),
    },
    // The template's items do not exist: reading one is an unknown resource (-32602 with the uri, what the runtime
    // answers a URI nothing serves; the project's golden cases resources-read-template-miss).
    resourceTemplates: {
      'resource://item/{itemId}': ({ itemId }) => {
        const uri = `resource://item/${itemId}`;
        throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
      },
    },
    complete: ({ argument }) => COMPLETIONS.filter((value) => value.startsWith(argument.value)),
  }),
};
