// What the page knows of the running simulation: the latest snapshot, the event log and the
// last error, all fed by the worker's messages.
import { create } from 'zustand';
import type { ScenarioIssue, SimEvent, Snapshot } from '../sim/types';
import { unknownMessageError, type WorkerToPage } from '../worker/protocol';

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
  message: Extract<WorkerToPage, { type: 'snapshot' | 'error' }>,
): void {
  switch (message.type) {
    case 'snapshot':
      useSimulationStore.setState((state) => {
        const log = message.run === state.run ? state.events.concat(message.events) : message.events;
        return {
          run: message.run,
          snapshot: message.snapshot,
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
