/**
 * @module load/proto — a small proto3 reader: services with their google.api.http annotations, and
 * messages with field behaviours and oneofs (facts the A2A bundled JSON Schema leaves out).
 *
 * It reads what a2a.proto uses (proto3 syntax, comments, options, nested messages and enums, maps,
 * oneofs, message-literal option values, reserved names and numbers) and reports anything else as an error
 * with line and column. Every declaration keeps its line, column and leading comment (`doc`, as protoc
 * attaches it: load/proto-lex.ts), for the diffs' locations and the A2A doc comments.
 */
import { fail } from '../errors.ts';
import { tokenize, type LexOptions, type Token } from './proto-lex.ts';

import type {
  HttpRule,
  ProtoLocated,
  ProtoRpc,
  ProtoService,
  ProtoField,
  ProtoMessage,
  ProtoEnumValue,
  ProtoEnum,
  ProtoFile,
} from './proto-types.ts';

export type {
  HttpRule,
  ProtoLocated,
  ProtoReserved,
  ProtoRpc,
  ProtoService,
  ProtoField,
  ProtoMessage,
  ProtoEnumValue,
  ProtoEnum,
  ProtoFile,
} from './proto-types.ts';

/**
 * The name a proto type has in the bundle and the wire-order tables: the type without the file's package
 * (`lf.a2a.v1.Task` → `Task`, `Task.Status` stays) or, for a well-known type, without `google.protobuf.`
 * (`google.protobuf.Empty` → `Empty`). The bundled JSON Schema names its definitions the same way.
 */
export function protoTypeName(proto: Pick<ProtoFile, 'package'>, type: string): string {
  for (const prefix of [`${proto.package}.`, 'google.protobuf.']) if (type.startsWith(prefix)) return type.slice(prefix.length);
  return type;
}

