// Entry of the simulation worker (created by src/app with `new Worker(..., { type: 'module' })`).
import type { PageToWorker, WorkerToPage } from './protocol';
import { startHost } from './host';

const host = startHost((message: WorkerToPage) => self.postMessage(message));
self.onmessage = (event: MessageEvent<PageToWorker>) => host.receive(event.data);
