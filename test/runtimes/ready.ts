/**
 * @module test/runtimes/ready — the line a server script prints once it listens; launch.ts waits for it. A
 * module of its own, importing nothing, for serve-workerd.mjs (run by Node 22 as it is) to print it too.
 */
export const readyLine = (port: number) => JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}` });
