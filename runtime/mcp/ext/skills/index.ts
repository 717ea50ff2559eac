/**
 * @module mcp/ext/skills — `@wiregen/runtime/mcp/ext/skills`: the MCP skills extension
 * (io.modelcontextprotocol/skills, SEP-2640, https://modelcontextprotocol.io/seps/2640-skills-extension),
 * server side (McpSkills, given to a server in `extensions`) and client side (McpSkillsClient, given to a client in
 * `extensions`: listing without prefetch, files verified by size, digest and frontmatter). Servers and clients
 * that do not use skills never load this area (nor its YAML parser).
 */
export { McpSkills, type McpSkillsOptions } from './server.ts';
export { McpSkillsClient, SkillVerificationError, type LoadedSkill, type SkillCheck, type SkillContent } from './client.ts';
export { SkillCatalog, type DirectoryChild, type SkillFile, type SkillSource } from './catalog.ts';
export { SKILLS_EXTENSION, type Skill, type SkillResource, type SkillsSettings } from './protocol.ts';
