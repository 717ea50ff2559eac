/**
 * @module load/version — what a pin's provenance says about versions: the semver of its generated package,
 * the order of two such versions, and whether one pinned file is newer than another.
 *
 * A package version derives from the revision and the commit, and never goes down when a pin moves to a
 * later commit (`wiregen pin --update` refuses a lower one):
 * - a served pin at a release tag `vX.Y.Z` is `X.Y.Z` (A2A v1.0.1 → `1.0.1`);
 * - a served MCP pin of a dated revision is `YYYY.M.D` (the revision is the release);
 * - a served pin at an untagged commit after release tag `since` is a pseudo-version in the manner of Go's
 *   (https://go.dev/ref/mod#pseudo-versions): above `since`, below the next patch release —
 *   `X.Y.(Z+1)-0.<yyyymmddhhmmss>.<commit12>`, ordered by the commit's date;
 * - a draft pin (not served) is a prerelease: `0.0.0-draft.<yyyymmddhhmmss>.<commit12>`, or for a dated
 *   revision that is not released yet `YYYY.M.D-draft.<…>`, below the release it becomes.
 */
import type { Pin, PinnedFile } from './pins.ts';

/** `v1.0.1` / `1.0.1` → [1, 0, 1]; undefined for anything else. */
export function semverOfTag(tag: string | undefined): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(tag ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** `2026-08-22T10:01:07+00:00` → `20260822100107` (UTC); undefined when there is no date. */
function stamp(date: string | undefined): string | undefined {
  if (date === undefined) return undefined;
  const t = new Date(date);
  return Number.isNaN(t.getTime()) ? undefined : t.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** The prerelease identifiers naming a commit: its date (when known) and its first 12 hex digits. */
function commitIds(pin: Pin): string {
  const ids = [stamp(pin.source.date), pin.source.commit?.slice(0, 12)].filter((x) => x !== undefined);
  return ids.length ? ids.join('.') : 'unknown';
}

/** A dated revision `YYYY-MM-DD` as semver `YYYY.M.D`. */
function dateVersion(revision: string): string | undefined {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(revision);
  return date ? `${Number(date[1])}.${Number(date[2])}.${Number(date[3])}` : undefined;
}

/** The semver of the package generated from `pin` (see the module doc). */
export function packageVersion(pin: Pin): string {
  const dated = dateVersion(pin.revision);
  if (pin.served === false) return `${dated ?? '0.0.0'}-draft.${commitIds(pin)}`;
  const tag = semverOfTag(pin.source.tag);
  if (tag) return tag.join('.');
  if (dated) return dated;
  const since = semverOfTag(pin.source.since);
  if (since) return `${since[0]}.${since[1]}.${since[2] + 1}-0.${commitIds(pin)}`;
  const parts = pin.revision.split('.');
  while (parts.length < 3) parts.push('0');
  return parts.join('.');
}

/** Compares two semver strings by precedence (https://semver.org §11): negative, 0 or positive. */
export function compareSemver(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.split('+')[0]!.split(/-(.*)/s) as [string, string | undefined];
    return { core: core.split('.').map(Number), pre: pre === undefined ? [] : pre.split('.') };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) if ((x.core[i] ?? 0) !== (y.core[i] ?? 0)) return (x.core[i] ?? 0) - (y.core[i] ?? 0);
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length; // a release outranks its prereleases
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/**
 * One pinned file's place in the release history: a release tag it is at, or one its untagged commit
 * follows (`since`, ranked just after that release), and its commit's date; each the file's own, else the pin's.
 */
function releaseOf(pin: Pin, file: PinnedFile): { release?: [number, number, number, number]; date?: number } {
  const own = file.commit !== undefined || file.tag !== undefined;
  const at = semverOfTag(own ? file.tag : pin.source.tag);
  const after = own ? undefined : semverOfTag(pin.source.since);
  const release: [number, number, number, number] | undefined = at ? [...at, 0] : after ? [...after, 1] : undefined;
  const date = own ? file.date : pin.source.date;
  return { ...(release ? { release } : {}), ...(date !== undefined ? { date: Date.parse(date) } : {}) };
}

/**
 * Whether pinned file `a` comes from a later release than `b` of the same pin: by the releases they are at
 * or follow when both have one, else by their commit dates; false when the provenance cannot tell.
 */
export function isNewer(pin: Pin, a: PinnedFile, b: PinnedFile): boolean {
  const x = releaseOf(pin, a);
  const y = releaseOf(pin, b);
  if (x.release && y.release) {
    for (let i = 0; i < 4; i++) if (x.release[i] !== y.release[i]) return x.release[i]! > y.release[i]!;
    return false;
  }
  if (x.date !== undefined && y.date !== undefined) return x.date > y.date;
  return false;
}
