/**
 * @module evolve/pin — `wiregen pin <pin-id> --from <dir-or-file>`: copies a revision's files into
 * schemas/, writes their provenance records with each sha256 to schemas/pins.json, and for a new pin starts
 * its manifest from the nearest pin's; then runs the manifest cross-check, whose findings are what must be
 * filled in. `--check` compares instead and writes nothing. No sha256 is ever typed by hand.
 *
 * Everything is read and checked before anything is written: a bad id, commit or source, an existing id
 * without `--update`, or a package version that would go down, stops with one line and exit 2.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { EXIT_DIFFERENT, EXIT_OK, fail, formatDiagnostic } from '../errors.ts';
import { checkManifest } from '../check/manifest.ts';
import { A2A_LEX, loadPinInputs, type LoadedPin } from '../load/index.ts';
import { parseJson, readText } from '../load/json.ts';
import { manifestValidator } from '../load/manifest.ts';
import { display, loadPins, sha256, type Pin, type PinnedFile, type PinSource } from '../load/pins.ts';
import { parseProto } from '../load/proto.ts';
import { bundleA2a } from '../load/a2a.ts';
import { bundleFromDocument } from '../load/schema.ts';
import { compareSemver, packageVersion } from '../load/version.ts';
import { diffPins } from './diff.ts';
import { gitFacts, sourceFiles, type SourceFile } from './pin-source.ts';
import { countsLine } from './report.ts';
import { writePin, checkPin, type PinPlan } from './pin-write.ts';

/** What `wiregen pin` was asked. */
export interface PinRequest {
  readonly id: string;
  /** The source folder or file (absolute, or relative to the working directory). */
  readonly from: string;
  /** Source repository URL. Default: git's origin of `from`, else the pin's (or the nearest pin's). */
  readonly repo?: string;
  /** The source commit (40 hex digits). Default: the HEAD of `from`'s git checkout. */
  readonly commit?: string;
  /** A release tag at that commit. Default: git's exact tag of HEAD, if any. */
  readonly tag?: string;
  /** Where `from` lives in the repository. Default: from git, else from the pin's records. */
  readonly path?: string;
  /** The commit's date (ISO 8601). Default: git's commit date. */
  readonly date?: string;
  /** Re-pin an existing pin. Default: false (the id must be new). */
  readonly update?: boolean;
  /** Mark the pin a draft (not served). Default: false; a new pin of the revision `draft` is one. */
  readonly draft?: boolean;
  /** Compare, write nothing. Default: false. */
  readonly check?: boolean;
}

const ID = /^(mcp|a2a)-([0-9][0-9.-]*|[a-z][a-z0-9]*(?:-[a-z0-9]+)*)$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The pin `id` is started from: the same protocol's pin of the closest earlier revision (else the newest). */
export function nearestPin(pins: readonly Pin[], protocol: Pin['protocol'], revision: string, id: string): Pin | undefined {
  const same = pins.filter((p) => p.protocol === protocol && p.id !== id).sort((a, b) => (a.revision < b.revision ? -1 : 1));
  const dated = /^\d{4}-\d{2}-\d{2}$/.test(revision);
  const earlier = dated ? same.filter((p) => p.revision < revision) : [];
  return earlier.at(-1) ?? (dated ? same[0] : same.filter((p) => p.served !== false).at(-1)) ?? same.at(-1);
}

/** The folder of `pin` upstream, read off the `original` of a record the source replaces (or, from one file, that file's). */
function upstreamBase(pin: Pin | undefined, files: readonly SourceFile[]): string | undefined {
  if (!pin) return undefined;
  const dir = pin.schema.replace(/\/[^/]+$/, '');
  for (const f of files) {
    const original = pin.files.find((r) => r.path === `${dir}/${f.rel}`)?.original.split(' ')[0];
    if (original === undefined) continue;
    if (f.upstream === '') return original;
    if (original.endsWith(`/${f.upstream}`)) return original.slice(0, -f.upstream.length - 1);
  }
  return undefined;
}

