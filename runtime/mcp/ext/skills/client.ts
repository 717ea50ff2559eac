/**
 * @module mcp/ext/skills/client — the skills extension on the client (io.modelcontextprotocol/skills, SEP-2640,
 * https://modelcontextprotocol.io/seps/2640-skills-extension): `list` and `get` give the skills' entries and read
 * nothing else ("Hosts MUST NOT retrieve a skill's files ahead of need, not on connection, not on listing, and
 * not at approval"); `load` retrieves a skill's SKILL.md when it is needed and `read` any other file of it, each
 * verified against its entry before it is handed over ("Integrity and Verification", #integrity-and-verification):
 * the byte length against `size` ("a verification failure equivalent to a digest mismatch"), the bytes against
 * the `sha256:` `digest` ("MUST verify … MUST NOT use unverified content"), and the SKILL.md's YAML frontmatter
 * against the entry's, field by field ("MUST NOT load the skill on any discrepancy"). A failed check throws
 * SkillVerificationError and hands nothing over.
 *
 * ```ts
 * const skills = new McpSkillsClient();
 * const client = new McpClient(channel, { clientInfo, extensions: [skills] });
 * await client.connect();
 * const [first] = await skills.listAll();     // entries only: no file is read
 * const loaded = await skills.load(first);    // SKILL.md, verified
 * const form = await skills.read(first, 'skill://pdf-processing/references/FORMS.md');
 * ```
 */
import { AttachedClientExtension } from '../../client/extension.ts';
import { createHash } from 'node:crypto';
import type { ReadResourceResult } from '@wiregen/mcp-2026-07-28';
import { canonicalJson } from '../../../jsonrpc/canonical.ts';
import { ErrorCode, isObject, type JsonObject } from '../../../jsonrpc/message.ts';
import { McpClientError } from '../../client/errors.ts';
import type { McpClientExtension } from '../../client/types.ts';
import { frontmatterOf } from './catalog.ts';
import { ENTRIES, SKILLS_EXTENSION, type Skill, type SkillResource } from './protocol.ts';

/** Which check a retrieved file failed. */
export type SkillCheck = 'size' | 'digest' | 'frontmatter' | 'unlisted';

/** A skill file that failed verification: its content was not handed over (SEP-2640 "Integrity and Verification"). */
export class SkillVerificationError extends McpClientError {
  readonly uri: string;
  readonly check: SkillCheck;
  constructor(uri: string, check: SkillCheck, why: string) {
    super(ErrorCode.InternalError, `${uri}: ${why} (SEP-2640 integrity and verification)`);
    this.name = 'SkillVerificationError';
    this.uri = uri;
    this.check = check;
  }
}

/** A file of a skill as retrieved: its bytes (and text, when the server sent text), verified against its entry. */
export interface SkillContent {
  readonly uri: string;
  readonly mimeType?: string;
  readonly bytes: Uint8Array;
  readonly text?: string;
  /** False only for a skill whose resources are "dynamic" (its entry lists no digest to verify against). */
  readonly verified: boolean;
}

/** A loaded skill: its entry, its SKILL.md verified, and the frontmatter that matched the entry's. */
export interface LoadedSkill {
  readonly skill: Skill;
  readonly text: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
}

/** Where a skills/list or skills/get result breaks the shape of "Skill Entries", as a JSON pointer and why; undefined when it holds. */
export function skillProblem(skill: unknown, at: string): string | undefined {
  if (!isObject(skill)) return `${at} must be an object`;
  if (typeof skill['uri'] !== 'string') return `${at}/uri must be a string`;
  const front = skill['frontmatter'];
  if (!isObject(front) || typeof front['name'] !== 'string' || typeof front['description'] !== 'string')
    return `${at}/frontmatter must be an object with name and description strings`;
  const resources = skill['resources'];
  if (resources === 'dynamic') return undefined;
  if (!Array.isArray(resources)) return `${at}/resources must be an array or "dynamic"`;
  for (const [i, r] of resources.entries()) {
    if (!isObject(r) || typeof r['uri'] !== 'string') return `${at}/resources/${i}/uri must be a string`;
    if (typeof r['digest'] !== 'string') return `${at}/resources/${i}/digest must be a string`;
    if (!Number.isInteger(r['size']) || (r['size'] as number) < 0) return `${at}/resources/${i}/size must be a non-negative integer`;
  }
  return undefined;
}

const invalid = (method: string, problem: string) => new McpClientError(ErrorCode.InternalError, `${method}: ${problem}`);

/** The first field where two frontmatters differ (every key of either, compared as JSON), or undefined. */
function differingField(served: Readonly<Record<string, unknown>>, entry: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of new Set([...Object.keys(entry), ...Object.keys(served)]))
    if (served[key] === undefined || entry[key] === undefined || canonicalJson(served[key]) !== canonicalJson(entry[key])) return key;
  return undefined;
}

