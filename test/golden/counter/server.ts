/**
 * @module test/golden/counter/server — a stateful MCP server of ours for the golden isolation tests: its one
 * tool, `increment`, answers `count <n>`, n counting the calls this server instance has had. A fresh server
 * answers `count 1` to every case of corpus/; one shared by the cases answers 1, 2, 3…
 */
import { mcpServer } from '@wiregen/runtime/mcp';

/** A fresh counter server (a builder; the golden library builds it). */
export function counterServer() {
  let count = 0;
  return mcpServer({ name: 'counter', version: '1.0.0' }).tool('increment', { description: 'Counts its calls' }, () => `count ${++count}`);
}
