/**
 * @module emit/templates — the Handlebars templates under emit/templates/, compiled once per process.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

const here = dirname(fileURLToPath(import.meta.url));
const hbs = Handlebars.create();
hbs.registerHelper('json', (value: unknown) => JSON.stringify(value));

const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Renders templates/<name>.hbs with `data`; output is code, so nothing is HTML-escaped. */
export function render(name: string, data: object): string {
  let template = compiled.get(name);
  if (!template) {
    template = hbs.compile(readFileSync(join(here, 'templates', `${name}.hbs`), 'utf8'), { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(data);
}
