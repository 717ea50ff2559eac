// bench/workloads/github — what every server of the workloads part serves, written once (plain JavaScript, so the
// peers' servers import it as their users' code would): the 100 GitHub MCP server tool definitions
// (bench/data/github-tools, see its PROVENANCE.md), `create_pull_request`'s published input schema, an output
// schema written for this benchmark (a subset of GitHub's REST pull request object), the arguments of a call, its
// structured answer, rejected arguments, and a 64 KB binary resource. Zod schemas for the peers that take Zod are
// built from the same JSON Schemas with `z.fromJSONSchema`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/v4';

/** The 100 tool definitions, as the GitHub MCP server lists them. */
export const TOOLS = JSON.parse(readFileSync(toolsFile(), 'utf8'));

/** bench/data/github-tools/tools.json, found up the tree (ours runs this module compiled into node_modules/.cache). */
function toolsFile() {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'bench', 'data', 'github-tools', 'tools.json');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) throw new Error('bench/data/github-tools/tools.json not found above this module');
  }
}
export const TOOL = TOOLS.find((t) => t.name === 'create_pull_request');
export const INPUT_SCHEMA = TOOL.inputSchema;

const str = { type: 'string' };
const user = {
  type: 'object',
  properties: {
    login: str,
    id: { type: 'integer', minimum: 1 },
    html_url: { type: 'string', format: 'uri' },
    type: { enum: ['User', 'Organization', 'Bot'] },
  },
  required: ['login', 'id', 'html_url', 'type'],
};
const ref = {
  type: 'object',
  properties: {
    label: str,
    ref: str,
    sha: { type: 'string', pattern: '^[0-9a-f]{40}$' },
    repo: { type: 'object', properties: { full_name: str, private: { type: 'boolean' } }, required: ['full_name'] },
  },
  required: ['label', 'ref', 'sha'],
};
/** Written for this benchmark: the pull request the call opened (a subset of GitHub's REST object). */
export const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    number: { type: 'integer', minimum: 1 },
    html_url: { type: 'string', format: 'uri' },
    state: { enum: ['open', 'closed'] },
    draft: { type: 'boolean' },
    title: { type: 'string', minLength: 1, maxLength: 256 },
    body: str,
    user,
    head: ref,
    base: ref,
    requested_reviewers: { type: 'array', items: user, maxItems: 15 },
    labels: {
      type: 'array',
      items: { type: 'object', properties: { name: str, color: { type: 'string', pattern: '^[0-9a-f]{6}$' } }, required: ['name'] },
    },
    mergeable_state: { enum: ['clean', 'dirty', 'blocked', 'unknown', 'unstable'] },
    commits: { type: 'integer', minimum: 0 },
    additions: { type: 'integer', minimum: 0 },
    deletions: { type: 'integer', minimum: 0 },
    changed_files: { type: 'integer', minimum: 0 },
    created_at: { type: 'string', format: 'date-time' },
  },
  required: ['number', 'html_url', 'state', 'draft', 'title', 'user', 'head', 'base', 'created_at'],
};

/** About 600 bytes of arguments. */
export const ARGS = {
  owner: 'octo-org',
  repo: 'octo-service',
  title: 'Retry idempotent requests on connection reset',
  head: 'feature/retry-on-reset',
  base: 'main',
  body:
    'Connection resets from the upstream load balancer surface as failed requests. This retries GET, HEAD and PUT ' +
    'up to three times with jittered backoff, records each retry in the request log, and leaves POST alone. ' +
    'Adds tests for the retry budget and for the backoff bounds.',
  draft: false,
  maintainer_can_modify: true,
  reviewers: ['monalisa', 'hubot', 'octo-org/platform'],
};
/** Rejected by the input schema: `title` missing, `draft` not a boolean. */
export const INVALID_ARGS = { owner: 'octo-org', repo: 'octo-service', head: 'feature/retry-on-reset', base: 'main', draft: 'yes' };

const who = (login, id, type = 'User') => ({ login, id, html_url: `https://github.com/${login}`, type });
const sha = (seed) => Array.from({ length: 40 }, (_, i) => '0123456789abcdef'[(seed * 7 + i * 13) % 16]).join('');
/** The structured answer to a call with `args` (about 2 KB as JSON). */
export function pullRequest(args) {
  const full = `${args.owner}/${args.repo}`;
  return {
    number: 4242,
    html_url: `https://github.com/${full}/pull/4242`,
    state: 'open',
    draft: args.draft ?? false,
    title: args.title,
    body: args.body ?? '',
    user: who('monalisa', 583231),
    head: { label: `${args.owner}:${args.head}`, ref: args.head, sha: sha(1), repo: { full_name: full, private: false } },
    base: { label: `${args.owner}:${args.base}`, ref: args.base, sha: sha(2), repo: { full_name: full, private: false } },
    requested_reviewers: (args.reviewers ?? []).filter((r) => !r.includes('/')).map((r, i) => who(r, 1000 + i)),
    labels: [
      { name: 'reliability', color: 'd73a4a' },
      { name: 'needs-review', color: 'fbca04' },
    ],
    mergeable_state: 'clean',
    commits: 3,
    additions: 184,
    deletions: 27,
    changed_files: 6,
    created_at: '2026-08-20T16:19:32Z',
  };
}

/** The 64 KB binary resource (`resources/read` answers it base64 in `blob`, $def BlobResourceContents). */
export const BLOB = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 2654435761) >>> 24);
export const BLOB_URI = 'file:///fixtures/blob.bin';
export const BLOB_MIME = 'application/octet-stream';

/** Zod from the same JSON Schemas, for the peers whose users write Zod. */
export const zodInput = () => z.fromJSONSchema(INPUT_SCHEMA);
export const zodOutput = () => z.fromJSONSchema(OUTPUT_SCHEMA);
