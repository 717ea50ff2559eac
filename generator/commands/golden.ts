/**
 * @module commands/golden — `wiregen golden check|record <corpus-dir> … -- <server command…>`: golden-file
 * tests of any MCP server, ours or not, over stdio or Streamable HTTP (the logic is in golden/).
 */
import { resolve } from 'node:path';
import { EXIT_DIFFERENT, EXIT_OK } from '../errors.ts';
import { parseCommand } from './args.ts';
import { type Command, usageError } from './command.ts';

const HELP = `Usage: wiregen golden check <corpus-dir> [options] -- <server command...>
       wiregen golden check <corpus-dir> --url <url> [options] [-- <server command...>]
       wiregen golden record <corpus-dir> <case> [--request <json>] [options] -- <server command...>
       wiregen golden init [corpus-dir] [-- <server command...>]

Plays a wire corpus against an MCP server and compares every response with the expected one: parsed JSON
(object key order never matters), strings byte for byte, JSON held inside a string canonical (compact, keys
sorted) and equal. The corpus is a directory with manifest.json ({"cases": [{"name", "handlers",
"notifications"}]}, as the reference Golden corpus; optional "preamble", "handshake", and per case "era"
("handshake" or "stateless"; the reference corpus's "legacy" and "modern" mean the same, as do its case
folders legacy/ and modern/ when "era" is absent), "handshake", "provenance") and per case <name>.request.json (one line, sent exactly) and <name>.response.json.

Each case gets a server of its own: a fresh process over stdio, and over HTTP with a command a fresh
process per case (write $PORT in --url and in the command, or read the PORT environment variable, for a
free loopback port each; else they run one at a time on the URL's port). --shared plays every case on one
server, one at a time, its state carrying over. A handshake-era case first sends the
preamble's initialize, which must be answered with the revision asked for, and notifications/initialized;
a handshake-era initialize case and every stateless (2026-07-28) case are sent alone. Messages the server sends before
the response (notifications, requests) are not compared.

check options:
  --url <url>                  Streamable HTTP endpoint (else stdio). With a server command, the command is
                               started per case ($PORT: a free port each) and the case runs once <url>
                               accepts connections; without one, the cases go to a server you run
  --shared                     one server for every case (per distinct argument set), one case at a time
  --handlers <set>=<args>      the server arguments of a handler set named by the cases (repeatable);
                               base adds none unless given. Quote <args> as one shell word
  --notifications <args>       the server arguments for cases with "notifications": true
  --handshake <revision>       the revision a handshake preamble negotiates when the case and the manifest name
                               none (default 2025-06-18, the reference corpus's)
  --accept                     write the response files that are missing from the server's answers; never
                               overwrites one (delete a file to record it again); check each by hand
  --exact                      (stdio) the server may write nothing but the answers and must exit 0 when
                               stdin closes
  --embedded-json <mode>       exact (default) or parsed: compare strings that hold JSON by that JSON
  --only <name>                only this case (repeatable)
  --parallel <n>               cases at once (default 2)
  --timeout <ms>               per line or request, and for start-up (default 30000)
  --verbose                    also list the cases that pass

record: plays one new request (--request, or stdin) and writes <case>.request.json, its response and the
manifest entry (provenance "project"); refuses a case that exists. Takes --url, --handlers, --notifications,
--handshake, --timeout, and --set <handler set>, --notifying, --era handshake|stateless for the new case.

init: writes a starter corpus (default dir golden: manifest.json and a tools/list request per era) and
golden.test.ts, a vitest file playing it with wiregen/golden/vitest (the server command after --, default
node dist/main.js); refuses to overwrite a file. Then record the responses with check --accept.

Exit: 0 every case matches, 1 some case differs, fails or has no response, 2 bad input.

Examples:
  wiregen golden check test/golden/reference --handlers extended='--handlers extended' -- wiregen serve golden --stdio
  wiregen golden check corpus --url 'http://127.0.0.1:$PORT/mcp' -- node server.js --port '$PORT'
  wiregen golden record corpus legacy/echo --request '{"jsonrpc":"2.0","id":5,"method":"tools/call",…}' -- node server.js`;

/** A positive integer, or undefined. */
function positive(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw usageError('golden', `${flag} ${JSON.stringify(text)} is not a positive integer`);
  return Number(text);
}

