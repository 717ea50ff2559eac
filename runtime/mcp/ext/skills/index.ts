/**
 * @module mcp/ext/skills — `@wiregen/runtime/mcp/ext/skills`: the MCP skills extension
 * (io.modelcontextprotocol/skills, SEP-2640, https://modelcontextprotocol.io/seps/2640-skills-extension),
 * server side: McpSkills, given to a server in `extensions`. Servers that do not serve skills never load this
 * area (nor its YAML parser).
 */
export { McpSkills, type McpSkillsOptions } from './server.ts';
export { frontmatterOf, SkillCatalog, type DirectoryChild, type SkillFile, type SkillSource } from './catalog.ts';
export { DIRECTORY_MIME, LIMITS, SKILL_MD, SKILL_NAME, SKILLS_EXTENSION, type Skill, type SkillResource, type SkillsSettings } from './protocol.ts';
