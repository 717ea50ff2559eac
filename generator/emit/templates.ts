/**
 * @module emit/templates — renders the Handlebars templates under emit/templates/: every line of TypeScript
 * and JavaScript the generator writes itself comes from one of them (code others write, ajv's validators and
 * json-schema-to-typescript's declarations, is edited through its syntax tree instead: emit/js-edit.ts).
 * A template is read and compiled when it is rendered: a generation renders a few dozen, so a cache would
 * save milliseconds and be state shared by every run in the process.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

const here = dirname(fileURLToPath(import.meta.url));

/** A Handlebars environment with the generator's one helper: `{{json value}}`, the value as a JSON literal. */
function environment(): typeof Handlebars {
  const hbs = Handlebars.create();
  hbs.registerHelper('json', (value: unknown) => JSON.stringify(value));
  return hbs;
}

/** Renders templates/<name>.hbs with `data`; output is code, so nothing is HTML-escaped. */
export function render(name: string, data: object): string {
  const template = environment().compile(readFileSync(join(here, 'templates', `${name}.hbs`), 'utf8'), { noEscape: true, strict: true });
  return template(data);
}
