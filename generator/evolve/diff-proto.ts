/**
 * @module evolve/diff-proto — the changes between two pins' protos, as `buf breaking` sees them
 * (https://buf.build/docs/breaking/rules/): messages, their fields (matched by name, then a leftover by
 * number: renamed, renumbered, type, cardinality, oneof and REQUIRED changes), enums and their values,
 * services, rpcs (request and response types, streaming) and their google.api.http routes. Each finding is
 * located at the declaration's line and column in the newer proto, or the older one for what was removed.
 */
import { protoTypeName, type ProtoField, type ProtoFile, type ProtoLocated, type ProtoReserved } from '../load/proto.ts';
import type { Finding, FindingClass } from './findings.ts';

function cardinality(f: ProtoField): string {
  return f.map ? 'map' : f.repeated ? 'repeated' : f.optional ? 'optional' : 'singular';
}

function reserves(r: ProtoReserved, name: string, number: number): boolean {
  return r.names.includes(name) && r.numbers.some(([from, to]) => number >= from && number <= to);
}

/** Pairs two lists by name, then what is left by number. */
function pairUp<T extends { name: string; number: number }>(xs: readonly T[], ys: readonly T[]) {
  const byName = new Map(ys.map((y) => [y.name, y]));
  const pairs: [T, T][] = [];
  const leftA: T[] = [];
  for (const x of xs) {
    const y = byName.get(x.name);
    if (y) (pairs.push([x, y]), byName.delete(x.name));
    else leftA.push(x);
  }
  const leftB = [...byName.values()];
  const renamed: [T, T][] = [];
  const removed: T[] = [];
  for (const x of leftA) {
    const k = leftB.findIndex((y) => y.number === x.number);
    if (k >= 0) renamed.push([x, leftB.splice(k, 1)[0]!]);
    else removed.push(x);
  }
  return { pairs, renamed, removed, added: leftB };
}

