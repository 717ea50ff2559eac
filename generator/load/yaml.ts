/**
 * @module load/yaml — reading a YAML input with a locator from JSON pointers to lines, so diagnostics about
 * its content can name the line.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { fail, unescapePointerToken } from '../errors.ts';
import { checkYamlNesting } from './depth.ts';
import { readText } from './json.ts';
import type { Locator } from './validate-input.ts';

/**
 * Parses the YAML file at `path` (named `file` in errors); duplicate keys are errors, and so is nesting
 * deeper than the input limit (load/depth).
 */
export function readYaml(path: string, file: string): { data: unknown; locate: Locator } {
  const text = readText(path, file);
  checkYamlNesting(text, file);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError) {
    const pos = lineCounter.linePos(firstError.pos[0]);
    fail({ file, line: pos.line, column: pos.col, message: `not valid YAML: ${firstError.message.split('\n')[0]}` });
  }
  const locate: Locator = (pointer) => {
    const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointerToken);
    // Walk down as far as the document goes; a missing key locates at its parent.
    let node: Node | null | undefined = doc.contents as Node | null;
    let located = node;
    for (const t of tokens) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === t);
        if (!pair) break;
        node = pair.value as Node | null;
        located = (node ?? (pair.key as Node)) as Node;
      } else if (isSeq(node)) {
        const item = node.items[Number(t)] as Node | undefined;
        if (!item) break;
        node = located = item;
      } else break;
    }
    const start = located?.range?.[0];
    if (start === undefined) return undefined;
    const pos = lineCounter.linePos(start);
    return { line: pos.line, column: pos.col };
  };
  return { data: doc.toJS() as unknown, locate };
}