export class McpSkillsClient extends AttachedClientExtension implements McpClientExtension {
  readonly id = SKILLS_EXTENSION;
  /** The extension's entries (skills/list and skills/get cacheable, resources/directory/read not). */
  readonly methods = ENTRIES;

  /** One page of skills/list: the entries, checked for their shape. */
  async list(cursor?: string): Promise<{ skills: Skill[]; nextCursor?: string }> {
    const result = (await this.connected.call('skills/list', cursor === undefined ? {} : { cursor })) as JsonObject;
    if (!Array.isArray(result['skills'])) throw invalid('skills/list', '/skills must be an array');
    for (const [i, skill] of result['skills'].entries()) {
      const problem = skillProblem(skill, `/skills/${i}`);
      if (problem) throw invalid('skills/list', problem);
    }
    const next = result['nextCursor'];
    // Each entry was checked by skillProblem just above.
    return { skills: result['skills'] as unknown as Skill[], ...(typeof next === 'string' ? { nextCursor: next } : {}) };
  }

  /** Every page of skills/list (at most `maxPages`, default 100). */
  async listAll(maxPages = 100): Promise<Skill[]> {
    const skills: Skill[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const { skills: some, nextCursor } = await this.list(cursor);
      skills.push(...some);
      if ((cursor = nextCursor) === undefined) break;
    }
    return skills;
  }

  /** skills/get: one skill's entry by its SKILL.md URI. */
  async get(uri: string): Promise<Skill> {
    const result = (await this.connected.call('skills/get', { uri })) as JsonObject;
    const problem = skillProblem(result['skill'], '/skill');
    if (problem) throw invalid('skills/get', problem);
    return result['skill'] as unknown as Skill;
  }

  /**
   * Retrieves a file of `skill` (resources/read) and verifies it against the skill's entry for it: size, then
   * digest. A file the entry does not list is refused (unless the skill's resources are "dynamic").
   */
  async read(skill: Skill, uri: string): Promise<SkillContent> {
    const listed: SkillResource | undefined = skill.resources === 'dynamic' ? undefined : skill.resources.find((r) => r.uri === uri);
    if (skill.resources !== 'dynamic' && !listed) throw new SkillVerificationError(uri, 'unlisted', `not a file of skill ${skill.uri}`);
    const result = (await this.connected.call('resources/read', { uri })) as ReadResourceResult;
    const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
    if (!content) throw invalid('resources/read', `${uri}: no contents`);
    const text = 'text' in content && typeof content.text === 'string' ? content.text : undefined;
    const bytes = text !== undefined ? new TextEncoder().encode(text) : Buffer.from(String((content as { blob?: unknown }).blob ?? ''), 'base64');
    if (listed) {
      if (bytes.byteLength !== listed.size)
        throw new SkillVerificationError(uri, 'size', `${bytes.byteLength} bytes where the entry says ${listed.size}`);
      const [algorithm, expected] = listed.digest.split(':', 2);
      if (algorithm !== 'sha256' || !expected) throw new SkillVerificationError(uri, 'digest', `cannot verify the digest ${listed.digest}`);
      const actual = createHash('sha256').update(bytes).digest('hex');
      if (actual !== expected.toLowerCase())
        throw new SkillVerificationError(uri, 'digest', `sha256:${actual} where the entry says ${listed.digest}`);
    }
    return { uri, ...(content.mimeType ? { mimeType: content.mimeType } : {}), bytes, ...(text !== undefined ? { text } : {}), verified: !!listed };
  }

  /**
   * Loads a skill: retrieves its SKILL.md (`skill.uri`), verified as `read` does, then parses its YAML
   * frontmatter and compares it with the entry's field by field; any difference refuses the skill.
   */
  async load(skill: Skill): Promise<LoadedSkill> {
    const md = await this.read(skill, skill.uri);
    let text: string;
    let frontmatter: Record<string, unknown> | undefined;
    try {
      text = md.text ?? new TextDecoder('utf-8', { fatal: true }).decode(md.bytes);
      frontmatter = frontmatterOf(text);
    } catch (err) {
      throw new SkillVerificationError(skill.uri, 'frontmatter', `its frontmatter cannot be read: ${(err as Error).message}`);
    }
    if (!frontmatter) throw new SkillVerificationError(skill.uri, 'frontmatter', 'it does not begin with YAML frontmatter');
    const field = differingField(frontmatter, skill.frontmatter);
    if (field !== undefined)
      throw new SkillVerificationError(skill.uri, 'frontmatter', `frontmatter field ${JSON.stringify(field)} differs from the entry's`);
    return { skill, text, frontmatter };
  }
}
