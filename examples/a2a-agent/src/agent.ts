/**
 * @module agent — the forecaster's executor (agent.yaml): "hello" gets a message back; anything else is a
 * task that works, streams its forecast as one artifact in two chunks, and completes.
 */
import { createAgent } from './generated/index.js';

export default createAgent({
  async execute(ctx) {
    if (/^hello\b/i.test(ctx.text)) return ctx.reply('Hello. Ask me for the forecast of a city.');
    const city = ctx.text.replace(/^forecast (for )?/i, '').trim() || 'somewhere';
    const task = await ctx.startTask();
    await task.working();
    const artifactId = await task.artifact({ name: 'forecast', parts: [{ text: `${city}: sunny today, ` }] });
    await task.artifact({ artifactId, name: 'forecast', parts: [{ text: 'cloudy tomorrow, rain after.' }], append: true, lastChunk: true });
    await task.complete();
  },
});
