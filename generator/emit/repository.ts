/**
 * @module emit/repository — the files of generated/ beside the pins' packages and the specs' modules: its
 * README.md (the index of the folder) and revisions/, the registry package `@wiregen/revisions` (its index.ts
 * from dispatch.ts emitRegistry, its package.json from package.ts), each formatted.
 */
import { GENERATOR_NAME } from '../context.ts';
import { formatFile, header, type FileSet } from '../format/index.ts';
import type { PinPlan } from '../plan/index.ts';
import type { Workers } from '../workers/index.ts';
import { emitRegistry, title } from './dispatch.ts';
import { emitRegistryLicense, emitRegistryPackageJson, emitRegistryReadme } from './package.ts';

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

\`samples/\` holds the modules generated from the repository's own server and agent specs.
`;
}

/**
 * generated/README.md and revisions/, by path relative to generated/: every plan is listed in the README,
 * the `served` ones (MCP's, `mcp`, oldest first) in the registry.
 */
export async function emitRepositoryFiles(
  plans: readonly PinPlan[],
  served: readonly PinPlan[],
  mcp: readonly PinPlan[],
  workers?: Workers,
): Promise<FileSet> {
  const registryHead = header(GENERATOR_NAME, ['schemas/pins.json']);
  return new Map([
    ['README.md', await formatFile('README.md', generatedReadme(plans, served), '', workers)],
    ['revisions/index.ts', await formatFile('index.ts', emitRegistry(served, mcp), registryHead, workers)],
    ['revisions/package.json', emitRegistryPackageJson(served)],
    ['revisions/README.md', await formatFile('README.md', emitRegistryReadme(served), '', workers)],
    ['revisions/LICENSE', emitRegistryLicense()],
  ]);
}
