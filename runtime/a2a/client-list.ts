/**
 * @module a2a/client-list — the A2A client the runtime hands out (`connect`, `clientForCard`): the generated
 * client, with ListTasks checked one task at a time. A page whose tasks all match the pin's `Task` definition
 * is returned as it came; one that does not either fails naming the task (strict, the default) or is left out
 * of the page and reported (lenient), so one bad task does not hide the rest of the page.
 */
import {
  Client,
  InvalidResultError,
  methods,
  validators,
  type ListTasksRequest,
  type ListTasksResponse,
  type ValidationError,
} from '@wiregen/a2a-1.0';

const SCHEMA = 'A2A 1.0';

/** A task of a ListTasks page that does not match the schema. */
export interface InvalidTask {
  /** Its index in the page's `tasks`. */
  readonly index: number;
  /** Its `id`, when it has a string one. */
  readonly id: string | undefined;
  /** The task as the agent sent it. */
  readonly task: unknown;
  /** Where and why it does not match (pointers relative to the task). */
  readonly errors: readonly ValidationError[];
}

/**
 * How `listTasks` treats a task that does not match the schema. strict (the default): the call fails with an
 * {@link InvalidTaskError} naming the task; lenient: the task is left out of the returned page and handed to
 * `onInvalidTask`.
 */
export type ListTasksOptions =
  { readonly invalidTasks?: 'strict' } | { readonly invalidTasks: 'lenient'; readonly onInvalidTask: (bad: InvalidTask) => void };

/** A ListTasks page failed: the task at `/tasks/<index>` does not match the pin's Task definition. */
export class InvalidTaskError extends InvalidResultError {
  readonly index: number;
  readonly taskId: string | undefined;
  constructor(page: unknown, bad: InvalidTask) {
    super('ListTasks', page, bad.errors, SCHEMA);
    this.name = 'InvalidTaskError';
    this.index = bad.index;
    this.taskId = bad.id;
    const first = bad.errors[0];
    const why = first ? ` at /tasks/${bad.index}${first.instancePath}: ${first.message ?? first.keyword}` : '';
    this.message = `ListTasks: task ${bad.index}${bad.id === undefined ? '' : ` (id ${JSON.stringify(bad.id)})`} does not match the ${SCHEMA} Task schema${why}`;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class A2aClient extends Client {
  /** `ListTasks`, each task checked on its own (see {@link ListTasksOptions}); the rest of the page as the generated client checks it. */
  override async listTasks(params: ListTasksRequest = {}, options: ListTasksOptions = {}): Promise<ListTasksResponse> {
    const page = await this.transport.request('ListTasks', params, methods.ListTasks);
    const tasks = isObject(page) && Array.isArray(page['tasks']) ? (page['tasks'] as unknown[]) : undefined;
    // Everything but the tasks, against the page's own definition (a page without a tasks array included).
    const rest = tasks ? { ...(page as Record<string, unknown>), tasks: [] } : page;
    if (!validators.ListTasksResponse(rest)) throw new InvalidResultError('ListTasks', page, validators.ListTasksResponse.errors, SCHEMA);
    if (!tasks) return page as ListTasksResponse;
    const kept: unknown[] = [];
    tasks.forEach((task, index) => {
      if (validators.Task(task)) return void kept.push(task);
      const id = isObject(task) && typeof task['id'] === 'string' ? task['id'] : undefined;
      const bad: InvalidTask = { index, id, task, errors: [...(validators.Task.errors ?? [])] };
      if (options.invalidTasks !== 'lenient') throw new InvalidTaskError(page, bad);
      options.onInvalidTask(bad);
    });
    return (kept.length === tasks.length ? page : { ...(page as Record<string, unknown>), tasks: kept }) as ListTasksResponse;
  }
}
