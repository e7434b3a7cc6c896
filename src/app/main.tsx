import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectWorker } from '../store/connection';
import { useSimulationStore } from '../store/simulation';
import type { PageToWorker, WorkerToPage } from '../worker/protocol';
import { App } from './App';
import './styles.css';

const worker = new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module' });
const receive = connectWorker((message: PageToWorker) => worker.postMessage(message));
worker.onmessage = (event: MessageEvent<WorkerToPage>) => receive(event.data);
// An exception the host did not catch (the engine failing to start, say) ends up here.
worker.onerror = (event) => {
  useSimulationStore.setState({ error: { message: `Simulation worker failed: ${event.message}` } });
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
