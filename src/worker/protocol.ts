// The one message protocol between the page and the simulation worker, shared by both sides.
// Each direction is one discriminated union; a message of an unknown type is answered with an
// error, never dropped, so a mismatch between the two sides shows at once.
import type { Command, CommandResult, Scenario, ScenarioIssue, SimEvent, Snapshot } from '../sim/types';

export type PageToWorker =
  /** Replace the running simulation with a new one built from this scenario. */
  | { type: 'init'; scenario: Scenario }
  | { type: 'play' }
  | { type: 'pause' }
  /** Simulated milliseconds per wall-clock millisecond. */
  | { type: 'setSpeed'; speed: number }
  /** Apply a command now; answered by a commandResult with the same id. */
  | { type: 'command'; id: number; command: Command }
  /** Advance by one step while paused. */
  | { type: 'step' };

export type WorkerToPage =
  /**
   * The cluster now, and the events logged since the previous snapshot. `run` counts the
   * simulations this worker has built: a new run starts a new event log.
   */
  | { type: 'snapshot'; run: number; snapshot: Snapshot; events: SimEvent[] }
  | { type: 'commandResult'; id: number; result: CommandResult }
  | { type: 'error'; message: string; issues?: ScenarioIssue[] };

/**
 * The error for a message the switch over its union did not handle. Typed `never`, so a new
 * member of the union that a side forgets to handle fails to compile.
 */
export function unknownMessageError(message: never): WorkerToPage & { type: 'error' } {
  const type = (message as { type?: unknown } | null)?.type;
  return { type: 'error', message: `Unknown message type ${JSON.stringify(type) ?? 'undefined'}` };
}
