/**
 * @module server — the behaviours of the weather server (server.yaml): one typed function per tool, resource
 * and prompt, typed by src/generated/ (`npm run generate`). The default export is the server; src/main.ts
 * serves it on stdio or HTTP, src/express.ts mounts it in an Express app.
 */
import { createServer } from './generated/index.js';

const STATIONS = ['Lisbon', 'Oslo', 'Nairobi'];

export default createServer({
  tools: {
    to_fahrenheit: ({ celsius }) => ({ fahrenheit: (celsius * 9) / 5 + 32 }),
    forecast: ({ city, days = 3 }) =>
      Array.from({ length: days }, (_, i) => `${city}, day ${i + 1}: ${i % 2 === 0 ? 'sunny' : 'cloudy'}, ${18 + i} °C`).join('\n'),
  },
  resources: {
    'weather://stations': () => STATIONS.join('\n'),
  },
  prompts: {
    plan_trip: ({ city }) => `Look at the forecast for ${city} and plan a day out around it.`,
  },
});