export function diffProtos(a: ProtoFile, b: ProtoFile): Finding[] {
  const out: Finding[] = [];
  const push = (rule: string, cls: FindingClass, side: ProtoFile, where: ProtoLocated, subject: string, message: string) =>
    out.push({ rule, class: cls, file: side.file, line: where.line, column: where.column, subject, message });
  if (a.package !== b.package)
    push(
      'FILE_SAME_PACKAGE',
      'wire-breaking',
      b,
      b.packageAt,
      b.package,
      `package ${b.package}, was ${a.package}: every gRPC method path and type URL changes`,
    );
  const typeA = (t: string) => protoTypeName(a, t);
  const typeB = (t: string) => protoTypeName(b, t);

  for (const [name, ma] of a.messages) {
    const mb = b.messages.get(name);
    if (!mb) {
      push('MESSAGE_NO_DELETE', 'source-breaking', a, ma, name, `message ${name} removed`);
      continue;
    }
    const { pairs, renamed, removed, added } = pairUp(ma.fields, mb.fields);
    const compare = (fa: ProtoField, fb: ProtoField) => {
      const subject = `${name}.${fb.name}`;
      if (typeA(fa.type) !== typeB(fb.type))
        push('FIELD_SAME_TYPE', 'wire-breaking', b, fb, subject, `${subject} is ${typeB(fb.type)}, was ${typeA(fa.type)}`);
      if (cardinality(fa) !== cardinality(fb))
        push('FIELD_SAME_CARDINALITY', 'wire-breaking', b, fb, subject, `${subject} is ${cardinality(fb)}, was ${cardinality(fa)}`);
      if ((fa.oneof ?? '') !== (fb.oneof ?? ''))
        push('FIELD_SAME_ONEOF', 'wire-breaking', b, fb, subject, `${subject} is in oneof ${fb.oneof ?? '(none)'}, was in ${fa.oneof ?? '(none)'}`);
      const ra = fa.behaviors.includes('REQUIRED');
      const rb = fb.behaviors.includes('REQUIRED');
      if (ra !== rb)
        push('FIELD_SAME_REQUIRED', 'wire-breaking', b, fb, subject, `${subject} became ${rb ? 'REQUIRED' : 'optional (no longer REQUIRED)'}`);
    };
    for (const [fa, fb] of pairs) {
      if (fa.number !== fb.number)
        push(
          'FIELD_SAME_NUMBER',
          'wire-breaking',
          b,
          fb,
          `${name}.${fb.name}`,
          `${name}.${fb.name} is field ${fb.number}, was ${fa.number} (renumbered)`,
        );
      compare(fa, fb);
    }
    for (const [fa, fb] of renamed) {
      push(
        'FIELD_SAME_NAME',
        'wire-breaking',
        b,
        fb,
        `${name}.${fb.name}`,
        `field ${fb.number} of ${name} is "${fb.name}" (JSON "${fb.jsonName}"), was "${fa.name}" (JSON "${fa.jsonName}"): renamed`,
      );
      compare(fa, fb);
    }
    for (const fa of removed) {
      const kept = reserves(mb.reserved, fa.name, fa.number);
      push(
        'FIELD_NO_DELETE',
        kept ? 'source-breaking' : 'wire-breaking',
        a,
        fa,
        `${name}.${fa.name}`,
        `${name}.${fa.name} (field ${fa.number}) removed${kept ? ', its name and number reserved' : ''}`,
      );
    }
    for (const fb of added) {
      const required = fb.behaviors.includes('REQUIRED');
      push(
        'FIELD_ADDED',
        required ? 'wire-breaking' : 'compatible',
        b,
        fb,
        `${name}.${fb.name}`,
        `${name}.${fb.name} (field ${fb.number}) added${required ? ', REQUIRED' : ''}`,
      );
    }
  }
  for (const [name, mb] of b.messages) if (!a.messages.has(name)) push('MESSAGE_ADDED', 'compatible', b, mb, name, `message ${name} added`);

  for (const [name, ea] of a.enums) {
    const eb = b.enums.get(name);
    if (!eb) {
      push('ENUM_NO_DELETE', 'source-breaking', a, ea, name, `enum ${name} removed`);
      continue;
    }
    const { pairs, renamed, removed, added } = pairUp(ea.values, eb.values);
    for (const [va, vb] of pairs)
      if (va.number !== vb.number)
        push('ENUM_VALUE_SAME_NUMBER', 'wire-breaking', b, vb, `${name}.${vb.name}`, `${name}.${vb.name} is ${vb.number}, was ${va.number}`);
    for (const [va, vb] of renamed)
      push('ENUM_VALUE_SAME_NAME', 'wire-breaking', b, vb, `${name}.${vb.name}`, `${name} value ${vb.number} is ${vb.name}, was ${va.name}: renamed`);
    for (const va of removed) push('ENUM_VALUE_NO_DELETE', 'wire-breaking', a, va, `${name}.${va.name}`, `${name}.${va.name} (${va.number}) removed`);
    for (const vb of added) push('ENUM_VALUE_ADDED', 'compatible', b, vb, `${name}.${vb.name}`, `${name}.${vb.name} (${vb.number}) added`);
  }
  for (const [name, eb] of b.enums) if (!a.enums.has(name)) push('ENUM_ADDED', 'compatible', b, eb, name, `enum ${name} added`);

  for (const sa of a.services) {
    const sb = b.services.find((s) => s.name === sa.name);
    if (!sb) {
      push('SERVICE_NO_DELETE', 'wire-breaking', a, sa, sa.name, `service ${sa.name} removed`);
      continue;
    }
    for (const ra of sa.rpcs) {
      const rb = sb.rpcs.find((r) => r.name === ra.name);
      const subject = `${sa.name}.${ra.name}`;
      if (!rb) {
        push('RPC_NO_DELETE', 'wire-breaking', a, ra, subject, `rpc ${subject} removed`);
        continue;
      }
      if (typeA(ra.input) !== typeB(rb.input))
        push('RPC_SAME_REQUEST_TYPE', 'wire-breaking', b, rb, subject, `rpc ${subject} takes ${typeB(rb.input)}, took ${typeA(ra.input)}`);
      if (typeA(ra.output) !== typeB(rb.output))
        push('RPC_SAME_RESPONSE_TYPE', 'wire-breaking', b, rb, subject, `rpc ${subject} returns ${typeB(rb.output)}, returned ${typeA(ra.output)}`);
      if (ra.clientStreaming !== rb.clientStreaming)
        push(
          'RPC_SAME_CLIENT_STREAMING',
          'wire-breaking',
          b,
          rb,
          subject,
          `rpc ${subject} ${rb.clientStreaming ? 'takes' : 'no longer takes'} a stream`,
        );
      if (ra.serverStreaming !== rb.serverStreaming)
        push(
          'RPC_SAME_SERVER_STREAMING',
          'wire-breaking',
          b,
          rb,
          subject,
          `rpc ${subject} ${rb.serverStreaming ? 'returns' : 'no longer returns'} a stream`,
        );
      const key = (r: { verb: string; path: string }) => `${r.verb} ${r.path}`;
      for (const route of ra.http) {
        const match = rb.http.find((r) => key(r) === key(route));
        if (!match) push('HTTP_ROUTE_NO_DELETE', 'wire-breaking', a, ra, subject, `rpc ${subject} route ${key(route)} removed`);
        else if ((match.body ?? '') !== (route.body ?? ''))
          push(
            'HTTP_ROUTE_SAME_BODY',
            'wire-breaking',
            b,
            rb,
            subject,
            `rpc ${subject} route ${key(route)} body ${match.body ?? '(none)'}, was ${route.body ?? '(none)'}`,
          );
      }
      for (const route of rb.http)
        if (!ra.http.some((r) => key(r) === key(route)))
          push('HTTP_ROUTE_ADDED', 'compatible', b, rb, subject, `rpc ${subject} route ${key(route)} added`);
    }
    for (const rb of sb.rpcs)
      if (!sa.rpcs.some((r) => r.name === rb.name))
        push('RPC_ADDED', 'compatible', b, rb, `${sb.name}.${rb.name}`, `rpc ${sb.name}.${rb.name} added`);
  }
  return out;
}
