/**
 * @module generate — the pipeline for all pins: load → check → plan → emit → format, then write or compare.
 */
import type { Context } from './context.ts';
import { checkManifest } from './check/manifest.ts';
import { emitRegistry, title } from './emit/dispatch.ts';
import { GENERATOR_NAME } from './context.ts';
import { emitAgentFixture, emitFixture } from './emit/fixture.ts';
import { emitPin } from './emit/index.ts';
import { emitRegistryPackageJson } from './emit/package.ts';
import { loadAgentFixtures, loadFixtures, type FixtureSpecFile } from './load/fixtures.ts';
import { InputError, type Diagnostic } from './errors.ts';
import { diffTree, formatFile, header, writeTree, type FileSet } from './format/index.ts';
import { loadPinInputs } from './load/index.ts';
import { manifestValidator } from './load/manifest.ts';
import { isServed, loadPins, verifyPins, type Pin } from './load/pins.ts';
import { planPin, type PinPlan } from './plan/index.ts';

export interface PinReport {
  readonly id: string;
  readonly defs: number;
  readonly methods: number;
  readonly files: number;
  readonly ms: number;
}

export interface Loaded {
  readonly pins: Pin[];
  readonly plans: PinPlan[];
  /**
   * The served MCP plans, oldest revision first: the fixtures are checked against the last, the registry lists
   * them so. Drafts (`served: false`) are generated but never registered, so never advertised nor negotiated.
   */
  readonly mcp: PinPlan[];
  /** The served A2A plan the agent fixtures are checked against and import their types from. */
  readonly a2a?: PinPlan;
  /** The plans the registry lists: every served pin's. */
  readonly served: PinPlan[];
  readonly fixtures: FixtureSpecFile[];
  readonly agents: FixtureSpecFile[];
}

/** Loads and verifies every pin (or `options.only`), cross-checking each manifest; throws on any problem. */
export function loadAndCheck(ctx: Context): Loaded {
  const all = loadPins(ctx);
  const only = ctx.options.only;
  if (only) {
    const unknown = only.filter((id) => !all.some((p) => p.id === id));
    if (unknown.length)
      throw new InputError([{ file: 'schemas/pins.json', message: `no pin ${unknown.join(', ')} (pins: ${all.map((p) => p.id).join(', ')})` }]);
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
  const servedIds = new Set(pins.filter(isServed).map((p) => p.id));
  const served = plans.filter((p) => servedIds.has(p.id));
  const mcp = served.filter((p) => p.protocol === 'mcp').sort((a, b) => (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0));
  const a2a = served.find((p) => p.protocol === 'a2a');
  // Fixtures are checked against the newest MCP revision, and only generated in a full run.
  const newestMcp = mcp.at(-1);
  const fixtures = !only && newestMcp ? loadFixtures(ctx, newestMcp) : [];
  const agents = !only && a2a ? loadAgentFixtures(ctx, a2a) : [];
  return { pins, plans, mcp, ...(a2a ? { a2a } : {}), served, fixtures, agents };
}

/** The index of the generated folder. */
function generatedReadme(plans: readonly PinPlan[], served: readonly PinPlan[]): string {
  const draft = (p: PinPlan) => (served.includes(p) ? '' : ' (draft, not served)');
  const rows = plans.map((p) => `| \`${p.id}/\` | \`${p.packageName}\` | ${p.version} | ${title(p)}${draft(p)} |`);
  return `# generated/

Committed output of \`npm run generate\`: one package per pinned protocol revision. Do not edit; CI runs
\`npm run generate -- --check\` and fails when this folder differs from what the generator produces.

| folder | package | version | protocol |
|---|---|---|---|
${rows.join('\n')}
| \`revisions/\` | \`@wiregen/revisions\` | | the registry: every package above by protocol and era |

\`fixtures/\` holds the modules generated from the repository's own server and agent specs.
`;
}

/**
 * Emits one folder of generated/: runs `emit` (which returns formatted files), adds them under `dir`, and
 * logs `<dir>: <what the files are> (<seconds> s)`.
 */
async function emitFolder(
  ctx: Context,
  files: FileSet,
  dir: string,
  emit: () => Promise<FileSet>,
  what: (count: number) => string,
): Promise<{ files: number; ms: number }> {
  const t0 = performance.now();
  const emitted = await emit();
  for (const [name, text] of emitted) files.set(`${dir}/${name}`, text);
  const ms = performance.now() - t0;
  ctx.options.log(`${dir}: ${what(emitted.size)} (${(ms / 1000).toFixed(2)} s)`);
  return { files: emitted.size, ms };
}

/** Runs the whole pipeline; returns the file set (paths relative to generated/) and a report per pin. */
export async function generateAll(ctx: Context): Promise<{ files: FileSet; reports: PinReport[] }> {
  const { plans, mcp, a2a, served, fixtures, agents } = loadAndCheck(ctx);
  const files: FileSet = new Map();
  const reports: PinReport[] = [];
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  for (const plan of plans) {
    const defs = Object.keys(plan.defs).length;
    const methods = plan.methods.length;
    const done = await emitFolder(
      ctx,
      files,
      plan.id,
      () => emitPin(plan),
      (n) => `${defs} defs, ${methods} methods, ${plural(n, 'file')}`,
    );
    reports.push({ id: plan.id, defs, methods, ...done });
  }
  for (const fixture of fixtures)
    await emitFolder(
      ctx,
      files,
      `fixtures/${fixture.name}`,
      () => emitFixture(fixture),
      (n) => plural(n, 'file'),
    );
  if (a2a)
    for (const agent of agents)
      await emitFolder(
        ctx,
        files,
        `fixtures/${agent.name}`,
        () => emitAgentFixture(agent, a2a),
        (n) => `${plural(n, 'file')} (A2A agent)`,
      );
  if (!ctx.options.only) {
    files.set('README.md', await formatFile('README.md', generatedReadme(plans, served), ''));
    const registryHead = header(GENERATOR_NAME, ['schemas/pins.json']);
    files.set('revisions/index.ts', await formatFile('index.ts', emitRegistry(served, mcp), registryHead));
    files.set('revisions/package.json', emitRegistryPackageJson(served));
  }
  return { files, reports };
}

export { diffTree, writeTree };
