// The worker host: owns the running Simulation and maps wall time to virtual time. It is the
// only place that reads the wall clock; the engine only ever sees advance(ms).
import { defaultScenario } from '../scenario/presets';
import { createSimulation, ScenarioError } from '../sim';
import type { Scenario } from '../sim/types';
import { unknownMessageError, type PageToWorker, type WorkerToPage } from './protocol';

type Simulation = ReturnType<typeof createSimulation>;

/** Wall-clock milliseconds between two ticks of the loop. */
const TICK_INTERVAL_MS = 16;
/** Wall-clock milliseconds one tick may spend advancing, so messages from the page are never kept waiting. */
const TICK_BUDGET_MS = 8;
/** Virtual milliseconds per advance() call: small enough to check the budget often. */
const SLICE_MS = 100;
/** Wall-clock milliseconds between two snapshots, about the pace a display can show. */
const SNAPSHOT_INTERVAL_MS = 50;
/** Virtual milliseconds advanced by one `step`. */
const STEP_MS = 100;
const MAX_SPEED = 10_000;

/** The wall clock and timer the host runs on (injected so tests can drive it). */
export interface HostClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: HostClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export interface Host {
  receive(message: PageToWorker): void;
}

/** Starts a simulation of the default scenario, playing at 1×, and returns its message handler. */
export function startHost(post: (message: WorkerToPage) => void, clock: HostClock = realClock): Host {
  let sim: Simulation = createSimulation(defaultScenario);
  let run = 0;
  let playing = false;
  let speed = 1;
  let timer: unknown;
  let lastTickAtMs = 0;
  let lastSentAtMs = -Infinity;
  let lastSentSeq = -Infinity;
  // Virtual time owed but not yet advanced: a fraction of a millisecond carried between ticks,
  // so the engine only ever sees whole milliseconds.
  let owedMs = 0;

  function publish(): void {
    const log = sim.events();
    let first = log.length;
    while (first > 0 && log[first - 1].seq > lastSentSeq) first--;
    const events = log.slice(first);
    if (events.length > 0) lastSentSeq = events[events.length - 1].seq;
    post({ type: 'snapshot', run, snapshot: sim.snapshot(), events });
    lastSentAtMs = clock.now();
  }

  function fail(error: unknown): void {
    pause();
    post({ type: 'error', message: errorText(error) });
  }

  function tick(): void {
    timer = undefined;
    const startMs = clock.now();
    owedMs += (startMs - lastTickAtMs) * speed;
    lastTickAtMs = startMs;
    try {
      while (owedMs >= 1 && clock.now() - startMs < TICK_BUDGET_MS) {
        const sliceMs = Math.min(Math.floor(owedMs), SLICE_MS);
        sim.advance(sliceMs);
        owedMs -= sliceMs;
      }
    } catch (error) {
      fail(error);
      return;
    }
    // What did not fit the budget is dropped: the run falls behind the requested speed rather
    // than building a backlog that would freeze the worker.
    owedMs -= Math.floor(owedMs);
    if (clock.now() - lastSentAtMs >= SNAPSHOT_INTERVAL_MS) publish();
    timer = clock.setTimeout(tick, TICK_INTERVAL_MS);
  }

  function play(): void {
    if (playing) return;
    playing = true;
    lastTickAtMs = clock.now();
    timer = clock.setTimeout(tick, TICK_INTERVAL_MS);
  }

  function pause(): void {
    playing = false;
    owedMs = 0;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  }

  function init(scenario: Scenario): void {
    try {
      sim = createSimulation(scenario);
    } catch (error) {
      // The running simulation stays as it was.
      post(
        error instanceof ScenarioError
          ? { type: 'error', message: error.message, issues: error.issues }
          : { type: 'error', message: errorText(error) },
      );
      return;
    }
    run++;
    lastSentSeq = -Infinity;
    publish();
  }

  function receive(message: PageToWorker): void {
    switch (message.type) {
      case 'init':
        init(message.scenario);
        return;
      case 'play':
        play();
        return;
      case 'pause':
        pause();
        publish();
        return;
      case 'setSpeed':
        if (!(message.speed > 0 && message.speed <= MAX_SPEED)) {
          post({
            type: 'error',
            message: `speed must be above 0 and at most ${MAX_SPEED}, got ${message.speed}`,
          });
          return;
        }
        speed = message.speed;
        return;
      case 'command': {
        let result;
        try {
          result = sim.apply(message.command);
        } catch (error) {
          result = { ok: false as const, error: errorText(error) };
        }
        post({ type: 'commandResult', id: message.id, result });
        publish();
        return;
      }
      case 'step':
        try {
          sim.advance(STEP_MS);
        } catch (error) {
          fail(error);
          return;
        }
        publish();
        return;
      default:
        post(unknownMessageError(message));
    }
  }

  publish();
  play();
  return { receive };
}
