/**
 * @module evolve/spec/agent — what changed for the clients of an A2A agent spec: its card's interfaces,
 * capabilities (streaming, pushNotifications, extendedAgentCard), extensions, input and output modes, skills,
 * security requirements and schemes (https://a2a-protocol.org/latest/specification/, "Agent Card").
 */
import { escapePointerToken } from '../../errors.ts';
import { isObject } from '../../load/schema.ts';
import { get, type SpecDiff, type SpecVersion, withoutDescription } from './compare.ts';

/** Every change between two A2A agent specs. */
export function diffAgent(d: SpecDiff): void {
  const card = '/card';
  d.items(
    `${card}/supportedInterfaces`,
    'protocolBinding',
    (n, p) => d.push('INTERFACE_NO_DELETE', 'wire-breaking', 'a', p, `interface ${n}`, `interface ${n} removed`),
    (n, p) => d.push('INTERFACE_ADDED', 'compatible', 'b', p, `interface ${n}`, `interface ${n} added`),
    (x, y, _pa, pb, n) => {
      for (const k of ['url', 'protocolVersion'])
        if (x[k] !== y[k])
          d.push(
            'INTERFACE_SAME',
            'wire-breaking',
            'b',
            `${pb}/${k}`,
            `interface ${n}`,
            `interface ${n} ${k} ${JSON.stringify(x[k])} → ${JSON.stringify(y[k])}`,
          );
    },
  );
  const caps = (v: SpecVersion) => {
    const c = get(v.data, `${card}/capabilities`);
    return isObject(c) ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'extensions')) : {};
  };
  d.flags(caps(d.a), caps(d.b), `${card}/capabilities`, 'capabilities');
  d.items(
    `${card}/capabilities/extensions`,
    'uri',
    (n, p) => d.push('EXTENSION_NO_DELETE', 'wire-breaking', 'a', p, `extension ${n}`, `extension ${n} removed`),
    (n, p) => {
      const ext = get(d.b.data, p);
      const required = isObject(ext) && ext['required'] === true;
      d.push(
        required ? 'EXTENSION_ADDED_REQUIRED' : 'EXTENSION_ADDED',
        required ? 'wire-breaking' : 'compatible',
        'b',
        p,
        `extension ${n}`,
        `extension ${n} added${required ? ', required' : ''}`,
      );
    },
    (x, y, _pa, pb, n) => {
      if ((x['required'] === true) !== (y['required'] === true))
        d.push(
          'EXTENSION_SAME_REQUIRED',
          y['required'] === true ? 'wire-breaking' : 'compatible',
          'b',
          `${pb}/required`,
          `extension ${n}`,
          `extension ${n} became ${y['required'] === true ? 'required' : 'optional'}`,
        );
    },
  );
  for (const k of ['defaultInputModes', 'defaultOutputModes'])
    d.modes(get(d.a.data, `${card}/${k}`), get(d.b.data, `${card}/${k}`), `${card}/${k}`, `${card}/${k}`, k);
  d.items(
    `${card}/skills`,
    'id',
    (n, p) => d.push('SKILL_NO_DELETE', 'wire-breaking', 'a', p, `skill ${n}`, `skill ${n} removed`),
    (n, p) => d.push('SKILL_ADDED', 'compatible', 'b', p, `skill ${n}`, `skill ${n} added`),
    (x, y, pa, pb, n) => {
      for (const k of ['inputModes', 'outputModes']) d.modes(x[k], y[k], `${pa}/${k}`, `${pb}/${k}`, `skill ${n} ${k}`);
    },
  );
  // Security requirements are alternatives (any one satisfies): none to some breaks every client without
  // credentials; an alternative removed breaks the clients that used it; one added is compatible.
  const alternatives = (v: SpecVersion) => {
    const r = get(v.data, `${card}/securityRequirements`);
    return Array.isArray(r) ? r.map((x) => JSON.stringify(x)) : [];
  };
  const [ra, rb] = [alternatives(d.a), alternatives(d.b)];
  const ptr = `${card}/securityRequirements`;
  if (!ra.length && rb.length)
    d.push('SECURITY_ADDED_REQUIRED', 'wire-breaking', 'b', ptr, 'securityRequirements', `requests now need credentials: ${rb.join(' or ')}`);
  else if (ra.length && !rb.length)
    d.push('SECURITY_NO_DELETE', 'compatible', 'a', ptr, 'securityRequirements', 'requests no longer need credentials');
  else {
    for (const r of ra)
      if (!rb.includes(r)) d.push('SECURITY_NO_DELETE', 'wire-breaking', 'a', ptr, 'securityRequirements', `security requirement ${r} removed`);
    for (const r of rb)
      if (!ra.includes(r)) d.push('SECURITY_ADDED', 'compatible', 'b', ptr, 'securityRequirements', `security requirement ${r} added`);
  }
  const schemes = (v: SpecVersion) => {
    const s = get(v.data, `${card}/securitySchemes`);
    return isObject(s) ? s : {};
  };
  const [sa, sb] = [schemes(d.a), schemes(d.b)];
  for (const name of Object.keys(sa))
    if (name in sb && JSON.stringify(withoutDescription(sa[name])) !== JSON.stringify(withoutDescription(sb[name])))
      d.push(
        'SECURITY_SCHEME_SAME',
        'wire-breaking',
        'b',
        `${card}/securitySchemes/${escapePointerToken(name)}`,
        `security scheme ${name}`,
        `security scheme ${name} changed`,
      );
}