/** Reads and checks the request against the project; returns what to write (nothing is written here). */
export function planPinning(ctx: Context, req: PinRequest): PinPlan {
  const m = ID.exec(req.id);
  if (!m) fail({ file: req.id, message: 'a pin id is <protocol>-<revision>: mcp-2026-07-28, a2a-1.0, mcp-draft' });
  const protocol = m[1] as Pin['protocol'];
  const revision = m[2]!;
  const commit = req.commit?.toLowerCase();
  if (commit !== undefined && !/^[0-9a-f]{40}$/.test(commit))
    fail({ file: '--commit', message: `${JSON.stringify(req.commit)} is not a commit: 40 hex digits expected` });
  if (req.date !== undefined && !DATE_TIME.test(req.date))
    fail({ file: '--date', message: `${JSON.stringify(req.date)} is not an ISO 8601 date-time` });
  const pinsName = display(ctx, ctx.options.pinsFile);
  const pins = loadPins(ctx);
  const index = pins.findIndex((p) => p.id === req.id);
  const existing = index >= 0 ? pins[index] : undefined;
  if (existing && !req.update && !req.check)
    fail({ file: pinsName, pointer: `/pins/${index}`, message: `pin ${req.id} exists; re-pin it with --update` });
  if (!existing && req.update) fail({ file: pinsName, message: `no pin ${req.id} to update (pins: ${pins.map((p) => p.id).join(', ')})` });
  const nearest = existing ?? nearestPin(pins, protocol, revision, req.id);

  const files = sourceFiles(req.from, protocol, existing);
  const facts = gitFacts(req.from, ctx.options.root);
  const fromFile = files.length === 1 && files[0]!.upstream === '';
  const base =
    req.path ??
    facts.path ??
    upstreamBase(existing, files) ??
    (fromFile ? undefined : upstreamBase(nearest, files)?.replace(nearest!.revision, revision));
  if (base === undefined) fail({ file: req.from, message: 'give --path: where these files live in the source repository' });
  const repository = req.repo ?? facts.repository ?? nearest?.source.repository;
  if (repository === undefined) fail({ file: req.from, message: 'give --repo: the source repository URL' });
  const at = commit ?? facts.commit;
  if (at === undefined) fail({ file: req.from, message: 'give --commit: the source commit (not a git checkout, so it cannot be read off)' });
  // Git's date and tag are of its HEAD: they hold only when that is the commit pinned. Re-pinning the pin's
  // own commit keeps what its record says of it.
  const fromGit = at === facts.commit;
  const sameCommit = at === existing?.source.commit;
  const tag = req.tag ?? (fromGit ? facts.tag : undefined) ?? (sameCommit ? existing?.source.tag : undefined);
  const since = tag === undefined ? (existing?.source.tag ?? existing?.source.since) : undefined;
  const date = req.date ?? (fromGit ? facts.date : undefined) ?? (sameCommit ? existing?.source.date : undefined);
  const source: PinSource = {
    repository,
    ...(tag !== undefined ? { tag } : {}),
    ...(since !== undefined ? { since } : {}),
    commit: at,
    ...(date !== undefined ? { date } : {}),
    license: nearest?.source.license ?? 'see the source repository',
  };

  const dir = existing ? existing.schema.replace(/\/[^/]+$/, '') : `${protocol}/${revision}`;
  const original = (f: SourceFile) => (f.upstream === '' ? base : `${base}/${f.upstream}`);
  // A record that spells out its own commit keeps saying so when it is re-pinned at that commit.
  const own = (path: string) => {
    const was = existing?.files.find((r) => r.path === path);
    if (was?.commit === undefined || was.commit !== at) return {};
    return {
      ...(was.tag !== undefined && was.tag === tag ? { tag: was.tag } : {}),
      commit: was.commit,
      ...(was.date !== undefined ? { date: was.date } : {}),
    };
  };
  const fresh = files.map((f): PinnedFile & { abs: string } => ({
    path: `${dir}/${f.rel}`,
    original: original(f),
    ...own(`${dir}/${f.rel}`),
    sha256: sha256(readFileSync(f.abs)),
    abs: f.abs,
  }));
  // A file the source does not replace (one file given; A2A's bundle absent) keeps its record, provenance spelled out.
  const replaced = new Set(fresh.map((f) => f.path));
  const keepRole = (p: string) => fromFile || (protocol === 'a2a' && p === existing?.schema);
  const kept = (existing?.files ?? [])
    .filter((f) => !replaced.has(f.path) && keepRole(f.path))
    .map((f): PinnedFile => ({
      ...f,
      ...(f.commit === undefined && f.tag === undefined
        ? {
            ...(existing!.source.tag !== undefined ? { tag: existing!.source.tag } : {}),
            ...(existing!.source.commit !== undefined ? { commit: existing!.source.commit } : {}),
            ...(existing!.source.date !== undefined ? { date: existing!.source.date } : {}),
          }
        : {}),
    }));
  const schemaRecord = files.find((f) => f.role === 'schema');
  const protoRecord = files.find((f) => f.role === 'proto');
  const examples = files.some((f) => f.role === 'example');
  const served = !req.draft && (existing ? existing.served !== false : revision !== 'draft');
  const records = [...fresh.map(({ abs: _abs, ...r }) => r), ...kept];
  const order = (p: PinnedFile) => (p.path.endsWith('.json') && !p.path.includes('/examples/') ? 0 : p.path.endsWith('.proto') ? 1 : 2);
  records.sort((a, b) => order(a) - order(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const pin: Pin = {
    id: req.id,
    protocol,
    revision: existing?.revision ?? revision,
    ...(served ? {} : { served: false }),
    schema: schemaRecord ? `${dir}/${schemaRecord.rel}` : existing!.schema,
    ...(protoRecord ? { proto: `${dir}/${protoRecord.rel}` } : existing?.proto ? { proto: existing.proto } : {}),
    manifest: existing?.manifest ?? `manifest/${req.id}.yaml`,
    ...(examples ? { examples: `${dir}/examples` } : existing?.examples && fromFile ? { examples: existing.examples } : {}),
    source,
    files: records,
  };
  if (existing) {
    const before = packageVersion(existing);
    const after = packageVersion(pin);
    if (compareSemver(after, before) < 0)
      fail({
        file: pinsName,
        pointer: `/pins/${index}`,
        message: `the package version would go down from ${before} to ${after}; a commit after ${before} needs no --tag, or the tag of a later release`,
      });
  }
  checkSources(ctx, files, protocol, existing);
  return { pin, index, existing, ...(nearest ? { nearest } : {}), sources: fresh.map((f) => ({ path: f.path, abs: f.abs })), pinsName };
}

/**
 * Parses what is about to be pinned, so nothing is written when it cannot be read: every JSON file, the
 * schema bundle, and (A2A) the proto, each from the source or, when the source does not replace it, the pin.
 */
function checkSources(ctx: Context, files: readonly SourceFile[], protocol: Pin['protocol'], existing: Pin | undefined): void {
  const pinned = (rel: string | undefined) => (rel === undefined ? undefined : join(ctx.options.schemasDir, rel));
  const protoPath = files.find((f) => f.role === 'proto')?.abs ?? pinned(existing?.proto);
  const schemaPath = files.find((f) => f.role === 'schema')?.abs ?? pinned(existing?.schema);
  for (const f of files) if (f.role === 'example') parseJson(readFileSync(f.abs, 'utf8'), f.abs);
  if (schemaPath === undefined) return;
  const doc = parseJson(readText(schemaPath, schemaPath), schemaPath);
  if (protocol === 'mcp') bundleFromDocument(doc, schemaPath);
  else if (protoPath !== undefined) bundleA2a(doc, schemaPath, parseProto(readText(protoPath, protoPath), protoPath, A2A_LEX));
}

/** Runs `wiregen pin`: returns the lines to print and the exit code. */
export function runPinning(ctx: Context, req: PinRequest): { lines: string[]; code: number } {
  const plan = planPinning(ctx, req);
  if (req.check) return checkPin(ctx, plan);
  const validator = manifestValidator(ctx);
  const before: LoadedPin | undefined = (plan.existing ?? plan.nearest) ? loadPinInputs(ctx, (plan.existing ?? plan.nearest)!, validator) : undefined;
  const lines = writePin(ctx, plan);
  const after = loadPinInputs(ctx, plan.pin, validator);
  const found = checkManifest(after);
  if (before) {
    const findings = diffPins(before, after);
    lines.push(`Against ${before.pin.id}${plan.existing ? ' as it was' : ''}: ${countsLine(findings)} ('wiregen diff' lists them).`);
  }
  lines.push(`Package version: ${packageVersion(plan.pin)}.`);
  if (found.length === 0) {
    lines.push(`The manifest ${display(ctx, join(ctx.options.schemasDir, plan.pin.manifest))} agrees with the schema: run 'npm run generate'.`);
    return { lines, code: EXIT_OK };
  }
  lines.push(`To fill in: the manifest cross-check has ${found.length} finding(s); fix them, then run 'npm run generate':`);
  for (const d of found) lines.push(`  ${formatDiagnostic(d)}`);
  return { lines, code: EXIT_DIFFERENT };
}
