// The page's end of the worker protocol: sends the user's actions, routes the worker's replies.
import type { Command, CommandResult } from '../sim/types';
import { unknownMessageError, type PageToWorker, type WorkerToPage } from '../worker/protocol';
import { receiveSimulationMessage, useSimulationStore } from './simulation';

let post: (message: PageToWorker) => void = () => {
  throw new Error('No simulation worker: call connectWorker first');
};
let nextCommandId = 1;
const pendingCommands = new Map<number, (result: CommandResult) => void>();

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

function receive(message: WorkerToPage): void {
  switch (message.type) {
    case 'snapshot':
    case 'error':
      receiveSimulationMessage(message);
      return;
    case 'commandResult':
      pendingCommands.get(message.id)?.(message.result);
      pendingCommands.delete(message.id);
      return;
    default:
      useSimulationStore.setState({ error: unknownMessageError(message) });
  }
}
