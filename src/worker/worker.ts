// Entry of the simulation worker (created by src/app with `new Worker(..., { type: 'module', name })`).
// The worker's name picks the built-in preset it starts with, so a large scenario is drawn
// without first building (and posting) the default one.
import { presetNamed, presets } from '../scenario/presets';
import type { PageToWorker, WorkerToPage } from './protocol';
import { startHost } from './host';

const preset = presetNamed(self.name) ?? presets.default;
const host = startHost((message: WorkerToPage) => self.postMessage(message), undefined, preset.scenario);
self.onmessage = (event: MessageEvent<PageToWorker>) => host.receive(event.data);
