import { EventLog } from '../panels/EventLog';
import { PartitionTable } from '../panels/PartitionTable';
import { PlaybackControls } from '../panels/PlaybackControls';
import { useSimulationStore } from '../store/simulation';

export function App() {
  const error = useSimulationStore((state) => state.error);
  return (
    <>
      <header>
        <h1>Kafka Cluster Lab</h1>
        <PlaybackControls />
      </header>
      <main>
        {error && (
          <div role="alert" className="error">
            <p>{error.message}</p>
            {error.issues && (
              <ul>
                {error.issues.map((issue) => (
                  <li key={`${issue.path}: ${issue.message}`}>
                    <code>{issue.path}</code>: {issue.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <PartitionTable />
        <EventLog />
      </main>
    </>
  );
}
