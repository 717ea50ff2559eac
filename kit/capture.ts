/**
 * @module kit/capture — one capture: starts the agents, runs the scenarios in order (each with its own
 * recorder), renders each transcript, and stops everything. Returns the files of `out/` by name. A capture
 * that sees an agent log something (a failed execution, a lost push) or leaves a hold unused fails.
 */
import { seededIds } from './ids.ts';
import { startNetwork, type NetworkOptions } from './network.ts';
import { Recorder } from './recorder.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { CaptureError, createSession } from './session.ts';
import { renderTranscript } from './transcript.ts';

export interface CaptureOptions extends NetworkOptions {
  /** Called after each scenario (progress). */
  readonly progress?: (base: string, files: number) => void;
}

export async function capture(options: CaptureOptions = {}): Promise<Record<string, string>> {
  const net = await startNetwork(options);
  const files: Record<string, string> = {};
  const state = new Map<string, string>();
  const clientIds = seededIds('kit-client');
  try {
    for (const scenario of SCENARIOS) {
      const rec = new Recorder(net.fetch);
      const written: Record<string, string> = {};
      try {
        await scenario.run(createSession(net, rec, state, clientIds, written));
        await rec.settled();
      } catch (err) {
        throw new CaptureError(`${scenario.base}: ${(err as Error).message}`, { cause: err });
      }
      if (rec.exchanges.length) Object.assign(written, renderTranscript(scenario.base, scenario.summary, rec.exchanges).files);
      Object.assign(files, written);
      const unused = net.pacer.pending();
      if (unused.length) throw new CaptureError(`${scenario.base}: held ${unused.join(', ')} but no run got there`);
      options.progress?.(scenario.base, Object.keys(written).length);
    }
    await net.pushesSettled();
    if (net.logs.length) throw new CaptureError(`the agents logged:\n${net.logs.join('\n')}`);
  } finally {
    await net.close();
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
