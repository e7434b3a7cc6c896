// The page's end of the worker protocol: sends the user's actions, routes the worker's replies.
import type { Command, CommandResult } from '../sim/types';
import {
  unknownMessageError,
  type LedgerQuery,
  type PageToWorker,
  type WorkerToPage,
} from '../worker/protocol';
import { receivePlaybackStats } from './playback';
import { receiveSimulationMessage, useSimulationStore } from './simulation';
import { receiveTimelineMessage } from './timeline';

let post: (message: PageToWorker) => void = () => {
  throw new Error('No simulation worker: call connectWorker first');
};
let nextCommandId = 1;
const pendingCommands = new Map<number, (result: CommandResult) => void>();

export type LedgerReply = Omit<Extract<WorkerToPage, { type: 'ledger' }>, 'type' | 'id'>;
let nextLedgerId = 1;
const pendingLedgers = new Map<number, (reply: LedgerReply) => void>();

export type MetricsReply = Omit<Extract<WorkerToPage, { type: 'metrics' }>, 'type' | 'id'>;
let nextMetricsId = 1;
const pendingMetrics = new Map<number, (reply: MetricsReply) => void>();

export type ReassignmentPlanReply = Omit<Extract<WorkerToPage, { type: 'reassignmentPlan' }>, 'type' | 'id'>;
let nextPlanId = 1;
const pendingPlans = new Map<number, (reply: ReassignmentPlanReply) => void>();

/** Binds the stores to a worker; returns the handler for the worker's messages. */
export function connectWorker(
  postToWorker: (message: PageToWorker) => void,
): (message: WorkerToPage) => void {
  post = postToWorker;
  return receive;
}

export function send(message: PageToWorker): void {
  post(message);
}

/** Applies a command in the worker, resolving with its result. */
export function sendCommand(command: Command): Promise<CommandResult> {
  const id = nextCommandId++;
  return new Promise((resolve) => {
    pendingCommands.set(id, resolve);
    post({ type: 'command', id, command });
  });
}

/** Asks the worker for the latest ledger entries matching `query`. */
export function requestLedger(query: LedgerQuery): Promise<LedgerReply> {
  const id = nextLedgerId++;
  return new Promise((resolve) => {
    pendingLedgers.set(id, resolve);
    post({ type: 'getLedger', id, query });
  });
}

/** Asks the worker for the latest `limit` vital-sign samples and the invariant violations so far. */
export function requestMetrics(limit?: number): Promise<MetricsReply> {
  const id = nextMetricsId++;
  return new Promise((resolve) => {
    pendingMetrics.set(id, resolve);
    post({ type: 'getMetrics', id, limit });
  });
}

/** Asks the worker for a balanced reassignment plan (kafka-reassign-partitions --generate). */
export function requestReassignmentPlan(
  topics: string[],
  brokerIds: number[],
): Promise<ReassignmentPlanReply> {
  const id = nextPlanId++;
  return new Promise((resolve) => {
    pendingPlans.set(id, resolve);
    post({ type: 'generateReassignment', id, topics, brokerIds });
  });
}

function receive(message: WorkerToPage): void {
  switch (message.type) {
    case 'snapshot':
    case 'snapshotDelta':
    case 'error':
      receiveSimulationMessage(message);
      return;
    case 'stats':
      receivePlaybackStats(message.stats);
      return;
    case 'commandResult':
      pendingCommands.get(message.id)?.(message.result);
      pendingCommands.delete(message.id);
      return;
    case 'ledger': {
      const { type: _type, id, ...reply } = message;
      pendingLedgers.get(id)?.(reply);
      pendingLedgers.delete(id);
      return;
    }
    case 'metrics': {
      const { type: _type, id, ...reply } = message;
      pendingMetrics.get(id)?.(reply);
      pendingMetrics.delete(id);
      return;
    }
    case 'reassignmentPlan': {
      const { type: _type, id, ...reply } = message;
      pendingPlans.get(id)?.(reply);
      pendingPlans.delete(id);
      return;
    }
    case 'timeline':
    case 'session':
    case 'sessionLoaded':
    case 'comparison':
      receiveTimelineMessage(message);
      return;
    default:
      useSimulationStore.setState({ error: unknownMessageError(message) });
  }
}
