/**
 * generated/ is committed: a fresh generation must equal it byte for byte, and two generations must agree.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { diffTree, generateAll } from '../../generator/generate.ts';
import { pinIds } from '../helpers/project.ts';

describe('generated/', () => {
  it('equals what the generator produces from schemas/', async () => {
    const ctx = createContext({ log: () => {} });
    const { files, reports } = await generateAll(ctx);
    expect(reports.map((r) => r.id)).toEqual(pinIds());
    expect(diffTree(ctx.options.generatedDir, files)).toEqual([]);
  });

  it('is deterministic: two generations are byte-identical', async () => {
    const ctx = createContext({ log: () => {}, only: ['a2a-1.0', 'mcp-2024-11-05'] });
    const first = await generateAll(ctx);
    const second = await generateAll(ctx);
    expect([...second.files.keys()]).toEqual([...first.files.keys()]);
    for (const [path, text] of first.files) expect(second.files.get(path), path).toBe(text);
  });
});
