/**
 * @module mcp/ext/skills/catalog — the skills a server serves, built once from their files (SEP-2640,
 * https://modelcontextprotocol.io/seps/2640-skills-extension): each file a resource at
 * `skill://<skill-path>/<file-path>` ("Resource Mapping"), each skill's entry (its SKILL.md frontmatter
 * verbatim, every file with its `sha256:` digest and size: "Skill Entries"), and every directory level a
 * directory resource ("Directory Resources"). A skill that breaks a MUST of the specification is refused
 * when the catalog is built, with one line naming the skill and the rule.
 */
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { DIRECTORY_MIME, LIMITS, SKILL_MD, SKILL_NAME, type Skill, type SkillResource } from './protocol.ts';

/** One skill to serve: where it sits and its files. */
export interface SkillSource {
  /** `<skill-path>`: one or more `/`-separated segments; the last is the skill's name (its frontmatter `name`). */
  readonly path: string;
  /** The files by path relative to the skill root (`SKILL.md`, `templates/invoice.md`): UTF-8 text or bytes. */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
}

/** A file of the catalog, as resources/read serves it. */
export interface SkillFile {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  /** The text (a string source) or the bytes (base64 in a blob). */
  readonly text?: string;
  readonly bytes: Uint8Array;
  /** For a SKILL.md: its frontmatter `description`. */
  readonly description?: string;
}

/** A directory resource's direct child. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
}

/** By file name extension; anything else is application/octet-stream. "Resource Metadata": SKILL.md is text/markdown. */
const MIME: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/plain',
};
const mimeOf = (name: string) => MIME[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The YAML frontmatter a SKILL.md begins with (the Agent Skills format, https://agentskills.io/specification),
 * as a JSON object; undefined when there is none or it is not a mapping.
 */
export function frontmatterOf(text: string): Record<string, unknown> | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (!m) return undefined;
  // YAML 1.2 core schema: no timestamps or other non-JSON values, so the object is the JSON the entry carries.
  const value: unknown = parseYaml(m[1]!, { version: '1.2', schema: 'core' });
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The skills, their files and their directories, by URI. */
export class SkillCatalog {
  readonly skills: readonly Skill[];
  readonly #bySkillUri = new Map<string, Skill>();
  readonly files = new Map<string, SkillFile>();
  readonly #directories = new Map<string, Map<string, DirectoryChild>>();

  constructor(sources: readonly SkillSource[], scheme = 'skill') {
    this.skills = sources.map((source) => this.#add(source, scheme));
  }

  skill(uri: string): Skill | undefined {
    return this.#bySkillUri.get(uri);
  }

  /** The direct children of a directory resource, or undefined when `uri` is not one. */
  directory(uri: string): readonly DirectoryChild[] | undefined {
    const children = this.#directories.get(uri);
    // By code unit, not locale: the same order everywhere.
    return children && [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  #add(source: SkillSource, scheme: string): Skill {
    const fail = (why: string): never => {
      throw new Error(`skill ${JSON.stringify(source.path)}: ${why} (SEP-2640)`);
    };
    const segments = source.path.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..')) fail('the path must be /-separated segments, none empty, "." or ".."');
    const name = segments.at(-1)!;
    const root = `${scheme}://${source.path}`;
    const md = source.files[SKILL_MD];
    if (md === undefined) fail(`it has no ${SKILL_MD} at its root`);
    const front = frontmatterOf(typeof md === 'string' ? md : new TextDecoder().decode(md));
    if (!front || typeof front['name'] !== 'string' || typeof front['description'] !== 'string')
      fail(`${SKILL_MD} must begin with YAML frontmatter holding name and description`);
    if (front!['name'] !== name) fail(`the last path segment must equal the frontmatter name ${JSON.stringify(front!['name'])}`);
    if (!SKILL_NAME.test(name)) fail('its name breaks the Agent Skills naming rules (a-z, 0-9 and single hyphens, at most 64)');
    const resources: SkillResource[] = [];
    for (const [path, content] of Object.entries(source.files)) {
      if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) fail(`file ${JSON.stringify(path)}: not a relative path`);
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      const uri = `${root}/${path}`;
      const isMd = path === SKILL_MD;
      this.files.set(uri, {
        uri,
        name: isMd ? name : baseName(path),
        mimeType: isMd ? 'text/markdown' : mimeOf(path),
        ...(typeof content === 'string' ? { text: content } : {}),
        bytes,
        ...(isMd ? { description: front!['description'] as string } : {}),
      });
      resources.push({ uri, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.byteLength });
      this.#link(`${scheme}://`, `${source.path}/${path}`, false);
    }
    if (resources.length > LIMITS.resources) fail(`more than ${LIMITS.resources} files`);
    if (resources.reduce((n, r) => n + r.size, 0) > LIMITS.totalBytes) fail(`more than ${LIMITS.totalBytes} bytes`);
    // SKILL.md first, then the rest by URI: the entry's order is stable whatever order the files came in.
    const mdUri = `${root}/${SKILL_MD}`;
    resources.sort((a, b) => Number(b.uri === mdUri) - Number(a.uri === mdUri) || a.uri.localeCompare(b.uri));
    // Checked above: name and description are strings.
    const skill: Skill = { uri: mdUri, frontmatter: front as Skill['frontmatter'], resources };
    if (this.#bySkillUri.has(skill.uri)) fail('served twice');
    this.#bySkillUri.set(skill.uri, skill);
    return skill;
  }

  /** Registers `path` (under `prefix`) in each directory level above it, the levels as directories themselves. */
  #link(prefix: string, path: string, isDirectory: boolean): void {
    const cut = path.lastIndexOf('/');
    if (cut < 0) return;
    const parent = path.slice(0, cut);
    const uri = `${prefix}${path}`;
    const children = this.#directories.get(`${prefix}${parent}`) ?? new Map<string, DirectoryChild>();
    const known = this.#directories.has(`${prefix}${parent}`);
    this.#directories.set(`${prefix}${parent}`, children);
    const file = this.files.get(uri);
    // A file as resources/list names it (a SKILL.md by its skill's name: "Resource Metadata").
    children.set(uri, { uri, name: file?.name ?? baseName(path), mimeType: isDirectory ? DIRECTORY_MIME : (file?.mimeType ?? mimeOf(path)) });
    if (!known) this.#link(prefix, parent, true);
  }
}
