/**
 * @module server — the behaviours of the weather server (server.yaml): one typed function per tool, resource,
 * resource template and prompt, typed by src/generated/ (`npm run generate`). The default export is the server;
 * src/main.ts serves it on stdio or HTTP, src/express.ts mounts it in an Express app.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from './generated/index.js';

const STATIONS = ['Lisbon', 'Oslo', 'Nairobi'];

export default createServer({
  tools: {
    to_fahrenheit: ({ celsius }) => ({ fahrenheit: (celsius * 9) / 5 + 32 }),
    forecast: async ({ city, days = 3 }, { progress, signal }) => {
      // A thrown error's message is the tool's isError text: what the model reads to try again.
      if (!STATIONS.includes(city)) throw new Error(`no station in ${city}; stations: ${STATIONS.join(', ')}`);
      const lines: string[] = [];
      for (let day = 1; day <= days; day++) {
        progress(day - 1, days, `forecasting day ${day} of ${days}`); // sent when the client asked for progress
        await sleep(20, undefined, { signal }); // the client's cancellation aborts the wait
        lines.push(`${city}, day ${day}: ${day % 2 === 1 ? 'sunny' : 'cloudy'}, ${17 + day} °C`);
      }
      return lines.join('\n');
    },
  },
  resources: {
    'weather://stations': () => STATIONS.join('\n'),
  },
  resourceTemplates: {
    'weather://stations/{city}': ({ city }) => `${city}: 18 °C, wind 3 m/s`,
  },
  prompts: {
    plan_trip: ({ city }) => `Look at the forecast for ${city} and plan a day out around it.`,
  },
});