const OPTIONS = {
  url: { type: 'string' },
  handlers: { type: 'string', multiple: true },
  notifications: { type: 'string' },
  handshake: { type: 'string' },
  accept: { type: 'boolean' },
  shared: { type: 'boolean' },
  exact: { type: 'boolean' },
  'embedded-json': { type: 'string' },
  only: { type: 'string', multiple: true },
  parallel: { type: 'string' },
  timeout: { type: 'string' },
  verbose: { type: 'boolean' },
  request: { type: 'string' },
  set: { type: 'string' },
  notifying: { type: 'boolean' },
  era: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function init(dir: string | undefined, extra: readonly string[], command: readonly string[], cwd: string, out: (line: string) => void) {
  if (extra.length) throw usageError('golden', `unexpected ${extra.join(' ')}`);
  const { initCorpus } = await import('../golden/init.ts');
  const server = command.length ? command : ['node', 'dist/main.js'];
  const corpus = dir ?? 'golden';
  const { files } = initCorpus(cwd, corpus, server);
  for (const f of files) out(`wrote ${f}`);
  const steps = [
    [`npx wiregen golden check ${corpus} --accept -- ${server.join(' ')}`, 'record the responses; read each before committing'],
    ['npx vitest run golden.test.ts', 'needs vitest (npm install -D vitest)'],
    [`git add ${corpus} golden.test.ts`, 'and run golden.test.ts in CI (docs/golden-tests.md)'],
  ];
  const width = Math.max(...steps.map(([s]) => s!.length));
  out('next:');
  for (const [step, why] of steps) out(`  ${step!.padEnd(width)}  # ${why}`);
  return EXIT_OK;
}

export const golden: Command = {
  summary: [
    ['golden check <dir> -- <cmd>', 'replay a wire corpus against any MCP server (stdio, or --url for HTTP)'],
    ['golden record <dir> <case>', 'capture a new case of a corpus from a server'],
    ['golden init [dir]', 'write a starter corpus and a vitest file that plays it'],
  ],
  help: HELP,
  async run(args, { out, base }) {
    const split = args.indexOf('--');
    const own = split === -1 ? args : args.slice(0, split);
    const command = split === -1 ? [] : args.slice(split + 1);
    const { values, positionals } = parseCommand('golden', own, OPTIONS);
    if (values.help) return (out(HELP), EXIT_OK);
    const [action, dir, name, ...extra] = positionals;
    if (action === 'init') return init(dir, name === undefined ? extra : [name, ...extra], command, base.root ?? process.cwd(), out);
    if (action !== 'check' && action !== 'record') throw usageError('golden', 'say check, record or init (wiregen golden --help)');
    if (dir === undefined) throw usageError('golden', `${action}: name the corpus directory`);
    const wantsName = action === 'record';
    if (wantsName && name === undefined) throw usageError('golden', 'record: name the new case (<era>/<case>)');
    if ((!wantsName && name !== undefined) || extra.length)
      throw usageError('golden', `unexpected ${[...(wantsName ? [] : [name]), ...extra].join(' ')}`);
    if (values.url === undefined && command.length === 0) throw usageError('golden', `${action}: give the server command after --, or --url <url>`);
    if (values.url !== undefined && !/^https?:\/\//.test(values.url))
      throw usageError('golden', `--url ${JSON.stringify(values.url)} is not an http(s) URL`);
    const embedded = values['embedded-json'] ?? 'exact';
    if (embedded !== 'exact' && embedded !== 'parsed')
      throw usageError('golden', `--embedded-json is exact or parsed, not ${JSON.stringify(embedded)}`);
    if (values.exact && values.url !== undefined) throw usageError('golden', '--exact is for stdio');
    const { splitArguments } = await import('../golden/server.ts');
    const handlers: Record<string, string[]> = {};
    for (const pair of values.handlers ?? []) {
      const at = pair.indexOf('=');
      if (at < 1) throw usageError('golden', `--handlers ${JSON.stringify(pair)}: write <set>=<server arguments>`);
      handlers[pair.slice(0, at)] = splitArguments(pair.slice(at + 1));
    }
    const cwd = base.root ?? process.cwd();
    const options = {
      command,
      ...(values.url !== undefined ? { url: values.url } : {}),
      mapping: { handlers, ...(values.notifications !== undefined ? { notifications: splitArguments(values.notifications) } : {}) },
      accept: values.accept ?? false,
      share: values.shared ?? false,
      exact: values.exact ?? false,
      embedded,
      ...(positive(values.timeout, '--timeout') !== undefined ? { timeoutMs: positive(values.timeout, '--timeout')! } : {}),
      ...(positive(values.parallel, '--parallel') !== undefined ? { parallel: positive(values.parallel, '--parallel')! } : {}),
      cwd,
    } as const;
    const { report } = await import('../golden/check.ts');
    const corpusDir = resolve(cwd, dir);
    if (action === 'record') {
      const { eraNamed } = await import('../golden/corpus.ts');
      if (values.era !== undefined && eraNamed(values.era) === undefined)
        throw usageError('golden', `--era is handshake or stateless, not ${JSON.stringify(values.era)}`);
      const { recordCase } = await import('../golden/record.ts');
      const outcome = await recordCase(
        corpusDir,
        {
          name: name!,
          request: values.request ?? (await readStdin()),
          ...(values.set !== undefined ? { handlers: values.set } : {}),
          notifications: values.notifying ?? false,
          ...(values.era !== undefined ? { era: eraNamed(values.era)! } : {}),
        },
        { ...options, ...(values.handshake !== undefined ? { handshake: values.handshake } : {}) },
      );
      report([outcome], true)
        .slice(0, -1)
        .forEach((l) => out(l));
      return outcome.status === 'accepted' ? EXIT_OK : EXIT_DIFFERENT;
    }
    const { loadCorpus } = await import('../golden/corpus.ts');
    const corpus = loadCorpus(corpusDir, { ...(values.handshake !== undefined ? { handshake: values.handshake } : {}), cwd });
    const only = values.only;
    const unknown = (only ?? []).filter((n) => !corpus.cases.some((c) => c.name === n));
    if (unknown.length) throw usageError('golden', `--only: no case ${unknown.join(', ')} in ${corpus.shown}`);
    const { checkCorpus } = await import('../golden/check.ts');
    const outcomes = await checkCorpus(corpus, options, only ? corpus.cases.filter((c) => only.includes(c.name)) : corpus.cases);
    report(outcomes, values.verbose ?? false).forEach((l) => out(l));
    return outcomes.every((o) => o.status !== 'fail') ? EXIT_OK : EXIT_DIFFERENT;
  },
};
