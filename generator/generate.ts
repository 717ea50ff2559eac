/**
 * @module generate — the pipeline for all pins: load → check → plan → emit → format, then write or compare.
 */
import type { Context } from './context.ts';
import { checkManifest } from './check/manifest.ts';
import { emitRegistry, title } from './emit/dispatch.ts';
import { GENERATOR_NAME } from './context.ts';
import { emitAgentFixture, emitFixture } from './emit/fixture.ts';
import { emitPin } from './emit/index.ts';
import { loadAgentFixtures, loadFixtures, type AgentSpecFile, type FixtureSpecFile } from './load/fixtures.ts';
import { InputError, type Diagnostic } from './errors.ts';
import { diffTree, formatFile, header, writeTree, type FileSet } from './format/index.ts';
import { loadPinInputs } from './load/index.ts';
import { manifestValidator } from './load/manifest.ts';
import { loadPins, verifyPins, type Pin } from './load/pins.ts';
import { planPin, type PinPlan } from './plan/index.ts';

export interface PinReport {
  readonly id: string;
  readonly defs: number;
  readonly methods: number;
  readonly files: number;
  readonly ms: number;
}

/** Loads and verifies every pin (or `options.only`), cross-checking each manifest; throws on any problem. */
export function loadAndCheck(ctx: Context): { pins: Pin[]; plans: PinPlan[]; fixtures: FixtureSpecFile[]; agents: AgentSpecFile[] } {
  const all = loadPins(ctx);
  const only = ctx.options.only;
  if (only) {
    const unknown = only.filter((id) => !all.some((p) => p.id === id));
    if (unknown.length) throw new InputError([{ file: 'schemas/pins.json', message: `no pin ${unknown.join(', ')} (pins: ${all.map((p) => p.id).join(', ')})` }]);
  }
  const pins = only ? all.filter((p) => only.includes(p.id)) : all;
  verifyPins(ctx, pins);
  const validator = manifestValidator(ctx);
  const diagnostics: Diagnostic[] = [];
  const plans: PinPlan[] = [];
  for (const pin of pins) {
    const loaded = loadPinInputs(ctx, pin, validator);
    const found = checkManifest(loaded);
    diagnostics.push(...found);
    if (found.length === 0) plans.push(planPin(loaded));
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  // Fixtures are checked against the newest MCP revision, and only generated in a full run.
  const newestMcp = plans.filter((p) => p.protocol === 'mcp').sort((a, b) => (a.revision < b.revision ? -1 : 1)).at(-1);
  const fixtures = !only && newestMcp ? loadFixtures(ctx, newestMcp) : [];
  const a2a = plans.find((p) => p.protocol === 'a2a');
  const agents = !only && a2a ? loadAgentFixtures(ctx, a2a) : [];
  return { pins, plans, fixtures, agents };
}

/** The index of the generated folder. */
function generatedReadme(plans: readonly PinPlan[]): string {
  const rows = plans.map((p) => `| \`${p.id}/\` | \`${p.packageName}\` | ${p.version} | ${title(p)} |`);
  return `# generated/

Committed output of \`npm run generate\`: one package per pinned protocol revision. Do not edit; CI runs
\`npm run generate -- --check\` and fails when this folder differs from what the generator produces.

| folder | package | version | protocol |
|---|---|---|---|
${rows.join('\n')}
`;
}

/** Runs the whole pipeline; returns the file set (paths relative to generated/) and a report per pin. */
export async function generateAll(ctx: Context): Promise<{ files: FileSet; reports: PinReport[] }> {
  const { plans, fixtures, agents } = loadAndCheck(ctx);
  const files: FileSet = new Map();
  const reports: PinReport[] = [];
  for (const plan of plans) {
    const t0 = performance.now();
    const pinFiles = await emitPin(plan);
    for (const [name, text] of pinFiles) files.set(`${plan.id}/${name}`, text);
    const report = { id: plan.id, defs: Object.keys(plan.defs).length, methods: plan.methods.length, files: pinFiles.size, ms: performance.now() - t0 };
    reports.push(report);
    ctx.options.log(`${report.id}: ${report.defs} defs, ${report.methods} methods, ${report.files} files (${(report.ms / 1000).toFixed(2)} s)`);
  }
  for (const fixture of fixtures) {
    const t0 = performance.now();
    const head = header(GENERATOR_NAME, [fixture.file]);
    const emitted = await emitFixture(fixture);
    for (const [name, text] of emitted) files.set(`fixtures/${fixture.name}/${name}`, await formatFile(name, text, head));
    ctx.options.log(`fixtures/${fixture.name}: ${emitted.size} files (${((performance.now() - t0) / 1000).toFixed(2)} s)`);
  }
  for (const agent of agents) {
    const emitted = emitAgentFixture(agent);
    const head = header(GENERATOR_NAME, [agent.file]);
    for (const [name, text] of emitted) files.set(`fixtures/${agent.name}/${name}`, await formatFile(name, text, head));
    ctx.options.log(`fixtures/${agent.name}: ${emitted.size} file (A2A agent)`);
  }
  if (!ctx.options.only) {
    files.set('README.md', await formatFile('README.md', generatedReadme(plans), ''));
    files.set('index.ts', await formatFile('index.ts', emitRegistry(plans), header(GENERATOR_NAME, ['schemas/pins.json'])));
  }
  return { files, reports };
}

export { diffTree, writeTree };
