// Tools, resources, prompts, completion and errors as the SDK v2 server guide writes them, served over Streamable HTTP with createMcpHandler.
import { createServer } from 'node:http';
import { localhostHostValidation, toNodeHandler } from '@modelcontextprotocol/node';
import {
  completable,
  createMcpHandler,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

const catalog = [
  { name: 'Espresso cup', price: 12 },
  { name: 'Travel mug', price: 24 },
  { name: 'Mug rack', price: 36 },
];
const notes = new Map([['welcome', 'Read tools.md first.']]);
const cardPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const languages = ['typescript', 'javascript', 'python', 'rust', 'go'];

function buildServer(): McpServer {
  const server = new McpServer({ name: 'catalog', version: '1.0.0' }, { instructions: 'A product catalog and its notes.' });

  server.registerTool(
    'search',
    {
      description: 'Search the product catalog',
      inputSchema: z.object({
        query: z.string().describe('Substring to match against product names'),
        limit: z.number().int().max(50).optional(),
      }),
    },
    async ({ query, limit }) => {
      const hits = catalog.filter((product) => product.name.toLowerCase().includes(query.toLowerCase()));
      const names = hits.slice(0, limit ?? 10).map((product) => product.name);
      return { content: [{ type: 'text', text: names.join('\n') }] };
    },
  );
  server.registerTool(
    'product-details',
    {
      description: 'Look up one product by its exact name',
      inputSchema: z.object({ name: z.string() }),
      outputSchema: z.object({ name: z.string(), price: z.number() }),
    },
    async ({ name }) => {
      const product = catalog.find((candidate) => candidate.name === name);
      if (!product) throw new Error(`No product named ${name}`);
      const output = { name: product.name, price: product.price };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    },
  );
  server.registerTool(
    'broken-details',
    { description: 'Answers structured content its schema rejects', outputSchema: z.object({ price: z.number() }) },
    async () => ({ content: [{ type: 'text', text: '{"price":"free"}' }], structuredContent: { price: 'free' } }),
  );
  server.registerTool(
    'product-card',
    { description: 'Render one product as an image and its catalog record', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => {
      const product = catalog.find((candidate) => candidate.name === name);
      if (!product) throw new Error(`No product named ${name}`);
      return {
        content: [
          { type: 'image', data: cardPng, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: { uri: `catalog://products/${encodeURIComponent(product.name)}`, mimeType: 'application/json', text: JSON.stringify(product) },
          },
        ],
      };
    },
  );
  server.registerTool(
    'clear-catalog',
    {
      title: 'Clear the catalog',
      description: 'Remove every product from the catalog',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    async () => ({ content: [{ type: 'text', text: 'Catalog cleared (not really)' }] }),
  );
  server.registerTool('read-note', { description: 'Read a note by its id', inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
    const note = notes.get(id);
    if (!note) return { content: [{ type: 'text', text: `No note with id "${id}". Known ids: ${[...notes.keys()].join(', ')}` }], isError: true };
    return { content: [{ type: 'text', text: note }] };
  });
  server.registerTool('delete-note', { description: 'Delete a note by its id', inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
    throw new Error(`Cannot delete "${id}": no such note`);
  });
  server.registerTool('whoami', { description: 'Name the authenticated caller' }, async (ctx) => ({
    content: [{ type: 'text', text: ctx.http?.authInfo?.clientId ?? 'anonymous' }],
  }));

  server.registerResource(
    'config',
    'config://app',
    { title: 'Application Config', description: 'Application configuration data', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'log_level=info\nregion=eu-west-1' }] }),
  );
  server.registerResource(
    'report',
    'report://latest',
    { title: 'Latest usage report', description: 'Weekly usage summary with a rendered chart', mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'text/markdown', text: 'Active installs grew 12% week over week.' },
        { uri: uri.href, mimeType: 'image/png', blob: cardPng },
      ],
    }),
  );
  server.registerResource(
    'user-profile',
    new ResourceTemplate('users://{userId}/profile', { list: undefined }),
    { title: 'User Profile', description: 'Profile data for one user', mimeType: 'application/json' },
    async (uri, { userId }) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ userId, plan: 'pro' }) }] }),
  );
  server.registerResource(
    'team-roster',
    new ResourceTemplate('teams://{teamId}/roster', {
      list: async () => ({
        resources: [
          { uri: 'teams://core/roster', name: 'Core team roster' },
          { uri: 'teams://growth/roster', name: 'Growth team roster' },
        ],
      }),
      complete: { teamId: (value) => ['core', 'growth', 'platform'].filter((team) => team.startsWith(value)) },
    }),
    { description: 'Members of one team', mimeType: 'text/plain' },
    async (uri, { teamId }) => ({ contents: [{ uri: uri.href, text: `Members of team ${teamId}` }] }),
  );
  server.registerResource(
    'note',
    new ResourceTemplate('note://{id}', { list: undefined }),
    { description: 'A note by its id' },
    async (uri, { id }) => {
      const noteId = String(id);
      if (!/^[a-z]+$/.test(noteId)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Note ids are lowercase letters, got "${noteId}"`);
      const note = notes.get(noteId);
      if (!note) throw new ResourceNotFoundError(uri.href);
      return { contents: [{ uri: uri.href, text: note }] };
    },
  );

  server.registerPrompt(
    'review-code',
    {
      title: 'Code Review',
      description: 'Review code for best practices and potential issues',
      argsSchema: z.object({
        code: z.string().describe('The code to review'),
        language: completable(z.string().describe('Programming language'), (value) =>
          languages.filter((language) => language.startsWith(value)),
        ).optional(),
      }),
    },
    ({ code, language }) => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Review this ${language ?? ''} code:\n\n${code}` } }],
    }),
  );
  server.registerPrompt(
    'explain-error',
    { description: 'Explain a compiler error and suggest the smallest fix', argsSchema: z.object({ error: z.string() }) },
    ({ error }) => ({
      messages: [
        { role: 'user' as const, content: { type: 'text' as const, text: `Explain this compiler error:\n\n${error}` } },
        { role: 'assistant' as const, content: { type: 'text' as const, text: 'The one-line cause:' } },
      ],
    }),
  );
  server.registerPrompt('daily-standup', { description: 'No arguments' }, () => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'What did you do yesterday?' } }],
  }));
  return server;
}

const handler = createMcpHandler(() => buildServer());
const nodeHandler = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const http = createServer((req, res) => {
  if (!validateHost(req, res)) return;
  void nodeHandler(req, res);
});
http.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = http.address();
  console.error(JSON.stringify({ ready: true, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp` }));
});
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
