import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The workspace packages resolve to their TypeScript sources, as tsconfig.json's `paths` say (tsc and tsx
 * read those; Vite needs them as aliases): the repository's tests run from sources, not from `dist/`.
 */
function sourceAliases() {
  const tsconfig = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return Object.entries(tsconfig.compilerOptions.paths).map(([key, [target]]) => {
    const [prefix, suffix = ''] = key.split('*') as [string, string?];
    const wildcard = key.includes('*');
    const find = new RegExp(`^${escapeRegExp(prefix)}${wildcard ? '([^/]+)' : ''}${escapeRegExp(suffix)}$`);
    const replacement = fileURLToPath(new URL(target!.replace('*', '$1'), import.meta.url));
    return { find, replacement };
  });
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
