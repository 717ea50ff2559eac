/**
 * RFC 6570 URI templates (runtime/mcp/catalog/uri-template.ts): expansion against the RFC's own examples (§3.2.2–§3.2.9,
 * with its example variables), matching those expansions back, what a match yields for each operator, the
 * templates that are not templates, and a property: any template of every level, expanded with any values it
 * can take, matches its expansion and gives the values back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import {
  expandUriTemplate,
  matchTemplate,
  parseUriTemplate,
  uriTemplateVariables,
  type UriTemplateOperator,
  type UriTemplateValues,
} from '../../runtime/mcp/catalog/uri-template.ts';

/** The example variables of RFC 6570 §3.2 (without its associative arrays, which matching does not yield). */
const RFC: UriTemplateValues = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  undef: undefined,
};

/** Templates and their expansions with {@link RFC}, as RFC 6570 §3.2.2–§3.2.9 print them. */
const EXAMPLES: readonly (readonly [string, string])[] = [
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['{x,y}', '1024,768'],
  ['{x,hello,y}', '1024,Hello%20World%21,768'],
  ['?{x,empty}', '?1024,'],
  ['?{x,undef}', '?1024'],
  ['?{undef,y}', '?768'],
  ['{var:3}', 'val'],
  ['{var:30}', 'value'],
  ['{list}', 'red,green,blue'],
  ['{list*}', 'red,green,blue'],
  ['{+var}', 'value'],
  ['{+hello}', 'Hello%20World!'],
  ['{+half}', '50%25'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['O{+empty}X', 'OX'],
  ['{+path}/here', '/foo/bar/here'],
  ['here?ref={+path}', 'here?ref=/foo/bar'],
  ['up{+path}{var}/here', 'up/foo/barvalue/here'],
  ['{+x,hello,y}', '1024,Hello%20World!,768'],
  ['{+path,x}/here', '/foo/bar,1024/here'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+list}', 'red,green,blue'],
  ['{#var}', '#value'],
  ['{#hello}', '#Hello%20World!'],
  ['{#half}', '#50%25'],
  ['foo{#empty}', 'foo#'],
  ['foo{#undef}', 'foo'],
  ['{#x,hello,y}', '#1024,Hello%20World!,768'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['{#path:6}/here', '#/foo/b/here'],
  ['{#list}', '#red,green,blue'],
  ['{#list*}', '#red,green,blue'],
  ['{.who}', '.fred'],
  ['{.who,who}', '.fred.fred'],
  ['{.half,who}', '.50%25.fred'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.var}', 'X.value'],
  ['X{.empty}', 'X.'],
  ['X{.undef}', 'X'],
  ['X{.var:3}', 'X.val'],
  ['X{.list}', 'X.red,green,blue'],
  ['X{.list*}', 'X.red.green.blue'],
  ['{/who}', '/fred'],
  ['{/who,who}', '/fred/fred'],
  ['{/half,who}', '/50%25/fred'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var}', '/value'],
  ['{/var,empty}', '/value/'],
  ['{/var,undef}', '/value'],
  ['{/var,x}/here', '/value/1024/here'],
  ['{/var:1,var}', '/v/value'],
  ['{/list}', '/red,green,blue'],
  ['{/list*}', '/red/green/blue'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{;who}', ';who=fred'],
  ['{;half}', ';half=50%25'],
  ['{;empty}', ';empty'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;v,bar,who}', ';v=6;who=fred'],
  ['{;x,y}', ';x=1024;y=768'],
  ['{;x,y,empty}', ';x=1024;y=768;empty'],
  ['{;x,y,undef}', ';x=1024;y=768'],
  ['{;hello:5}', ';hello=Hello'],
  ['{;list}', ';list=red,green,blue'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{?who}', '?who=fred'],
  ['{?half}', '?half=50%25'],
  ['{?x,y}', '?x=1024&y=768'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?x,y,undef}', '?x=1024&y=768'],
  ['{?var:3}', '?var=val'],
  ['{?list}', '?list=red,green,blue'],
  ['{?list*}', '?list=red&list=green&list=blue'],
  ['{&who}', '&who=fred'],
  ['{&half}', '&half=50%25'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ['{&var:3}', '&var=val'],
  ['{&list}', '&list=red,green,blue'],
  ['{&list*}', '&list=red&list=green&list=blue'],
];

describe('expandUriTemplate', () => {
  it.each(EXAMPLES)('RFC 6570 §3.2: %s → %s', (template, uri) => {
    expect(expandUriTemplate(template, RFC)).toBe(uri);
  });

  it('percent-encodes a literal outside the URI character set (§3.1), keeping pct-encoded triplets', () => {
    expect(expandUriTemplate('file:///docs/café/{name}', { name: 'a b' })).toBe('file:///docs/caf%C3%A9/a%20b');
    expect(expandUriTemplate('x%2Fy/{+v}', { v: '%41/é' })).toBe('x%2Fy/%41/%C3%A9');
  });
});

describe('matchTemplate', () => {
  // The RFC's expansions read back: each gives what a match yields (required values non-empty, lists for `*`).
  const back: readonly (readonly [string, string, Record<string, string | string[]> | undefined])[] = [
    ['{hello}', 'Hello%20World%21', { hello: 'Hello World!' }],
    ['{x,hello,y}', '1024,Hello%20World%21,768', { x: '1024', hello: 'Hello World!', y: '768' }],
    ['{list}', 'red,green,blue', { list: 'red,green,blue' }],
    ['{list*}', 'red,green,blue', { list: ['red', 'green', 'blue'] }],
    ['{+base}index', 'http://example.com/home/index', { base: 'http://example.com/home/' }],
    ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex', { base: 'http://example.com/home/' }],
    ['{+path,x}/here', '/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
    ['{#path,x}/here', '#/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
    ['foo{#empty}', 'foo#', { empty: '' }],
    ['foo{#undef}', 'foo', {}],
    ['www{.dom*}', 'www.example.com', { dom: ['example', 'com'] }],
    ['X{.var:3}', 'X.val', { var: 'val' }],
    ['{/who,dub}', '/fred/me%2Ftoo', { who: 'fred', dub: 'me/too' }],
    ['{/var:1,var}', '/v/value', { var: 'value' }],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo', { list: ['red', 'green', 'blue'], path: '/foo' }],
    ['{;v,empty,who}', ';v=6;empty;who=fred', { v: '6', empty: '', who: 'fred' }],
    ['{;list*}', ';list=red;list=green;list=blue', { list: ['red', 'green', 'blue'] }],
    ['{?x,y,empty}', '?x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
    ['{?x,y,undef}', '?x=1024&y=768', { x: '1024', y: '768' }],
    ['{?list*}', '?list=red&list=green&list=blue', { list: ['red', 'green', 'blue'] }],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024', { x: '1024' }],
    // A required variable needs a value: an empty or absent one does not match.
    ['O{empty}X', 'OX', undefined],
    ['X{.empty}', 'X.', undefined],
    ['{/var,empty}', '/value/', undefined],
    ['{/var,undef}', '/value', undefined],
  ];
  it.each(back)('%s matches %s', (template, uri, want) => {
    expect(matchTemplate(template, uri)).toEqual(want);
  });

  it('matches a query in any order, but only the names the template declares', () => {
    expect(matchTemplate('notes://search{?q,limit}', 'notes://search?limit=5&q=a%20b')).toEqual({ q: 'a b', limit: '5' });
    expect(matchTemplate('notes://search{?q,limit}', 'notes://search')).toEqual({});
    expect(matchTemplate('notes://search{?q,limit}', 'notes://search?q=a&utm=x')).toBeUndefined();
    expect(matchTemplate('notes://search{?q,limit}', 'notes://search?q=a&q=b')).toBeUndefined();
  });

  it('does not match a value across the delimiters of its expression', () => {
    expect(matchTemplate('notes://{id}', 'notes://a/b')).toBeUndefined();
    expect(matchTemplate('notes://{id}', 'notes://a?b')).toBeUndefined();
    expect(matchTemplate('notes://{+path}', 'notes://a/b?c')).toEqual({ path: 'a/b?c' });
    expect(matchTemplate('notes://{id}', 'notes://')).toBeUndefined();
  });

  it('takes a value a client left unencoded, and refuses a malformed percent-encoding', () => {
    expect(matchTemplate('users://{email}/profile', 'users://ada@example.com/profile')).toEqual({ email: 'ada@example.com' });
    expect(matchTemplate('file:///docs/café/{name}', 'file:///docs/caf%C3%A9/a')).toEqual({ name: 'a' });
    expect(matchTemplate('file:///docs/café/{name}', 'file:///docs/café/a')).toEqual({ name: 'a' });
    expect(matchTemplate('notes://{id}', 'notes://%E0%A4%A')).toBeUndefined();
  });

  it('a variable named twice must have one value; a prefix must be the start of it', () => {
    expect(matchTemplate('{x}/{x}', 'a/a')).toEqual({ x: 'a' });
    expect(matchTemplate('{x}/{x}', 'a/b')).toBeUndefined();
    expect(matchTemplate('{x:2}/{x}', 'ab/abc')).toEqual({ x: 'abc' });
    expect(matchTemplate('{x:2}/{x}', 'ab/xyz')).toBeUndefined();
    expect(matchTemplate('{x:2}/{x:1}', 'ab/a')).toEqual({ x: 'ab' });
  });
});

describe('templates that are not RFC 6570 templates', () => {
  it.each([
    ['notes://{id', 'the expression at character 9 is not closed'],
    ['notes://{a{b}}', 'the expression at character 9 is not closed'],
    ['notes://id}', '"}" at character 11 closes no expression'],
    ['notes://{=id}', 'operator "=" at character 10 is reserved for future extensions (RFC 6570 §2.2)'],
    ['notes://{}', '"{}" at character 9: "" is not a variable (RFC 6570 §2.3)'],
    ['notes://{a b}', '"{a b}" at character 9: "a b" is not a variable (RFC 6570 §2.3)'],
    ['notes://{a:0}', '"{a:0}" at character 9: "a:0" is not a variable (RFC 6570 §2.3)'],
  ])('%s: %s', (template, message) => {
    expect(() => parseUriTemplate(template)).toThrow(message);
    expect(() => matchTemplate(template, 'notes://x')).toThrow(message);
  });

  it('the code-first builder refuses one when the resource is defined', () => {
    expect(() => mcpServer({ name: 'n', version: '1' }).resource('notes://{=id}', {}, () => '')).toThrow(
      'operator "=" at character 10 is reserved for future extensions (RFC 6570 §2.2)',
    );
  });

  it('a variable exploded in one expression and not in another has no one type', () => {
    expect(() => uriTemplateVariables('{x}/{x*}')).toThrow('variable "x" is exploded in one expression and not in another');
  });
});

describe('uriTemplateVariables', () => {
  it('simple, reserved, label and path-segment variables are required; fragment, parameter and query ones optional; exploded ones lists', () => {
    expect(uriTemplateVariables('notes://{id}{+rest}{.ext}{/seg*}{#frag}{;p}{?q,tags*}{&more}')).toEqual([
      { name: 'id', required: true, list: false },
      { name: 'rest', required: true, list: false },
      { name: 'ext', required: true, list: false },
      { name: 'seg', required: true, list: true },
      { name: 'frag', required: false, list: false },
      { name: 'p', required: false, list: false },
      { name: 'q', required: false, list: false },
      { name: 'tags', required: false, list: true },
      { name: 'more', required: false, list: false },
    ]);
    expect(uriTemplateVariables('x{?id}/{id}')).toEqual([{ name: 'id', required: true, list: false }]);
  });
});

/** A variable of a generated template: its spec and the value to expand it with (what a match must give back). */
interface GenVar {
  readonly spec: string;
  readonly name: string;
  readonly value: string | string[] | undefined;
  readonly want: string | string[] | undefined;
}

const OPS: readonly UriTemplateOperator[] = ['', '+', '#', '.', '/', ';', '?', '&'];
const RESERVED_OPS = new Set(['+', '#']);
const NAMED_OPS = new Set([';', '?', '&']);
const REQUIRED_OPS = new Set(['', '+', '.', '/']);
/** Characters a value may hold: any for the operators that encode them (not `.` for a label, its separator). */
const ANY = [...'aZ0-_~ %/?#,=&;!*:@+.', 'é', '😀', '\n'];
/** The reserved operators leave reserved characters unencoded: values without them (and `%`), so a URI has one reading. */
const PLAIN = [...'aZ0-_~ .', 'é', '😀', '"', '<'];
/** Literals between expressions: each holds a character no expansion of a value above writes. */
const SEPARATORS = ['/', ':', '!', '@', '$', '/items/', '(x)'];

const valueChars = (op: UriTemplateOperator) => (RESERVED_OPS.has(op) ? PLAIN : op === '.' ? ANY.filter((c) => c !== '.') : ANY);

/** An expression with up to three variables (names from `base`), and the values to expand it with. */
function expression(base: number): fc.Arbitrary<{ text: string; vars: GenVar[] }> {
  return fc.constantFrom(...OPS).chain((op) => {
    const required = REQUIRED_OPS.has(op);
    const chars = fc.constantFrom(...valueChars(op));
    const str = fc.string({ unit: chars, minLength: required ? 1 : 0, maxLength: 8 });
    const modifier = fc.constantFrom<'' | '*' | ':3'>('', '*', ':3');
    return fc
      .array(fc.tuple(modifier, str, fc.array(str, { minLength: 1, maxLength: 3 }), fc.boolean()), { minLength: 1, maxLength: 3 })
      .chain((raw) => {
        // One exploded variable at most where values are split by position (the unnamed operators).
        let exploded = false;
        const vars = raw.map(([mod, s, list, present], i): GenVar => {
          const name = `v${base + i}`;
          const explode = mod === '*' && (NAMED_OPS.has(op) || !exploded);
          exploded ||= explode;
          const m = explode ? '*' : mod === ':3' ? ':3' : '';
          // Named variables may be absent; a fragment's all or none (its values are read by position).
          const absent = NAMED_OPS.has(op) ? !present : op === '#' ? !raw[0]![3] : false;
          const value = absent ? undefined : explode ? list : s;
          const want = value === undefined ? undefined : explode ? list : m === ':3' ? Array.from(s).slice(0, 3).join('') : s;
          return { spec: `${name}${m}`, name, value, want };
        });
        return fc.constant({ text: `{${op}${vars.map((v) => v.spec).join(',')}}`, vars });
      });
  });
}

/** A template: a head, expressions with a separator after each (but perhaps the last), and the variables. */
const template = fc
  .tuple(fc.constantFrom('', 'notes://', 'file:///'), fc.array(fc.constantFrom(...SEPARATORS), { minLength: 1, maxLength: 4 }), fc.boolean())
  .chain(([head, seps, tail]) =>
    fc.tuple(...seps.map((_, i) => expression(i * 3))).map((exprs) => ({
      text: head + exprs.map((e, i) => e.text + (i < exprs.length - 1 || tail ? seps[i] : '')).join(''),
      vars: exprs.flatMap((e) => e.vars),
    })),
  );

describe('property: match(expand(template, values)) gives the values back', () => {
  it('for templates of every operator and modifier, values of any characters', () => {
    fc.assert(
      fc.property(template, ({ text, vars }) => {
        const values = Object.fromEntries(vars.map((v) => [v.name, v.value]));
        const want = Object.fromEntries(vars.filter((v) => v.want !== undefined).map((v) => [v.name, v.want]));
        const uri = expandUriTemplate(text, values);
        expect(matchTemplate(text, uri), `${text} → ${uri}`).toEqual(want);
      }),
      { numRuns: 1000 },
    );
  });
});
