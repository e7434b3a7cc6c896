// Every config the engine accepts, set to its lowest and its highest legal value in turn (each
// value of an enumeration, both booleans), on a running cluster with a producer and a consumer:
// each is refused with a message or runs a simulated minute. Run as a worker thread by
// src/sim/configBounds.test.ts, which watches the wall time of each case (a config that stops
// simulated time never returns from advance(), and only a watchdog outside the thread sees it).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  CONFIG_DEFS,
  CONSUMER_CONFIGS,
  createSimulation,
  PRODUCER_CONFIGS,
  ScenarioError,
  type Scenario,
} from '../src/sim';
import type { ConfigValue } from '../src/sim/types';
import { presets } from '../src/scenario/presets';

export type BoundKind = 'cluster' | 'topic' | 'producer' | 'consumer';

export interface BoundCase {
  kind: BoundKind;
  name: string;
  value: ConfigValue;
}

const INT_MAX = 2147483647;
/** The largest long a JSON number carries exactly; the config registry clamps to it. */
const LONG_MAX = Number.MAX_SAFE_INTEGER;
/** Virtual time each accepted case runs. */
export const BOUND_RUN_MS = 60_000;

/** The legal extremes of a config: [min, max] of a number, every value of an enumeration, both booleans. */
function extremes(def: {
  type: string;
  min?: number;
  max?: number;
  values?: string[];
  default: ConfigValue;
}): ConfigValue[] {
  if (def.type === 'boolean') return [false, true];
  if (def.values) return def.values;
  if (def.type === 'int' || def.type === 'long' || def.type === 'double') {
    const top = def.type === 'int' ? INT_MAX : LONG_MAX;
    return [def.min ?? (def.type === 'int' ? -INT_MAX - 1 : 0), def.max ?? top];
  }
  return [def.default];
}

export function boundCases(): BoundCase[] {
  const out: BoundCase[] = [];
  for (const def of Object.values(CONFIG_DEFS)) {
    const kind: BoundKind | undefined = def.scopes.includes('cluster')
      ? 'cluster'
      : def.scopes.includes('topic')
        ? 'topic'
        : undefined;
    if (!kind) continue;
    for (const value of extremes(def)) out.push({ kind, name: def.name, value });
    // A topic config with a cluster-wide default is also tried on the topic itself.
    if (kind === 'cluster' && def.scopes.includes('topic'))
      for (const value of extremes(def)) out.push({ kind: 'topic', name: def.name, value });
  }
  for (const [name, def] of Object.entries(PRODUCER_CONFIGS))
    if (def.type !== 'brokers')
      for (const value of extremes(def)) out.push({ kind: 'producer', name, value });
  for (const [name, def] of Object.entries(CONSUMER_CONFIGS))
    if (def.type !== 'brokers')
      for (const value of extremes(def)) out.push({ kind: 'consumer', name, value });
  return out;
}

/** The three-brokers cluster with a producer and a consumer, and `c` set. */
function scenarioOf(c: BoundCase): Scenario {
  const base = structuredClone(presets['three-brokers']!.scenario);
  const topic = base.topics![0]!;
  const producerConfig = c.kind === 'producer' ? { [c.name]: c.value } : undefined;
  const consumerConfig = c.kind === 'consumer' ? { [c.name]: c.value } : undefined;
  return {
    ...base,
    ...(c.kind === 'cluster' ? { config: { [c.name]: c.value } } : {}),
    topics: [c.kind === 'topic' ? { ...topic, config: { [c.name]: c.value } } : topic],
    script: [
      {
        atMs: 0,
        command: {
          type: 'startProducer',
          producerId: 'producer-1',
          topic: topic.name,
          ratePerSec: 50,
          ...(producerConfig ? { config: producerConfig } : {}),
        },
      },
      {
        atMs: 0,
        command: {
          type: 'startConsumer',
          consumerId: 'consumer-1',
          groupId: 'group-1',
          topics: [topic.name],
          ...(consumerConfig ? { config: consumerConfig } : {}),
        },
      },
    ],
  };
}

export type BoundOutcome = { outcome: 'refused'; message: string } | { outcome: 'ran'; nowMs: number };

/** Builds the case's cluster and runs it BOUND_RUN_MS, or says why it was refused. */
export function runBoundCase(c: BoundCase): BoundOutcome {
  let sim;
  try {
    sim = createSimulation(scenarioOf(c));
  } catch (error) {
    if (error instanceof ScenarioError) return { outcome: 'refused', message: error.message };
    throw error;
  }
  sim.advance(BOUND_RUN_MS);
  return { outcome: 'ran', nowMs: sim.nowMs };
}

// As a worker: run the cases from `from`, saying when each starts and how it ended.
if (!isMainThread && (workerData as { boundsFrom?: number } | null)?.boundsFrom !== undefined) {
  const cases = boundCases();
  for (let i = (workerData as { boundsFrom: number }).boundsFrom; i < cases.length; i++) {
    parentPort!.postMessage({ type: 'start', index: i });
    const started = Date.now();
    let result: BoundOutcome | { outcome: 'threw'; message: string };
    try {
      result = runBoundCase(cases[i]!);
    } catch (error) {
      result = { outcome: 'threw', message: String(error) };
    }
    parentPort!.postMessage({ type: 'done', index: i, result, wallMs: Date.now() - started });
  }
}
