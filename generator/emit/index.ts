/**
 * @module emit — one pin's package: every emitter run over the plan, each file formatted.
 */
import { GENERATOR_NAME } from '../context.ts';
import { formatFiles, header, type FileSet } from '../format/index.ts';
import type { PinPlan } from '../plan/index.ts';
import { emitClient, emitDispatch, emitHandlers, emitIndex, hasClient } from './dispatch.ts';
import { emitPackageJson, emitReadme } from './package.ts';
import { emitProtocol } from './protocol.ts';
import { emitTypes } from './types.ts';
import { compileHere, type ValidatorSource } from '../workers/validator-threads.ts';
import { emitWireOrder } from './wire-order.ts';

/**
 * Not formatted: ajv's one statement a line is enough for files nobody edits, and prettier took about ten
 * seconds of CPU on the seven pins' validators.js, most of a full generate (see emit/validators.ts).
 */
const VERBATIM: ReadonlySet<string> = new Set(['validators.js', 'validators.fast.js']);

/**
 * Emits one pin's package: file name → formatted text. The files that do not need the validators are emitted
 * and handed to the formatting threads (format/pool.ts) first, so that they are formatted while this pin's
 * validators compile (and, in a full generate, while the next pins' do). `validators` says where they come
 * from: compiled here by default, or, in a full generate, from emit/validator-threads.ts.
 */
export async function emitPin(plan: PinPlan, validators: ValidatorSource = compileHere): Promise<FileSet> {
  const head = header(GENERATOR_NAME, plan.sources);
  const early: [string, string][] = [
    ['types.ts', await emitTypes(plan)],
    ['dispatch.ts', emitDispatch(plan)],
    ['handlers.ts', emitHandlers(plan)],
    ['protocol.ts', emitProtocol(plan)],
    // MCP pins have no generated client: the runtime's McpClient speaks every revision, typed by the newest pin.
    ...(hasClient(plan) ? [['client.ts', emitClient(plan)] as [string, string]] : []),
    ...(plan.wireOrder ? [['wire-order.ts', emitWireOrder(plan.wireOrder, plan)] as [string, string]] : []),
    ['index.ts', emitIndex(plan)],
    ['README.md', emitReadme(plan, GENERATOR_NAME, { defs: Object.keys(plan.defs).length, methods: plan.methods.length })],
  ];
  const formatting = formatFiles(early, head, VERBATIM);
  formatting.catch(() => {}); // awaited below, after the validators; a failure then is reported there
  const { js, fastJs, dts } = await validators(plan);
  const late = await formatFiles(
    [
      ['validators.js', js],
      ['validators.d.ts', dts],
      ['package.json', emitPackageJson(plan, GENERATOR_NAME, js.includes('ajv-formats'))],
      ['validators.fast.js', fastJs],
    ],
    head,
    VERBATIM,
  );
  return new Map([...(await formatting), ...late]);
}
