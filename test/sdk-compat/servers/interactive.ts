// Elicitation, sampling, logging, progress, cancellation and registration handles as the SDK v2 server guide writes them, on stdio.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

function createServer(): McpServer {
  const server = new McpServer({ name: 'interactive', version: '1.0.0' }, { capabilities: { logging: {} } });

  server.registerTool(
    'collect-feedback',
    { description: 'Ask the user how something went', inputSchema: z.object({ topic: z.string() }) },
    async ({ topic }, ctx) => {
      const result = await ctx.mcpReq.elicitInput({
        mode: 'form',
        message: `How was ${topic}?`,
        requestedSchema: {
          type: 'object',
          properties: {
            rating: { type: 'number', title: 'Rating (1-5)', minimum: 1, maximum: 5 },
            comment: { type: 'string', title: 'Comment' },
          },
          required: ['rating'],
        },
      });
      if (result.action !== 'accept') return { content: [{ type: 'text', text: `Feedback ${result.action}.` }] };
      return { content: [{ type: 'text', text: `Recorded: ${JSON.stringify(result.content)}` }] };
    },
  );

  server.registerTool(
    'haiku',
    { description: 'Ask the client to write a haiku', inputSchema: z.object({ topic: z.string() }) },
    async ({ topic }, ctx) => {
      const result = await ctx.mcpReq.requestSampling({
        messages: [{ role: 'user', content: { type: 'text', text: `Write a haiku about ${topic}` } }],
        maxTokens: 100,
      });
      const text = 'type' in result.content && result.content.type === 'text' ? result.content.text : '(no text)';
      return { content: [{ type: 'text', text: `${result.model}: ${text}` }] };
    },
  );

  server.registerTool(
    'process-files',
    { description: 'Process files with progress updates', inputSchema: z.object({ files: z.array(z.string()) }) },
    async ({ files }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 0; i < files.length; i++) {
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: i + 1, total: files.length, message: `Processed ${files[i]}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `Processed ${files.length} files` }] };
    },
  );

  server.registerTool(
    'validate-records',
    { description: 'Validate records before import', inputSchema: z.object({ records: z.array(z.string()) }) },
    async ({ records }, ctx) => {
      await ctx.mcpReq.log('info', `Validating ${records.length} records`);
      const invalid = records.filter((record) => !record.endsWith('.csv'));
      if (invalid.length > 0) await ctx.mcpReq.log('warning', { invalid });
      return { content: [{ type: 'text', text: `${records.length - invalid.length} of ${records.length} records are valid` }] };
    },
  );

  server.registerTool(
    'scan-archive',
    { description: 'Scan every page of the archive', inputSchema: z.object({ pages: z.number().int() }) },
    async ({ pages }, ctx) => {
      let scanned = 0;
      for (let page = 0; page < pages; page++) {
        if (ctx.mcpReq.signal.aborted) {
          console.error(`Stopped after ${scanned} of ${pages} pages: ${ctx.mcpReq.signal.reason}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        scanned++;
      }
      return { content: [{ type: 'text', text: `Scanned ${scanned} pages` }] };
    },
  );

  const report = server.registerTool('run-report', { description: 'Run the weekly report' }, async () => ({
    content: [{ type: 'text', text: 'report queued' }],
  }));
  server.registerTool('retire-report', { description: 'Update, then disable run-report' }, async () => {
    report.update({ description: 'Run the weekly report and email it' });
    report.disable();
    return { content: [{ type: 'text', text: 'run-report retired' }] };
  });
  server.registerTool('restore-report', { description: 'Enable run-report again' }, async () => {
    report.enable();
    server.sendToolListChanged();
    return { content: [{ type: 'text', text: 'run-report restored' }] };
  });
  return server;
}

serveStdio(createServer);
