/**
 * @module golden/init — `wiregen golden init [dir]`: a starter corpus (a tools/list case per era, requests
 * only: the first `golden check --accept` records the responses from the server) and a vitest file playing it
 * with `wiregen/golden/vitest`. Nothing that exists is overwritten.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXIT_BAD_INPUT, InputError } from '../errors.ts';

/** The 2026-07-28 envelope a stateless request carries in `_meta` (basic/index: the per-request metadata). */
const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'golden-client', version: '1.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The starter cases: a tools/list per era. */
const CASES: readonly { name: string; request: object }[] = [
  { name: 'legacy/tools-list', request: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  { name: 'modern/tools-list', request: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: STATELESS_META } } },
];

/** The files written, relative to `cwd`. */
export interface InitResult {
  readonly files: readonly string[];
}

/** Writes the starter corpus at `<cwd>/<dir>` and `<cwd>/golden.test.ts` (the server run as `command`). */
export function initCorpus(cwd: string, dir: string, command: readonly string[]): InitResult {
  const corpus = join(cwd, dir);
  const test = join(cwd, 'golden.test.ts');
  const planned = [join(corpus, 'manifest.json'), ...CASES.map((c) => join(corpus, `${c.name}.request.json`)), test];
  const taken = planned.filter((p) => existsSync(p));
  if (taken.length)
    throw new InputError(
      taken.map((p) => ({ file: relative(cwd, p), message: 'exists already: golden init writes new files only' })),
      EXIT_BAD_INPUT,
    );
  const manifest = {
    description: 'Golden tests of this server (wiregen golden, docs/golden-tests.md).',
    cases: CASES.map((c) => ({ name: c.name, handlers: 'base', notifications: false, provenance: 'project' })),
  };
  mkdirSync(corpus, { recursive: true });
  writeFileSync(planned[0]!, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  for (const c of CASES) {
    mkdirSync(join(corpus, c.name, '..'), { recursive: true });
    writeFileSync(join(corpus, `${c.name}.request.json`), `${JSON.stringify(c.request)}\n`, { flag: 'wx' });
  }
  const shown = relative(cwd, corpus) || '.';
  const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  writeFileSync(
    test,
    [
      "import { goldenSuite } from 'wiregen/golden/vitest';",
      '',
      '// A server of its own per case; { url, command } for Streamable HTTP, or () => server in process.',
      `goldenSuite(${quote(shown)}, { command: [${command.map(quote).join(', ')}] });`,
      '',
    ].join('\n'),
    { flag: 'wx' },
  );
  return { files: planned.map((p) => relative(cwd, p)) };
}
