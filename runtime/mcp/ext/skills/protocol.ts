/**
 * @module mcp/ext/skills/protocol — the wire facts of the skills extension (io.modelcontextprotocol/skills,
 * SEP-2640, https://modelcontextprotocol.io/seps/2640-skills-extension; the specification page
 * https://github.com/modelcontextprotocol/ext-skills/blob/main/specification/stable/skills.mdx). The
 * extension publishes no JSON Schema, so its types and the checks of its request params are written here
 * from the specification's TypeScript interfaces, each cited.
 */
import { ErrorCode, isObject, JsonRpcError } from '../../../jsonrpc/message.ts';
import type { MethodEntry, ValidationError, Validator } from '../../../core/index.ts';

/** "Extension Identifier". */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** "Directory Resources": the mimeType of a directory resource. */
export const DIRECTORY_MIME = 'inode/directory';
/** "Skill Format": the file every skill has at its root. */
export const SKILL_MD = 'SKILL.md';
/** "Limits": resources per skill, and total bytes per skill. */
export const LIMITS = { resources: 512, totalBytes: 16 * 1024 * 1024 } as const;

/** "Skill Entries" `SkillResource`: a file of a skill with the digest (`sha256:{hex}`) and size of its bytes. */
export interface SkillResource {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** "Skill Entries" `Skill`: the frontmatter verbatim, and every file (or "dynamic"). */
export interface Skill {
  readonly uri: string;
  readonly frontmatter: { readonly name: string; readonly description: string; readonly [key: string]: unknown };
  readonly resources: readonly SkillResource[] | 'dynamic';
}

/** The settings a server declares under `capabilities.extensions["io.modelcontextprotocol/skills"]`. */
export interface SkillsSettings {
  /** The server implements resources/directory/read ("Capability Negotiation"). Default false. */
  readonly directoryRead?: boolean;
}

/**
 * The Agent Skills naming rules (https://agentskills.io/specification#name-field): 1–64 characters, lower-case
 * letters, digits and hyphens, not starting or ending with a hyphen, no consecutive hyphens.
 */
export const SKILL_NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** -32602 for a URI that is no skill the server serves ("Error Handling", its example message). */
export const unknownSkill = (uri: string) => new JsonRpcError(ErrorCode.InvalidParams, `No skill is served at ${uri}`);
/** -32602 for a directory read of something that is not a directory resource ("Error Handling"). */
export const notADirectory = (uri: string) => new JsonRpcError(ErrorCode.InvalidParams, `${uri} is not a directory resource`);

/**
 * A params check in the shape of a generated validator: `uri` a string (GetSkillRequest,
 * ReadResourceDirectoryRequest), `cursor` an optional string (PaginatedRequest), and, when `needsUri` is
 * false, nothing required (ListSkillsRequest).
 */
function paramsCheck(needsUri: boolean): Validator<unknown> {
  const check = Object.assign(
    (data: unknown): data is unknown => {
      const problems: ValidationError[] = [];
      const wrong = (instancePath: string, keyword: string, message: string) =>
        problems.push({ instancePath, schemaPath: `#${instancePath}`, keyword, params: {}, message });
      if (!isObject(data)) wrong('', 'type', 'must be object');
      else {
        if (needsUri && typeof data['uri'] !== 'string') wrong('/uri', data['uri'] === undefined ? 'required' : 'type', 'must be string');
        if (data['cursor'] !== undefined && typeof data['cursor'] !== 'string') wrong('/cursor', 'type', 'must be string');
      }
      check.errors = problems.length ? problems : null;
      return problems.length === 0;
    },
    { errors: null as Validator<unknown>['errors'] },
  );
  return check;
}

const entry = (method: string, needsUri: boolean, cacheable: boolean): MethodEntry => ({
  method,
  kind: 'request',
  direction: 'client-to-server',
  params: paramsCheck(needsUri),
  paramsRequired: needsUri,
  capabilities: [],
  cacheable,
  inputRequired: false,
  taskAugmented: false,
  embedded: false,
  streaming: false,
  http: [],
});

/**
 * The dispatch entries of the extension's methods: ListSkillsResult and GetSkillResult extend CacheableResult
 * (ttlMs and cacheScope REQUIRED); ReadResourceDirectoryResult is a PaginatedResult only.
 */
export const ENTRIES = {
  'skills/list': entry('skills/list', false, true),
  'skills/get': entry('skills/get', true, true),
  'resources/directory/read': entry('resources/directory/read', true, false),
} as const;
