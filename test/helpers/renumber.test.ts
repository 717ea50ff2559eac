/**
 * Renumbering of request ids and progress tokens (renumber.ts): table-driven cases, then the property the
 * replay relies on: the recordings are already renumbered (a fixed point), and a stream with other ids
 * renumbers to the same messages as the recording.
 */
import { describe, expect, it } from 'vitest';
import type { Side } from './recordings.ts';
import { loadMcpSessions } from './recordings.ts';
import { createRenumbering } from './renumber.ts';

type Stream = Array<[Side, unknown]>;
const renumber = (stream: Stream) => {
  const r = createRenumbering();
  return stream.map(([from, m]) => r.apply(from, m));
};
const req = (id: unknown, method = 'ping', params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const res = (id: unknown) => ({ jsonrpc: '2.0', id, result: {} });
const note = (method: string, params: unknown) => ({ jsonrpc: '2.0', method, params });
const progress = (token: unknown) => note('notifications/progress', { progressToken: token, progress: 1 });

const CASES: Array<[string, { given: Stream; want: unknown[] }]> = [
  [
    'client request ids in order of appearance, whatever their type',
    {
      given: [
        ['client', req(7)],
        ['client', req('abc')],
        ['client', req(0)],
      ],
      want: [req('c1'), req('c2'), req('c3')],
    },
  ],
  [
    'a response maps through the table of the request it answers',
    {
      given: [
        ['client', req(7)],
        ['client', req(8)],
        ['server', res(8)],
        ['server', res(7)],
      ],
      want: [req('c1'), req('c2'), res('c2'), res('c1')],
    },
  ],
  [
    'server request ids are s1, s2… and the client reply maps through them',
    {
      given: [
        ['client', req(1, 'tools/call')],
        ['server', req(0, 'elicitation/create')],
        ['client', res(0)],
        ['server', res(1)],
      ],
      want: [req('c1', 'tools/call'), req('s1', 'elicitation/create'), res('s1'), res('c1')],
    },
  ],
  [
    'the same value used by both sides is two different ids',
    {
      given: [
        ['client', req(1)],
        ['server', req(1)],
        ['client', res(1)],
        ['server', res(1)],
      ],
      want: [req('c1'), req('s1'), res('s1'), res('c1')],
    },
  ],
  [
    'the string "1" and the integer 1 are different ids',
    {
      given: [
        ['client', req('1')],
        ['client', req(1)],
        ['server', res(1)],
      ],
      want: [req('c1'), req('c2'), res('c2')],
    },
  ],
  [
    'a null id stays null; an id nobody sent is marked unknown',
    {
      given: [
        ['server', { jsonrpc: '2.0', id: null, error: { code: -32700 } }],
        ['server', res('x')],
      ],
      want: [{ jsonrpc: '2.0', id: null, error: { code: -32700 } }, res('unknown:"x"')],
    },
  ],
  [
    'a progress token equal to a client request id maps to that id (_meta and notification)',
    {
      given: [
        ['client', req(42, 'tools/call', { _meta: { progressToken: 42 } })],
        ['server', progress(42)],
        ['server', res(42)],
      ],
      want: [req('c1', 'tools/call', { _meta: { progressToken: 'c1' } }), progress('c1'), res('c1')],
    },
  ],
  [
    'other progress tokens get p1, p2… consistently',
    {
      given: [
        ['client', req(1, 'tools/call', { _meta: { progressToken: 'tok-b' } })],
        ['client', req(2, 'tools/call', { _meta: { progressToken: 'tok-a' } })],
        ['server', progress('tok-a')],
        ['server', progress('tok-b')],
      ],
      want: [
        req('c1', 'tools/call', { _meta: { progressToken: 'p1' } }),
        req('c2', 'tools/call', { _meta: { progressToken: 'p2' } }),
        progress('p2'),
        progress('p1'),
      ],
    },
  ],
  [
    'notifications/cancelled refers to a request of its sender',
    {
      given: [
        ['client', req(9)],
        ['client', note('notifications/cancelled', { requestId: 9, reason: 'x' })],
      ],
      want: [req('c1'), note('notifications/cancelled', { requestId: 'c1', reason: 'x' })],
    },
  ],
  [
    'non-objects and notifications pass through unchanged',
    {
      given: [
        ['server', [1, 2]],
        ['server', 'text'],
        ['client', note('notifications/initialized', { a: 1 })],
      ],
      want: [[1, 2], 'text', note('notifications/initialized', { a: 1 })],
    },
  ],
];

describe('renumbering', () => {
  it.each(CASES)('%s', (_, { given, want }) => {
    expect(renumber(given)).toStrictEqual(want);
  });

  it('does not change the messages it is given', () => {
    const message = req(5, 'tools/call', { _meta: { progressToken: 5 } });
    const copy = structuredClone(message);
    createRenumbering().apply('client', message);
    expect(message).toStrictEqual(copy);
  });

  it.each(loadMcpSessions().map((s) => [s.name, s] as const))('recording %s is a fixed point', (_, session) => {
    const json = session.messages.filter((m) => m.json).map((m) => [m.from, m.json] as [Side, unknown]);
    expect(renumber(json)).toStrictEqual(json.map(([, m]) => m));
  });

  it('a stream with other ids renumbers to the recording', () => {
    const recorded: Stream = [
      ['client', req('c1', 'tools/call', { _meta: { progressToken: 'c1' } })],
      ['server', req('s1', 'sampling/createMessage')],
      ['server', progress('c1')],
      ['client', res('s1')],
      ['server', res('c1')],
    ];
    const actual: Stream = [
      ['client', req(100, 'tools/call', { _meta: { progressToken: 100 } })],
      ['server', req('srv-7', 'sampling/createMessage')],
      ['server', progress(100)],
      ['client', res('srv-7')],
      ['server', res(100)],
    ];
    expect(renumber(actual)).toStrictEqual(renumber(recorded));
  });
});
