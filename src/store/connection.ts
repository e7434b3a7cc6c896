// The page's end of the worker protocol: sends the user's actions, routes the worker's replies.
import type {
  ClientHistoryView,
  Command,
  CommandResult,
  MessageDiagramView,
  MessageQuery,
  PartitionLogView,
  RecordJourneyView,
} from '../sim/types';
import {
  unknownMessageError,
  type LedgerQuery,
  type PageToWorker,
  type WorkerToPage,
} from '../worker/protocol';
import { receiveLessonState } from './lesson';
import { bindPort, send } from './port';
import { receivePlaybackStats } from './playback';
import { replyChannel } from './replies';
import { receiveSimulationMessage, useSimulationStore } from './simulation';
import { endReplay, receiveTimelineMessage } from './timeline';
import { receiveWhatIfMessage } from './whatIf';

const commands = replyChannel<CommandResult>();

export type LedgerReply = Omit<Extract<WorkerToPage, { type: 'ledger' }>, 'type' | 'id'>;
const ledgers = replyChannel<LedgerReply>();

export type MetricsReply = Omit<Extract<WorkerToPage, { type: 'metrics' }>, 'type' | 'id'>;
const metrics = replyChannel<MetricsReply>();

const partitionLogs = replyChannel<PartitionLogView | null>();
const journeys = replyChannel<RecordJourneyView | null>();
const messageViews = replyChannel<MessageDiagramView>();
const histories = replyChannel<ClientHistoryView>();

export type ReassignmentPlanReply = Omit<Extract<WorkerToPage, { type: 'reassignmentPlan' }>, 'type' | 'id'>;
const plans = replyChannel<ReassignmentPlanReply>();

/** Binds the stores to a worker; returns the handler for the worker's messages. */
export function connectWorker(
  postToWorker: (message: PageToWorker) => void,
): (message: WorkerToPage) => void {
  bindPort(postToWorker);
  return receive;
}

export { send };

/** Applies a command in the worker, resolving with its result. */
export function sendCommand(command: Command): Promise<CommandResult> {
  return commands.request((id) => send({ type: 'command', id, command }));
}

/** Asks the worker for the latest ledger entries matching `query`. */
export function requestLedger(query: LedgerQuery): Promise<LedgerReply> {
  return ledgers.request((id) => send({ type: 'getLedger', id, query }));
}

/** Asks the worker for the latest `limit` vital-sign samples and the invariant violations so far. */
export function requestMetrics(limit?: number): Promise<MetricsReply> {
  return metrics.request((id) => send({ type: 'getMetrics', id, limit }));
}

/** Asks the worker for a partition's log on each replica, offsets [fromOffset, fromOffset + count). */
export function requestPartitionLog(
  topic: string,
  partition: number,
  fromOffset: number,
  count: number,
): Promise<PartitionLogView | null> {
  return partitionLogs.request((id) =>
    send({ type: 'getPartitionLog', id, topic, partition, fromOffset, count }),
  );
}

/** Asks the worker for a produced record's journey. */
export function requestRecordJourney(recordId: number): Promise<RecordJourneyView | null> {
  return journeys.request((id) => send({ type: 'getRecordJourney', id, recordId }));
}

/** Asks the worker for the messages of a time window (the message diagram). */
export function requestMessages(query: MessageQuery): Promise<MessageDiagramView> {
  return messageViews.request((id) => send({ type: 'getMessages', id, query }));
}

/** Asks the worker for each producer's sends of [fromMs, toMs] by outcome (the client history). */
export function requestClientHistory(fromMs: number, toMs: number): Promise<ClientHistoryView> {
  return histories.request((id) => send({ type: 'getClientHistory', id, fromMs, toMs }));
}

/** Asks the worker for a balanced reassignment plan (kafka-reassign-partitions --generate). */
export function requestReassignmentPlan(
  topics: string[],
  brokerIds: number[],
): Promise<ReassignmentPlanReply> {
  return plans.request((id) => send({ type: 'generateReassignment', id, topics, brokerIds }));
}

let acknowledging = false;
/** Tells the worker the page drew the snapshot (at the next frame), so it sends the next one. */
function acknowledgeWhenDrawn(): void {
  if (acknowledging) return;
  acknowledging = true;
  const done = () => {
    acknowledging = false;
    send({ type: 'snapshotShown' });
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(done, 0));
  else setTimeout(done, 0);
}

function receive(message: WorkerToPage): void {
  switch (message.type) {
    case 'snapshot':
    case 'snapshotDelta':
      receiveSimulationMessage(message);
      acknowledgeWhenDrawn();
      return;
    case 'error':
      endReplay();
      receiveSimulationMessage(message);
      return;
    case 'stats':
      receivePlaybackStats(message.stats);
      return;
    case 'commandResult':
      commands.settle(message.id, message.result);
      return;
    case 'ledger': {
      const { type: _type, id, ...reply } = message;
      ledgers.settle(id, reply);
      return;
    }
    case 'metrics': {
      const { type: _type, id, ...reply } = message;
      metrics.settle(id, reply);
      return;
    }
    case 'partitionLog':
      partitionLogs.settle(message.id, message.log);
      return;
    case 'recordJourney':
      journeys.settle(message.id, message.journey);
      return;
    case 'messages':
      messageViews.settle(message.id, message.view);
      return;
    case 'clientHistory':
      histories.settle(message.id, message.history);
      return;
    case 'reassignmentPlan': {
      const { type: _type, id, ...reply } = message;
      plans.settle(id, reply);
      return;
    }
    case 'lessonState':
      receiveLessonState(message.state);
      return;
    case 'whatIfProgress':
    case 'whatIfResult':
      receiveWhatIfMessage(message);
      return;
    case 'timeline':
    case 'steppedTo':
    case 'session':
    case 'sessionLoaded':
    case 'comparison':
    case 'replay':
      receiveTimelineMessage(message);
      return;
    default:
      useSimulationStore.setState({ error: unknownMessageError(message) });
  }
}
