/**
 * @module acts/run/preconditions — whether a test applies to the agent under test (§3.3, §12.3, §12.5): a
 * test that does not is skipped with the reason, never failed.
 *
 * Reading of the format: a capability asked to be `false` also holds when the card leaves it out (an absent
 * boolean is false in ProtoJSON); `requires_behaviors` is checked only against a declared list (`--behaviors`),
 * since an agent card has no field for §11's prefixes; runner requirements this runner meets are
 * `webhook_endpoint` (a receiver on 127.0.0.1) and `header_inspection`, the others skip.
 */
import { deepEqual } from '../check/match.ts';
import type { ActsBinding, Test } from '../format/model.ts';

const MET_REQUIREMENTS = ['webhook_endpoint', 'header_inspection'];
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `test` does not apply, or undefined when it does. */
export function skipReason(
  test: Test,
  binding: ActsBinding,
  card: unknown,
  behaviors: ReadonlySet<string> | undefined,
  offered: readonly ActsBinding[],
): string | undefined {
  if (test.transport && !test.transport.includes(binding)) return `the test is for ${test.transport.join(', ')}, not ${binding} (§12.3)`;
  const p = test.preconditions;
  if (p?.transport && !p.transport.some((b) => offered.includes(b))) return `the agent offers none of ${p.transport.join(', ')} (§3.3)`;
  if (!offered.includes(binding)) return `the agent card offers no ${binding} interface (§12.3)`;
  const c = isObj(card) ? card : {};
  const capabilities = isObj(c['capabilities']) ? c['capabilities'] : {};
  for (const [name, want] of Object.entries(p?.capabilities ?? {})) {
    const have = capabilities[name];
    const ok = want === false ? have === undefined || have === false : deepEqual(have, want);
    if (!ok)
      return `capability ${name}: ${JSON.stringify(want)} is not declared in the agent card (it says ${have === undefined ? 'nothing' : JSON.stringify(have)}) (§3.3)`;
  }
  const skills = Array.isArray(c['skills']) ? c['skills'].filter(isObj).map((s) => s['id']) : [];
  for (const s of p?.skills ?? []) if (!skills.includes(s.id)) return `skill ${s.id} is not in the agent card (§3.3)`;
  const extensions = Array.isArray(capabilities['extensions']) ? capabilities['extensions'].filter(isObj).map((e) => e['uri']) : [];
  for (const uri of p?.extensions ?? []) if (!extensions.includes(uri)) return `extension ${uri} is not declared in the agent card (§3.3)`;
  if (behaviors) for (const b of test.requires_behaviors ?? []) if (!behaviors.has(b)) return `behaviour ${b} is not declared (--behaviors) (§11)`;
  for (const r of test.runner_requirements ?? []) if (!MET_REQUIREMENTS.includes(r)) return `this runner cannot meet ${r} (§3.2)`;
  return undefined;
}
