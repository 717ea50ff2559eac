/**
 * The skills extension on the server (runtime/mcp/ext/skills) against SEP-2640
 * (https://modelcontextprotocol.io/seps/2640-skills-extension): declared with directoryRead in server/discover;
 * skills/list (paginated, cacheable) and skills/get give each entry with its frontmatter verbatim and every
 * file with the SHA-256 digest and size of its bytes (computed here from the source, not taken from the
 * server); unknown skills and non-directories are -32602; skill files are resources (read, and each SKILL.md
 * listed); a skill that breaks the specification is refused when built.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpSkills, type SkillSource } from '../../runtime/mcp/ext/skills/index.ts';
import { LATEST_STATELESS, requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { mcpPair, SERVER_INFO, withMeta, type McpPair } from '../helpers/mcp-pair.ts';

beforeAll(() => requireRevision(LATEST_STATELESS), 60_000);

const REVIEW_MD =
  '---\nname: code-review\ndescription: Review a change the way this team does\nlicense: Apache-2.0\nmetadata:\n  version: "1.2"\n---\n\n# Code review\n\nUse `templates/comment.md`.\n';
const NOTES_MD = '---\nname: release-notes\ndescription: Write release notes\n---\nBody\n';
const SOURCES: SkillSource[] = [
  {
    path: 'code-review',
    files: { 'SKILL.md': REVIEW_MD, 'templates/comment.md': 'Looks good: …\n', 'scripts/lint.sh': new Uint8Array([35, 33, 10]) },
  },
  { path: 'acme/docs/release-notes', files: { 'SKILL.md': NOTES_MD } },
];
const sha = (content: string | Uint8Array) => `sha256:${createHash('sha256').update(content).digest('hex')}`;
const size = (content: string | Uint8Array) => (typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength);

function server(options: Partial<ConstructorParameters<typeof McpSkills>[0]> = {}): McpServer {
  return new McpServer({
    log: () => {},
    serverInfo: SERVER_INFO,
    capabilities: { handshake: {}, stateless: { resources: {} } },
    handlers: {
      'resources/list': () => ({ resources: [{ uri: 'file:///other.txt', name: 'other' }] }),
      'resources/read': () => ({ contents: [{ uri: 'file:///other.txt', text: 'other' }] }),
    },
    extensions: [new McpSkills({ skills: SOURCES, ...options })],
  });
}
const ask = async (pair: McpPair, method: string, params: JsonObject = {}) => (await pair.request(method, withMeta(params))).response;

describe('McpSkills (SEP-2640) on the server', () => {
  it('is declared with directoryRead under capabilities.extensions', async () => {
    const pair = mcpPair(server());
    const caps = ((await ask(pair, 'server/discover'))['result'] as JsonObject)['capabilities'] as JsonObject;
    expect(caps['extensions']).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    await pair.close();
  });

  it('skills/list: every entry, frontmatter verbatim, each file with its digest and size, cacheable', async () => {
    const pair = mcpPair(server());
    const result = (await ask(pair, 'skills/list'))['result'] as JsonObject;
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: expect.any(String) });
    expect(result['nextCursor']).toBeUndefined();
    expect(result['skills']).toEqual([
      {
        uri: 'skill://code-review/SKILL.md',
        frontmatter: {
          name: 'code-review',
          description: 'Review a change the way this team does',
          license: 'Apache-2.0',
          metadata: { version: '1.2' },
        },
        resources: [
          { uri: 'skill://code-review/SKILL.md', digest: sha(REVIEW_MD), size: size(REVIEW_MD) },
          { uri: 'skill://code-review/scripts/lint.sh', digest: sha(new Uint8Array([35, 33, 10])), size: 3 },
          { uri: 'skill://code-review/templates/comment.md', digest: sha('Looks good: …\n'), size: size('Looks good: …\n') },
        ],
      },
      {
        uri: 'skill://acme/docs/release-notes/SKILL.md',
        frontmatter: { name: 'release-notes', description: 'Write release notes' },
        resources: [{ uri: 'skill://acme/docs/release-notes/SKILL.md', digest: sha(NOTES_MD), size: size(NOTES_MD) }],
      },
    ]);
    await pair.close();
  });

  it('skills/list pages: nextCursor passed back gives the next entry; a made-up cursor is -32602', async () => {
    const pair = mcpPair(server({ pageSize: 1 }));
    const first = (await ask(pair, 'skills/list'))['result'] as JsonObject;
    expect((first['skills'] as JsonObject[]).map((s) => s['uri'])).toEqual(['skill://code-review/SKILL.md']);
    const second = (await ask(pair, 'skills/list', { cursor: first['nextCursor'] as string }))['result'] as JsonObject;
    expect((second['skills'] as JsonObject[]).map((s) => s['uri'])).toEqual(['skill://acme/docs/release-notes/SKILL.md']);
    expect(second['nextCursor']).toBeUndefined();
    expect(((await ask(pair, 'skills/list', { cursor: 'nonsense' }))['error'] as JsonObject)['code']).toBe(-32602);
    await pair.close();
  });

  it('skills/get: the entry, no cursor; an unserved URI and a missing uri are -32602', async () => {
    const pair = mcpPair(server());
    const got = (await ask(pair, 'skills/get', { uri: 'skill://acme/docs/release-notes/SKILL.md' }))['result'] as JsonObject;
    expect((got['skill'] as JsonObject)['frontmatter']).toEqual({ name: 'release-notes', description: 'Write release notes' });
    expect(got).toMatchObject({ ttlMs: expect.any(Number), cacheScope: expect.any(String) });
    expect(got['nextCursor']).toBeUndefined();
    expect(((await ask(pair, 'skills/get', { uri: 'skill://nope/SKILL.md' }))['error'] as JsonObject)['code']).toBe(-32602);
    expect(((await ask(pair, 'skills/get'))['error'] as JsonObject)['code']).toBe(-32602);
    await pair.close();
  });

  it('skill files are resources: read as text or base64, each SKILL.md listed after the server’s own', async () => {
    const pair = mcpPair(server());
    const md = (await ask(pair, 'resources/read', { uri: 'skill://code-review/SKILL.md' }))['result'] as JsonObject;
    expect(md['contents']).toEqual([{ uri: 'skill://code-review/SKILL.md', mimeType: 'text/markdown', text: REVIEW_MD }]);
    const script = (await ask(pair, 'resources/read', { uri: 'skill://code-review/scripts/lint.sh' }))['result'] as JsonObject;
    expect(Buffer.from(((script['contents'] as JsonObject[])[0]!['blob'] as string) ?? '', 'base64')).toEqual(Buffer.from([35, 33, 10]));
    const other = (await ask(pair, 'resources/read', { uri: 'file:///other.txt' }))['result'] as JsonObject;
    expect(other['contents']).toEqual([{ uri: 'file:///other.txt', text: 'other' }]);
    const listed = (await ask(pair, 'resources/list'))['result'] as JsonObject;
    expect(listed['resources']).toEqual([
      { uri: 'file:///other.txt', name: 'other' },
      { uri: 'skill://code-review/SKILL.md', name: 'code-review', description: 'Review a change the way this team does', mimeType: 'text/markdown' },
      { uri: 'skill://acme/docs/release-notes/SKILL.md', name: 'release-notes', description: 'Write release notes', mimeType: 'text/markdown' },
    ]);
    await pair.close();
  });

  it('resources/directory/read: direct children, subdirectories as inode/directory; a file or unknown URI is -32602', async () => {
    const pair = mcpPair(server());
    const root = (await ask(pair, 'resources/directory/read', { uri: 'skill://code-review' }))['result'] as JsonObject;
    expect(root['resources']).toEqual([
      { uri: 'skill://code-review/SKILL.md', name: 'code-review', mimeType: 'text/markdown' },
      { uri: 'skill://code-review/scripts', name: 'scripts', mimeType: 'inode/directory' },
      { uri: 'skill://code-review/templates', name: 'templates', mimeType: 'inode/directory' },
    ]);
    const sub = (await ask(pair, 'resources/directory/read', { uri: 'skill://code-review/templates' }))['result'] as JsonObject;
    expect(sub['resources']).toEqual([{ uri: 'skill://code-review/templates/comment.md', name: 'comment.md', mimeType: 'text/markdown' }]);
    const prefix = (await ask(pair, 'resources/directory/read', { uri: 'skill://acme' }))['result'] as JsonObject;
    expect(prefix['resources']).toEqual([{ uri: 'skill://acme/docs', name: 'docs', mimeType: 'inode/directory' }]);
    for (const uri of ['skill://code-review/SKILL.md', 'skill://nowhere'])
      expect(((await ask(pair, 'resources/directory/read', { uri }))['error'] as JsonObject)['code']).toBe(-32602);
    await pair.close();
  });

  it('without directoryRead: not declared, and resources/directory/read is not a method', async () => {
    const pair = mcpPair(server({ directoryRead: false }));
    const caps = ((await ask(pair, 'server/discover'))['result'] as JsonObject)['capabilities'] as JsonObject;
    expect(caps['extensions']).toEqual({ 'io.modelcontextprotocol/skills': {} });
    expect(((await ask(pair, 'resources/directory/read', { uri: 'skill://code-review' }))['error'] as JsonObject)['code']).toBe(-32601);
    await pair.close();
  });

  it.each([
    ['no SKILL.md', { path: 'x', files: { 'README.md': 'hi' } }, /skill "x": it has no SKILL.md at its root/],
    ['a name that is not the last segment', { path: 'a/b', files: { 'SKILL.md': '---\nname: c\ndescription: d\n---\n' } }, /last path segment/],
    ['no description', { path: 'b', files: { 'SKILL.md': '---\nname: b\n---\n' } }, /frontmatter holding name and description/],
    ['a name against the naming rules', { path: 'Bad--Name', files: { 'SKILL.md': '---\nname: Bad--Name\ndescription: d\n---\n' } }, /naming rules/],
  ])('refuses a skill with %s, in one line', (_name, source, message) => {
    expect(() => new McpSkills({ skills: [source as SkillSource] })).toThrow(message);
  });
});
