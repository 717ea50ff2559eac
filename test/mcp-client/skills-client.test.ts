/**
 * The skills extension on the client (runtime/mcp/ext/skills/client.ts) against our own server
 * (runtime/mcp/ext/skills) and SEP-2640 (https://modelcontextprotocol.io/seps/2640-skills-extension): listing
 * and getting entries reads no file ("Hosts MUST NOT retrieve a skill's files ahead of need"); loading a skill
 * reads its SKILL.md and hands it over only when its size, sha256 digest and frontmatter match the entry
 * ("Integrity and Verification"); a channel in the middle tampers with what the server sent, as the runner's
 * sep-2640-client-verify-* scenarios do, and the client refuses each. Digests are computed here from the
 * sources, not taken from the server.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject, RequestId } from '../../runtime/jsonrpc/message.ts';
import { McpClient, type CallContext } from '../../runtime/mcp/client/client.ts';
import { PeerChannel } from '../../runtime/mcp/client/channels.ts';
import { McpSkills, McpSkillsClient, SkillVerificationError, type SkillSource } from '../../runtime/mcp/ext/skills/index.ts';
import { LATEST_STATELESS, requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { createLinkedPair } from '../../runtime/transports/transport.ts';

beforeAll(() => requireRevision(LATEST_STATELESS), 60_000);

const PDF_MD = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nlicense: MIT\n---\n\nSkill body.\n';
const FORMS = 'Supporting content.\n';
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
const SOURCES: SkillSource[] = [{ path: 'pdf-processing', files: { 'SKILL.md': PDF_MD, 'references/FORMS.md': FORMS, 'assets/logo.png': LOGO } }];
const MD_URI = 'skill://pdf-processing/SKILL.md';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';
const LOGO_URI = 'skill://pdf-processing/assets/logo.png';
const sha = (content: string | Uint8Array) => `sha256:${createHash('sha256').update(content).digest('hex')}`;

/** Rewrites a result on its way to the client: a man in the middle. */
type Tamper = (method: string, result: JsonObject) => JsonObject;

/** A channel that notes each method it sends and lets `tamper` rewrite what comes back. */
class MiddleChannel extends PeerChannel {
  readonly sent: string[] = [];
  tamper: Tamper = (_, result) => result;
  override async call(id: RequestId, method: string, params: JsonObject | undefined, context: CallContext): Promise<unknown> {
    this.sent.push(method);
    return this.tamper(method, (await super.call(id, method, params, context)) as JsonObject);
  }
}

const clients: McpClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function connect(tamper?: Tamper) {
  const server = new McpServer({
    log: () => {},
    serverInfo: { name: 'skills-server', version: '1.0.0' },
    capabilities: { handshake: {}, stateless: { resources: {} } },
    handlers: {},
    extensions: [new McpSkills({ skills: SOURCES })],
  });
  const [clientSide, serverSide] = createLinkedPair();
  server.connect(serverSide);
  const channel = new MiddleChannel(clientSide);
  if (tamper) channel.tamper = tamper;
  const skills = new McpSkillsClient();
  const client = new McpClient(channel, { clientInfo: { name: 'skills-client', version: '1.0.0' }, mode: 'auto', extensions: [skills] });
  clients.push(client);
  await client.connect();
  return { skills, channel, reads: () => channel.sent.filter((m) => m === 'resources/read').length };
}

/** A resources/read answer with `text` in place of what the server sent. */
const replaceText = (result: JsonObject, text: string): JsonObject => ({
  ...result,
  contents: (result['contents'] as JsonObject[]).map((c) => ({ ...c, text })),
});

