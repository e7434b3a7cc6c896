// What the page knows of the running simulation: the latest snapshot, the event log and the
// last error, all fed by the worker's messages.
import { create } from 'zustand';
import type { ScenarioIssue, SimEvent, Snapshot } from '../sim/types';
import { applySnapshotDelta, unknownMessageError, type WorkerToPage } from '../worker/protocol';

/** The page keeps this many of the latest events; the engine keeps the whole log. */
export const EVENT_LOG_LIMIT = 1000;

export interface SimulationState {
  run: number;
  snapshot: Snapshot | null;
  events: SimEvent[];
  error: { message: string; issues?: ScenarioIssue[] } | null;
}

export const useSimulationStore = create<SimulationState>(() => ({
  run: -1,
  snapshot: null,
  events: [],
  error: null,
}));

/** Folds one snapshot or error message from the worker into the store. */
export function receiveSimulationMessage(
  message: Extract<WorkerToPage, { type: 'snapshot' | 'snapshotDelta' | 'error' }>,
): void {
  switch (message.type) {
    case 'snapshot':
    case 'snapshotDelta':
      useSimulationStore.setState((state) => {
        const sameRun = message.run === state.run;
        // A delta only makes sense on top of the previous snapshot of its run; the host sends a
        // full snapshot first in every run.
        if (message.type === 'snapshotDelta' && (!sameRun || !state.snapshot))
          return { error: { message: `A snapshot delta of run ${message.run} arrived without its base` } };
        const log = sameRun ? state.events.concat(message.events) : message.events;
        return {
          run: message.run,
          // A delta keeps the unchanged fields' and partitions' objects, so selectors can skip them by identity.
          snapshot:
            message.type === 'snapshot'
              ? message.snapshot
              : applySnapshotDelta(state.snapshot!, message.delta),
          events: log.length > EVENT_LOG_LIMIT ? log.slice(log.length - EVENT_LOG_LIMIT) : log,
        };
      });
      return;
    case 'error':
      useSimulationStore.setState({ error: { message: message.message, issues: message.issues } });
      return;
    default:
      useSimulationStore.setState({ error: unknownMessageError(message) });
  }
}
