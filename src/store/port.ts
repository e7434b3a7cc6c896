// The page's one way to the simulation worker. A leaf module: the stores that send (playback,
// timeline, lesson) import it, and connection.ts, which routes the worker's replies to those
// stores, binds it, so no store imports the router that imports it.
import type { PageToWorker } from '../worker/protocol';

let post: (message: PageToWorker) => void = () => {
  throw new Error('No simulation worker: call connectWorker first');
};

/** Where messages go from now on (connectWorker calls it). */
export function bindPort(postToWorker: (message: PageToWorker) => void): void {
  post = postToWorker;
}

export function send(message: PageToWorker): void {
  post(message);
}
