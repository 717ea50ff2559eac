/**
 * @module emit — the artifact emitters, one module per artifact (types.ts, dispatch.ts, protocol.ts,
 * wire-order.ts, package.ts, repository.ts, spec-module.ts; validators/ for the validators, a pipeline of its own),
 * and here one pin's package: every emitter run over the plan, each file formatted.
 */
import { GENERATOR_NAME } from '../context.ts';
import { formatFiles, header, type FileSet } from '../format/index.ts';
import type { PinPlan } from '../plan/index.ts';
import { emitClient, emitDispatch, emitHandlers, emitIndex, hasClient } from './dispatch.ts';
import { emitLicense, emitPackageJson, emitReadme } from './package.ts';
import { emitProtocol, hasProtocol } from './protocol.ts';
import { emitTypes } from './types.ts';
import { ACCEPT_PATH, emitAcceptNone, emitValidators } from './validators/index.ts';
import type { Workers } from '../workers/index.ts';
import { emitWireOrder } from './wire-order.ts';

/**
 * Not formatted: ajv's one statement a line is enough for files nobody edits, and prettier took about ten
 * seconds of CPU on the seven pins' validators.js, most of a full generate (see validators/index.ts).
 */
const VERBATIM: ReadonlySet<string> = new Set(['validators.js', ACCEPT_PATH.fast, ACCEPT_PATH.none]);

/**
 * Emits one pin's package: file name → formatted text. With a run's `workers` (a full generate), the files
 * that do not need the validators are emitted and handed to its prettier threads first, so that they are
 * formatted while this pin's validators compile (and while the next pins' do), and the validators come from
 * whoever compiled them first, a validator thread or this one (workers/index.ts). Without, all of it is done
 * here, with the same functions.
 */
export async function emitPin(plan: PinPlan, workers?: Workers): Promise<FileSet> {
  const head = header(GENERATOR_NAME, plan.sources);
  const early: [string, string][] = [
    ['types.ts', await emitTypes(plan)],
    ['dispatch.ts', emitDispatch(plan)],
    ['handlers.ts', emitHandlers(plan)],
    ...(hasProtocol(plan) ? [['protocol.ts', emitProtocol(plan)] as [string, string]] : []),
    // MCP pins have no generated client: the runtime's McpClient speaks every revision, typed by the newest pin.
    ...(hasClient(plan) ? [['client.ts', emitClient(plan)] as [string, string]] : []),
    ...(plan.wireOrder ? [['wire-order.ts', emitWireOrder(plan.wireOrder, plan)] as [string, string]] : []),
    ['index.ts', emitIndex(plan)],
    ['README.md', emitReadme(plan, GENERATOR_NAME, { defs: Object.keys(plan.defs).length, methods: plan.methods.length })],
  ];
  const formatting = formatFiles(early, head, VERBATIM, workers);
  formatting.catch(() => {}); // awaited below, after the validators; a failure then is reported there
  const { js, fastJs, dts } = workers ? await workers.validators(plan) : emitValidators(plan);
  const late = await formatFiles(
    [
      ['validators.js', js],
      ['validators.d.ts', dts],
      ['package.json', emitPackageJson(plan, GENERATOR_NAME, js.includes('ajv-formats'))],
      ['LICENSE', emitLicense(plan)],
      [ACCEPT_PATH.fast, fastJs],
      [ACCEPT_PATH.none, emitAcceptNone(plan)],
    ],
    head,
    VERBATIM,
    workers,
  );
  return new Map([...(await formatting), ...late]);
}