describe('McpSkillsClient (SEP-2640)', () => {
  it('sees the extension the server declared; listing and getting read no skill file', async () => {
    const { skills, reads } = await connect();
    expect(skills.serverSupports).toBe(true);
    const [entry, ...rest] = await skills.listAll();
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      uri: MD_URI,
      frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'MIT' },
      resources: expect.arrayContaining([
        { uri: MD_URI, digest: sha(PDF_MD), size: Buffer.byteLength(PDF_MD) },
        { uri: FORMS_URI, digest: sha(FORMS), size: Buffer.byteLength(FORMS) },
        { uri: LOGO_URI, digest: sha(LOGO), size: LOGO.byteLength },
      ]),
    });
    expect(await skills.get(MD_URI)).toEqual(entry);
    expect(reads()).toBe(0);
  });

  it('loads a skill whose SKILL.md verifies, and reads its other files (text and bytes) verified', async () => {
    const { skills, reads } = await connect();
    const [entry] = await skills.listAll();
    const loaded = await skills.load(entry!);
    expect(loaded.text).toBe(PDF_MD);
    expect(loaded.frontmatter).toEqual(entry!.frontmatter);
    expect(await skills.read(entry!, FORMS_URI)).toMatchObject({ text: FORMS, verified: true });
    expect([...(await skills.read(entry!, LOGO_URI)).bytes]).toEqual([...LOGO]);
    expect(reads()).toBe(3);
  });

  it('refuses a SKILL.md whose bytes do not match the digest (same size)', async () => {
    const { skills } = await connect((method, result) =>
      method === 'resources/read' ? replaceText(result, PDF_MD.replace('Skill body.', 'Evil body!!')) : result,
    );
    const [entry] = await skills.listAll();
    await expect(skills.load(entry!)).rejects.toMatchObject({ name: 'SkillVerificationError', check: 'digest', uri: MD_URI });
  });

  it('refuses a SKILL.md longer than the size the entry gives', async () => {
    const { skills } = await connect((method, result) => (method === 'resources/read' ? replaceText(result, `${PDF_MD}extra bytes\n`) : result));
    const [entry] = await skills.listAll();
    await expect(skills.load(entry!)).rejects.toMatchObject({ check: 'size' });
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry, even when digest and size match it', async () => {
    const evil = PDF_MD.replace('description: Extract, fill, and assemble PDF documents', 'description: Exfiltrate credentials');
    const { skills } = await connect((method, result) => {
      if (method === 'resources/read') return replaceText(result, evil);
      if (method !== 'skills/list') return result;
      const [skill] = result['skills'] as JsonObject[];
      const resources = (skill!['resources'] as JsonObject[]).map((r) =>
        r['uri'] === MD_URI ? { ...r, digest: sha(evil), size: Buffer.byteLength(evil) } : r,
      );
      return { ...result, skills: [{ ...skill, resources }] };
    });
    const [entry] = await skills.listAll();
    const refused = await skills.load(entry!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SkillVerificationError);
    expect(refused).toMatchObject({ check: 'frontmatter', message: expect.stringContaining('"description"') });
  });

  it('refuses a field the entry has and the SKILL.md lacks (field by field, both ways)', async () => {
    const stripped = PDF_MD.replace('license: MIT\n', '');
    const { skills } = await connect((method, result) => {
      if (method === 'resources/read') return replaceText(result, stripped);
      if (method !== 'skills/list') return result;
      const [skill] = result['skills'] as JsonObject[];
      const resources = (skill!['resources'] as JsonObject[]).map((r) =>
        r['uri'] === MD_URI ? { ...r, digest: sha(stripped), size: Buffer.byteLength(stripped) } : r,
      );
      return { ...result, skills: [{ ...skill, resources }] };
    });
    const [entry] = await skills.listAll();
    await expect(skills.load(entry!)).rejects.toMatchObject({ check: 'frontmatter', message: expect.stringContaining('"license"') });
  });

  it('a file the entry does not list is refused without being read', async () => {
    const { skills, reads } = await connect();
    const [entry] = await skills.listAll();
    await expect(skills.read(entry!, 'skill://pdf-processing/secrets.txt')).rejects.toMatchObject({ check: 'unlisted' });
    expect(reads()).toBe(0);
  });

  it('an entry without the shape of "Skill Entries" is refused, naming the field', async () => {
    const { skills } = await connect((method, result) =>
      method === 'skills/list'
        ? {
            ...result,
            skills: [{ uri: MD_URI, frontmatter: { name: 'x', description: 'y' }, resources: [{ uri: MD_URI, digest: 'sha256:00', size: -1 }] }],
          }
        : result,
    );
    await expect(skills.listAll()).rejects.toThrow('skills/list: /skills/0/resources/0/size must be a non-negative integer');
  });
});
