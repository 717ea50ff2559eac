// bench/validation/cold-start.mjs — cold start of one validation subject, in a fresh plain-Node process (no
// loader: the built validators, the SDK v2 and ajv are JavaScript). Measures, inside the process, the time from
// before the first import to the end of the first validation of one message:
//   node bench/validation/cold-start.mjs <subject> <message.json>
// subject: ours (`@wiregen/mcp-2026-07-28/validators`, the built package) | sdk (the SDK v2's
// `specTypeSchemas.CallToolRequest` from @modelcontextprotocol/server) | ajv | ajv-all (ajv compiling every
// $def of the pin, not only the one used). The message is a 2026-07-28 tools/call request.
// Prints one JSON line: {importMs, firstMs, totalMs}.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [subject, messageFile] = process.argv.slice(2);
const message = JSON.parse(readFileSync(messageFile, 'utf8'));

const t0 = performance.now();
let validate;
if (subject === 'ours') {
  const v = await import('@wiregen/mcp-2026-07-28/validators');
  validate = (d) => v.CallToolRequest(d);
} else if (subject === 'sdk') {
  const { specTypeSchemas } = await import('@modelcontextprotocol/server');
  validate = (d) => specTypeSchemas.CallToolRequest['~standard'].validate(d).issues === undefined;
} else if (subject === 'ajv' || subject === 'ajv-all') {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const { default: addFormats } = await import('ajv-formats');
  // The schema as published (annotations kept, so strict off), otherwise the generator's options.
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/mcp/2026-07-28/schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, inlineRefs: false });
  addFormats(ajv);
  ajv.addSchema({ ...schema, $id: 'https://bench.invalid/mcp' });
  if (subject === 'ajv-all') for (const def of Object.keys(schema.$defs)) ajv.getSchema(`https://bench.invalid/mcp#/$defs/${def}`);
  const v = ajv.getSchema('https://bench.invalid/mcp#/$defs/CallToolRequest');
  validate = (d) => v(d);
} else throw new Error(`unknown subject ${subject}`);
const t1 = performance.now();
const ok = validate(message);
const t2 = performance.now();
if (!ok) throw new Error(`${subject} rejected the message`);
process.stdout.write(`${JSON.stringify({ subject, importMs: t1 - t0, firstMs: t2 - t1, totalMs: t2 - t0 })}\n`);
