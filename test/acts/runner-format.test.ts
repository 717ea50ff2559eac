/**
 * The ACTS runner's format layer: the shipped suites load (their counts are the A2A project's: 111 tests,
 * 65 must), bad documents are refused with one line naming file:line:col, and the assertion language, the
 * variables, the until conditions and §7.1's ordering rule behave as the specification's text says. Every
 * case below is ours.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { match } from '../../generator/acts/check/match.ts';
import { checkStream, orderingMismatches } from '../../generator/acts/check/stream.ts';
import { holds, parseUntil, type Until } from '../../generator/acts/check/until.ts';
import { interpolate, UnresolvedVariableError } from '../../generator/acts/check/vars.ts';
import { loadActs } from '../../generator/acts/format/load.ts';
import { shippedSuites } from '../../generator/acts/suites.ts';
import { InputError } from '../../generator/errors.ts';

describe('the shipped suites', () => {
  it('load: 111 tests, 65 of them must, every test id once', () => {
    const suites = shippedSuites();
    const tests = suites.flatMap((s) => s.tests);
    expect(tests).toHaveLength(111);
    expect(tests.filter((t) => t.level === 'must')).toHaveLength(65);
    expect(new Set(suites.map((s) => s.file)).size).toBe(14);
    expect(suites[0]!.variables['baseUrl']).toBe('{{SUT_BASE_URL}}');
  });
});

describe('a bad document', () => {
  const write = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'acts-format-'));
    writeFileSync(join(dir, 'bad.acts.yaml'), text);
    return dir;
  };
  const problem = (text: string) => {
    const dir = write(text);
    try {
      loadActs('bad.acts.yaml', dir);
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      return (e as InputError).message;
    }
    throw new Error('loaded');
  };
  const head = 'acts_version: "1.0"\nspec_version: "1.0"\nsuites:\n  - id: s\n    name: S\n    tests:\n';
  it('names the line and column of a bad level', () => {
    expect(
      problem(
        `${head}      - id: T-1\n        name: t\n        level: sometimes\n        steps:\n          - id: a\n            operation: get_task\n            params: {}\n`,
      ),
    ).toBe('bad.acts.yaml:9:16: level is must, should or may (§3.2)');
  });
  it('refuses an unknown operation, a step with two actions, and a bad until', () => {
    const steps = (step: string) => `${head}      - id: T-1\n        name: t\n        level: must\n        steps:\n${step}`;
    expect(problem(steps('          - id: a\n            operation: send_mail\n            params: {}\n'))).toMatch(
      /^bad\.acts\.yaml:12:24: unknown operation "send_mail"/,
    );
    expect(
      problem(steps('          - id: a\n            operation: get_task\n            params: {}\n            raw: {method: GET, path: /}\n')),
    ).toMatch(/a step has one action, not operation and raw/);
    expect(
      problem(
        steps('          - id: a\n            operation: get_task\n            params: {}\n            repeat: {until: "status.state ~ DONE"}\n'),
      ),
    ).toMatch(/^bad\.acts\.yaml:14:29: until "status.state ~ DONE" is not/);
  });
  it('refuses an ACTS major version it does not read (§17)', () => {
    expect(problem('acts_version: "2.0"\nspec_version: "1.0"\ninclude: [x.yaml]\n')).toBe(
      'bad.acts.yaml:1:15: acts_version 2.0: this runner reads ACTS 1.x',
    );
  });
});

describe('assertions (§5)', () => {
  const ok = (actual: unknown, assertion: unknown) => expect(match(actual, assertion)).toEqual([]);
  const bad = (actual: unknown, assertion: unknown) => expect(match(actual, assertion).length).toBeGreaterThan(0);
  it('every operator holds and fails', () => {
    const table: [unknown, unknown, unknown][] = [
      // [assertion, a value it holds of, a value it does not]
      [{ type: 'string' }, 'x', 1],
      [{ type: 'number' }, 1.5, '1'],
      [{ type: 'boolean' }, false, 0],
      [{ type: 'array' }, [], {}],
      [{ type: 'object' }, {}, []],
      [{ type: 'null' }, null, undefined],
      [{ exists: true }, null, undefined],
      [{ contains: 'ell' }, 'hello', 'help'],
      [{ matches: '^a.c$' }, 'abc', 'abcd'],
      [{ starts_with: 'ab' }, 'abc', 'cab'],
      [{ ends_with: 'bc' }, 'abc', 'bca'],
      [{ gte: 2 }, 2, 1],
      [{ lte: 2 }, 2, 3],
      [{ gt: 2 }, 3, 2],
      [{ lt: 2 }, 1, 2],
      [{ count: 2 }, [1, 2], [1]],
      [{ count_gte: 2 }, [1, 2, 3], [1]],
      [{ count_lte: 1 }, [1], [1, 2]],
      [{ one_of: ['A', 'B'] }, 'B', 'C'],
      [{ all_of: [{ type: 'string' }, { contains: 'x' }] }, 'xy', 'y'],
      [{ any_of: [{ contains: 'x' }, { contains: 'y' }] }, 'y', 'z'],
      [{ not: { contains: 'x' } }, 'y', 'x'],
      [{ items: [{ '@type': { type: 'string' } }] }, [{ '@type': 'E' }], [{}]],
      ['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED', 'TASK_STATE_WORKING'],
      [200, 200, '200'],
    ];
    for (const [assertion, yes, no] of table) {
      ok(yes, assertion);
      bad(no, assertion);
    }
  });
  it('absent holds of a missing field only', () => {
    ok({}, { a: { absent: true } });
    bad({ a: null }, { a: { absent: true } });
  });
  it('nests maps and lists as the response does, extra elements allowed', () => {
    const task = { status: { state: 'S' }, artifacts: [{ parts: [{ text: 'hi' }, { data: {} }] }, { parts: [] }] };
    ok(task, { status: { state: 'S' }, artifacts: [{ parts: [{ text: { type: 'string' } }] }] });
    expect(match(task, { artifacts: [{ parts: [{ text: 'ho' }] }] })[0]).toMatchObject({
      path: 'artifacts[0].parts[0].text',
      expected: '"ho"',
      actual: '"hi"',
    });
  });
  it('a key whose value is not an operator shape is a field (problem details `type`)', () => {
    ok({ type: 'about:blank', status: 404 }, { type: { type: 'string' }, status: { type: 'number' } });
    bad({ status: 404 }, { type: { type: 'string' } });
  });
  it('one_of takes patterns as well as values (STREAM-SSE-004)', () => {
    ok({ task: { status: { state: 'X' } } }, { one_of: [{ task: { status: { exists: true } } }, { status_update: {} }] });
  });
});

describe('variables (§8.1, §12.2)', () => {
  const scope = {
    steps: new Map([['send', { taskId: 't-1', response: { task: { id: 't-1' } } }]]),
    runner: { webhookUrl: 'http://127.0.0.1:1/hook', SUT_BASE_URL: 'http://agent' },
    document: { webhookUrl: 'https://example.com', baseUrl: '{{SUT_BASE_URL}}/x' },
    env: { HOME_X: 'h' },
  };
  it('captures, then the runner, then the document, then env, then $uuid', () => {
    expect(interpolate({ id: '{{send.taskId}}', url: '{{webhookUrl}}', base: 'at {{baseUrl}}', e: '{{env.HOME_X}}' }, scope)).toEqual({
      id: 't-1',
      url: 'http://127.0.0.1:1/hook',
      base: 'at http://agent/x',
      e: 'h',
    });
    expect(interpolate('{{send.response}}', scope)).toEqual({ task: { id: 't-1' } });
    const [a, b] = interpolate(['{{$uuid}}', '{{$uuid}}'], scope) as string[];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
  it('an unresolved reference is an error naming it', () => {
    expect(() => interpolate('{{missing.value}}', scope)).toThrow(UnresolvedVariableError);
    expect(() => interpolate('{{send.nothing}}', scope)).toThrow('cannot resolve {{send.nothing}}: step send captured no nothing');
  });
});

describe('until (§9.1) and stream ordering (§7.1)', () => {
  it('parses ==, != and in', () => {
    const u = parseUntil('status.state in [TASK_STATE_COMPLETED, TASK_STATE_FAILED]') as Until;
    expect(holds(u, { status: { state: 'TASK_STATE_FAILED' } }).ok).toBe(true);
    expect(holds(u, { status: { state: 'TASK_STATE_WORKING' } }).ok).toBe(false);
    expect(holds(parseUntil('a[0].b != 3') as Until, { a: [{ b: 3 }] }).ok).toBe(false);
  });
  const status = (state: string) => ({ statusUpdate: { status: { state } } });
  it('fails a regression from a terminal state and a return to SUBMITTED, allows the rest', () => {
    expect(
      orderingMismatches([{ task: { status: { state: 'TASK_STATE_SUBMITTED' } } }, status('TASK_STATE_WORKING'), status('TASK_STATE_COMPLETED')]),
    ).toEqual([]);
    expect(orderingMismatches([status('TASK_STATE_INPUT_REQUIRED'), status('TASK_STATE_WORKING'), status('TASK_STATE_WORKING')])).toEqual([]);
    expect(orderingMismatches([status('TASK_STATE_COMPLETED'), status('TASK_STATE_WORKING')])[0]!.message).toMatch(
      /TASK_STATE_COMPLETED -> TASK_STATE_WORKING is an illegal/,
    );
    expect(orderingMismatches([status('TASK_STATE_WORKING'), status('TASK_STATE_SUBMITTED')])).toHaveLength(1);
  });
  it('matches events at a position, at any position, the final one and each one', () => {
    const events = [status('TASK_STATE_WORKING'), { artifactUpdate: { artifact: { parts: [{ text: 'a' }] } } }, status('TASK_STATE_COMPLETED')];
    const expectation = {
      min_count: 3,
      events: [
        { index: 0, status_update: { status: { state: 'TASK_STATE_WORKING' } } },
        { match: 'any_position' as const, artifact: { exists: true } },
      ],
      final_event: { status: { state: 'TASK_STATE_COMPLETED' } },
      each_event: { not: { type: 'null' } },
    };
    expect(checkStream(expectation, events, false)).toEqual([]);
    expect(checkStream({ max_count: 2, final_event: { status: { state: 'TASK_STATE_FAILED' } } }, events, false)).toHaveLength(2);
  });
});

describe('params on the wire (§4.3)', () => {
  it('a message gets a messageId; taskId and contextId beside it go into it; push configs are flat', async () => {
    const { wireParams, restRequest } = await import('../../generator/acts/wire/operations.ts');
    const sent = wireParams('SendMessage', { taskId: 't', contextId: 'c', message: { role: 'ROLE_USER', parts: [] } });
    expect(sent).toEqual({
      message: { messageId: expect.stringMatching(/^[0-9a-f-]{36}$/), role: 'ROLE_USER', parts: [], taskId: 't', contextId: 'c' },
    });
    expect(wireParams('CreateTaskPushNotificationConfig', { taskId: 't', pushNotificationConfig: { url: 'u' } })).toEqual({ taskId: 't', url: 'u' });
    expect(restRequest('GetTaskPushNotificationConfig', { taskId: 't 1', id: 'c' })).toEqual({
      verb: 'GET',
      path: '/tasks/t%201/pushNotificationConfigs/c',
      body: undefined,
    });
    expect(restRequest('GetTask', { id: 'x', historyLength: 0 })).toEqual({ verb: 'GET', path: '/tasks/x?historyLength=0', body: undefined });
  });
});
