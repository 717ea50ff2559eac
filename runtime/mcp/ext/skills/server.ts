/**
 * @module mcp/ext/skills/server — the skills extension on the server (io.modelcontextprotocol/skills, SEP-2640,
 * https://modelcontextprotocol.io/seps/2640-skills-extension): `skills/list` (paginated) and `skills/get`
 * answer each skill's entry, `resources/directory/read` lists a directory's direct children (when
 * `directoryRead`), and every skill file is a resource: resources/read serves it and resources/list lists each
 * SKILL.md (its name and description from the frontmatter), ahead of the server's own resources handlers.
 *
 * ```ts
 * const skills = new McpSkills({ skills: [{ path: 'git-workflow', files: { 'SKILL.md': '---\nname: git-workflow\n…' } }] });
 * const server = new McpServer({ ...options, extensions: [skills] }); // declare the resources capability too
 * ```
 */
import type { ListResourcesResult, ReadResourceResult, Resource } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, isObject, JsonRpcError } from '../../../jsonrpc/message.ts';
import type { ExtensionMethod, McpServerExtension } from '../../server/extensions.ts';
import type { Handler } from '../../server/types.ts';
import { SkillCatalog, type SkillFile, type SkillSource } from './catalog.ts';
import { ENTRIES, notADirectory, SKILL_MD, SKILLS_EXTENSION, unknownSkill } from './protocol.ts';

export interface McpSkillsOptions {
  /** The skills served (catalog.ts SkillSource); each is checked against the specification when built. */
  readonly skills: readonly SkillSource[];
  /** Serve resources/directory/read and declare `directoryRead: true`. Default true. */
  readonly directoryRead?: boolean;
  /** Entries per skills/list page, and children per directory page. Default 100. */
  readonly pageSize?: number;
  /** The URI scheme of the skills' resources ("Servers SHOULD use the skill:// URI scheme"). Default `skill`. */
  readonly scheme?: string;
}

/** An opaque cursor: the index of the next item (base64url, so clients do not read meaning into it). */
const cursorAt = (index: number) => Buffer.from(`o:${index}`).toString('base64url');
function indexOf(cursor: unknown): number {
  if (cursor === undefined) return 0;
  const m = typeof cursor === 'string' ? /^o:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString()) : null;
  if (!m) throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  return Number(m[1]);
}

/** One page of `items` from `cursor`, with the next cursor when more remain. */
function page<T>(items: readonly T[], cursor: unknown, size: number): { items: T[]; nextCursor?: string } {
  const start = indexOf(cursor);
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: cursorAt(end) } : {}) };
}

export class McpSkills implements McpServerExtension {
  readonly id = SKILLS_EXTENSION;
  readonly settings: { directoryRead?: boolean };
  readonly catalog: SkillCatalog;
  readonly methods: Readonly<Record<string, ExtensionMethod>>;
  readonly #pageSize: number;

  constructor(options: McpSkillsOptions) {
    this.catalog = new SkillCatalog(options.skills, options.scheme);
    this.#pageSize = options.pageSize ?? 100;
    const directoryRead = options.directoryRead ?? true;
    this.settings = directoryRead ? { directoryRead: true } : {};
    // The params have passed ENTRIES' checks (uri a string, cursor a string when present).
    const methods: Record<string, ExtensionMethod> = {
      'skills/list': {
        entry: ENTRIES['skills/list'],
        handler: (params) => {
          const { items, nextCursor } = page(this.catalog.skills, params['cursor'], this.#pageSize);
          return { skills: items, ...(nextCursor ? { nextCursor } : {}) };
        },
      },
      'skills/get': {
        entry: ENTRIES['skills/get'],
        handler: (params) => {
          const skill = this.catalog.skill(params['uri'] as string);
          if (!skill) throw unknownSkill(params['uri'] as string);
          return { skill };
        },
      },
    };
    if (directoryRead)
      methods['resources/directory/read'] = {
        entry: ENTRIES['resources/directory/read'],
        handler: (params) => {
          const children = this.catalog.directory(params['uri'] as string);
          if (!children) throw notADirectory(params['uri'] as string);
          const { items, nextCursor } = page(children, params['cursor'], this.#pageSize);
          return { resources: items, ...(nextCursor ? { nextCursor } : {}) };
        },
      };
    this.methods = methods;
  }

  /** resources/read of a skill file, and each SKILL.md on the last page of resources/list. */
  wrap(method: string, handler: Handler): Handler {
    if (method === 'resources/read')
      return (params, ctx) => {
        const file = typeof params['uri'] === 'string' ? this.catalog.files.get(params['uri']) : undefined;
        return file ? read(file) : handler(params, ctx);
      };
    if (method === 'resources/list')
      return async (params, ctx) => {
        const listed = (await handler(params, ctx)) as ListResourcesResult;
        if (!isObject(listed) || listed.nextCursor !== undefined) return listed;
        return { ...listed, resources: [...(listed.resources ?? []), ...this.#manifests()] };
      };
    return handler;
  }

  /** The server has no resources handler of its own: the skills' files are its resources. */
  readonly handlers: Readonly<Record<string, Handler>> = {
    'resources/read': (params) => {
      const file = typeof params['uri'] === 'string' ? this.catalog.files.get(params['uri']) : undefined;
      if (!file) throw new JsonRpcError(ErrorCode.InvalidParams, `Resource not found: ${String(params['uri'])}`);
      return read(file);
    },
    'resources/list': () => ({ resources: this.#manifests() }),
  };

  /** "Resource Metadata": each SKILL.md with its frontmatter name and description, as text/markdown. */
  #manifests(): Resource[] {
    return [...this.catalog.files.values()]
      .filter((f) => f.description !== undefined && f.uri.endsWith(`/${SKILL_MD}`))
      .map((f) => ({ uri: f.uri, name: f.name, description: f.description!, mimeType: f.mimeType }));
  }
}

/** A skill file as resources/read answers it: text as given, bytes as base64. */
function read(file: SkillFile): Pick<ReadResourceResult, 'contents'> {
  const content: ReadResourceResult['contents'][number] =
    file.text !== undefined
      ? { uri: file.uri, mimeType: file.mimeType, text: file.text }
      : { uri: file.uri, mimeType: file.mimeType, blob: Buffer.from(file.bytes).toString('base64') };
  return { contents: [content] };
}