/** lowerCamelCase as protoc derives json_name: drop underscores, capitalise the letter after each. */
export function protoJsonName(field: string): string {
  return field.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

type Literal = string | number | boolean | LiteralObject;
interface LiteralObject {
  [key: string]: Literal | Literal[];
}

/** Where token `t` is, with its leading comment. */
function located(t: Token): ProtoLocated {
  return { line: t.line, column: t.column, ...(t.leading !== undefined ? { doc: t.leading } : {}) };
}

/** Parses a .proto file's text; `file` names it in errors. */
export function parseProto(text: string, file: string, options: LexOptions = {}): ProtoFile {
  const tokens = tokenize(text, file, options);
  let p = 0;
  const services: ProtoService[] = [];
  const messages = new Map<string, ProtoMessage>();
  const enums = new Map<string, ProtoEnum>();
  let pkg = '';
  let packageAt: ProtoLocated = { line: 1, column: 1 };

  const peek = (): Token | undefined => tokens[p];
  const error = (message: string, t: Token | undefined = peek()): never => fail({ file, line: t?.line ?? 1, column: t?.column ?? 1, message });
  const next = (): Token => tokens[p++] ?? error('unexpected end of file');
  const expect = (text: string): Token => {
    const t = next();
    if (t.text !== text || t.kind === 'string') error(`expected '${text}', found '${t.text}'`, t);
    return t;
  };
  const accept = (text: string): boolean => {
    const t = peek();
    if (t && t.kind !== 'string' && t.text === text) {
      p++;
      return true;
    }
    return false;
  };
  const ident = (): string => {
    const t = next();
    if (t.kind !== 'ident') error(`expected a name, found '${t.text}'`, t);
    return t.text;
  };

  // Option names: `deprecated`, `(google.api.http)`, `(a.b).c`.
  const optionName = (): string => {
    let name = '';
    if (accept('(')) {
      name = `(${ident()})`;
      expect(')');
    } else name = ident();
    while (peek()?.kind === 'ident' && peek()!.text.startsWith('.')) name += next().text;
    return name;
  };
  const scalar = (): Literal => {
    const t = next();
    if (t.kind === 'string') {
      let s = t.text;
      while (peek()?.kind === 'string') s += next().text; // adjacent string literals concatenate
      return s;
    }
    if (t.kind === 'number') return Number(t.text);
    if (t.kind === 'ident') return t.text === 'true' ? true : t.text === 'false' ? false : t.text;
    return error(`expected a value, found '${t.text}'`, t);
  };
  // Text-format message literal: `{ key: value key { ... } }`; repeated keys collect into arrays.
  const messageLiteral = (): LiteralObject => {
    expect('{');
    const obj: LiteralObject = {};
    while (!accept('}')) {
      const key = ident();
      accept(':');
      const value: Literal = peek()?.text === '{' && peek()?.kind === 'punct' ? messageLiteral() : scalar();
      const prev = obj[key];
      obj[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
      accept(',') || accept(';');
    }
    return obj;
  };
  const optionValue = (): Literal => (peek()?.text === '{' && peek()?.kind === 'punct' ? messageLiteral() : scalar());
  /**
   * `option name = value;` after the `option` keyword: read and returned as a name/value pair. The `;` is
   * required, except inside an rpc's body (`terminated: false`), where the reader has always let it go.
   */
  const optionStatement = (terminated = true): [string, Literal] => {
    const name = optionName();
    expect('=');
    const value = optionValue();
    if (terminated) expect(';');
    else accept(';');
    return [name, value];
  };
  /** `reserved 2, 9 to 11;` or `reserved "foo", "bar";` after the keyword, added to `into`. */
  const reservedStatement = (into: { numbers: [number, number][]; names: string[] }) => {
    do {
      const t = next();
      if (t.kind === 'string') into.names.push(t.text);
      else if (t.kind === 'number') {
        const from = Number(t.text);
        const to = accept('to') ? (accept('max') ? Number.MAX_SAFE_INTEGER : Number(next().text)) : from;
        into.numbers.push([from, to]);
      } else error(`expected a number or a name in reserved, found '${t.text}'`, t);
    } while (accept(','));
    expect(';');
  };

  const httpRules = (lit: LiteralObject, t: Token): HttpRule[] => {
    const rules: HttpRule[] = [];
    const verbs = ['get', 'post', 'put', 'patch', 'delete'] as const;
    const one = (o: LiteralObject) => {
      const verb = verbs.find((v) => typeof o[v] === 'string');
      if (!verb) error('google.api.http binding has no get/post/put/patch/delete path', t);
      const body = o['body'];
      rules.push({
        verb: verb!.toUpperCase() as HttpRule['verb'],
        path: o[verb!] as string,
        ...(typeof body === 'string' ? { body } : {}),
      });
    };
    one(lit);
    const extra = lit['additional_bindings'];
    for (const b of extra === undefined ? [] : Array.isArray(extra) ? extra : [extra]) one(b as LiteralObject);
    return rules;
  };

  const parseService = () => {
    const keyword = tokens[p - 1]!;
    const name = ident();
    expect('{');
    const rpcs: ProtoRpc[] = [];
    while (!accept('}')) {
      if (accept('option')) {
        optionStatement();
        continue;
      }
      const rpcTok = peek()!;
      if (!accept('rpc')) error(`expected 'rpc' in service ${name}, found '${peek()?.text}'`);
      const rpcName = ident();
      expect('(');
      const clientStreaming = accept('stream');
      const input = ident();
      expect(')');
      expect('returns');
      expect('(');
      const serverStreaming = accept('stream');
      const output = ident();
      expect(')');
      let http: HttpRule[] = [];
      if (accept('{')) {
        while (!accept('}')) {
          const optTok = peek();
          expect('option');
          const [oname, value] = optionStatement(false);
          if (oname === '(google.api.http)') http = httpRules(value as LiteralObject, optTok!);
        }
      } else expect(';');
      rpcs.push({ name: rpcName, input, output, clientStreaming, serverStreaming, http, ...located(rpcTok) });
    }
    services.push({ name, rpcs, ...located(keyword) });
  };

  const fieldOptions = (): string[] => {
    const behaviors: string[] = [];
    if (!accept('[')) return behaviors;
    do {
      const oname = optionName();
      expect('=');
      const value = optionValue();
      if (oname === '(google.api.field_behavior)') behaviors.push(String(value));
    } while (accept(','));
    expect(']');
    return behaviors;
  };

  const parseEnum = (prefix: string) => {
    const keyword = tokens[p - 1]!;
    const name = prefix + ident();
    expect('{');
    const values: ProtoEnumValue[] = [];
    const reserved = { numbers: [] as [number, number][], names: [] as string[] };
    while (!accept('}')) {
      if (accept('option')) {
        optionStatement();
        continue;
      }
      if (accept('reserved')) {
        reservedStatement(reserved);
        continue;
      }
      const at = peek()!;
      const vname = ident();
      expect('=');
      const num = Number(next().text);
      fieldOptions();
      expect(';');
      values.push({ name: vname, number: num, ...located(at) });
    }
    enums.set(name, { name, values, reserved, ...located(keyword) });
  };

  const parseMessage = (prefix: string) => {
    const keyword = tokens[p - 1]!;
    const name = prefix + ident();
    expect('{');
    const fields: ProtoField[] = [];
    const oneofs: string[] = [];
    const reserved = { numbers: [] as [number, number][], names: [] as string[] };
    const field = (oneof: string | undefined) => {
      const at = peek()!;
      let repeated = false;
      let optional = false;
      let map: { key: string; value: string } | undefined;
      let type: string;
      if (accept('repeated')) repeated = true;
      else if (accept('optional')) optional = true;
      if (accept('map')) {
        expect('<');
        const key = ident();
        expect(',');
        const value = ident();
        expect('>');
        map = { key, value };
        type = `map<${key},${value}>`;
      } else type = ident();
      const fname = ident();
      expect('=');
      const number = Number(next().text);
      const behaviors = fieldOptions();
      expect(';');
      fields.push({
        name: fname,
        jsonName: protoJsonName(fname),
        type,
        number,
        repeated,
        optional,
        ...(map ? { map } : {}),
        behaviors,
        ...(oneof ? { oneof } : {}),
        ...located(at),
      });
    };
    while (!accept('}')) {
      if (accept('message')) parseMessage(`${name}.`);
      else if (accept('enum')) parseEnum(`${name}.`);
      else if (accept('option')) optionStatement();
      else if (accept('reserved')) reservedStatement(reserved);
      else if (accept('oneof')) {
        const group = ident();
        oneofs.push(group);
        expect('{');
        while (!accept('}')) {
          if (accept('option')) optionStatement();
          else field(group);
        }
      } else field(undefined);
    }
    messages.set(name, { name, fields, oneofs, reserved, ...located(keyword) });
  };

  while (p < tokens.length) {
    const t = next();
    switch (t.text) {
      case 'syntax':
      case 'edition':
        expect('=');
        scalar();
        expect(';');
        break;
      case 'package':
        packageAt = located(t);
        pkg = ident();
        expect(';');
        break;
      case 'import':
        accept('public') || accept('weak');
        scalar();
        expect(';');
        break;
      case 'option':
        optionStatement();
        break;
      case 'service':
        parseService();
        break;
      case 'message':
        parseMessage('');
        break;
      case 'enum':
        parseEnum('');
        break;
      case ';':
        break;
      default:
        error(`unexpected '${t.text}' at top level`, t);
    }
  }
  return { file, package: pkg, packageAt, services, messages, enums };
}
